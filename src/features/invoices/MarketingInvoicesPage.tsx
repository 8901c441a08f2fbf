import { InvoiceList } from './InvoicesPage';

/**
 * Invoices in the Marketing section (`/marketing/manage-invoices`, SPEC §1/§2): the same list as Manage
 * Invoices, read through this page's own permission; no new invoice, no register (its guide is empty).
 */
export default function MarketingInvoicesPage() {
  return <InvoiceList source="marketing" />;
}

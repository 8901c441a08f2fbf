import { Badge } from '@chakra-ui/react';
import { type InvoiceStatus, invoiceStatusLabels } from '../../../contracts/domain/invoice-state';

/**
 * An invoice status's colour as SPEC §9 gives it for invoices: paid green, unpaid orange, pending (part
 * paid) blue, overdue red, failed pink, draft and cancelled gray, a credit note purple. These differ from
 * the generic words of src/lib/status-color.ts (there "pending" is yellow, "unpaid" and "cancelled" red,
 * "draft" blue, and it has no purple), so the invoice pages name theirs here.
 */
type InvoicePalette = 'gray' | 'orange' | 'blue' | 'red' | 'green' | 'pink' | 'purple';

export const invoiceStatusPalettes: Record<InvoiceStatus, InvoicePalette> = {
  draft: 'gray',
  unpaid: 'orange',
  pending: 'blue',
  overdue: 'red',
  paid: 'green',
  failed: 'pink',
  cancelled: 'gray',
  issued: 'purple',
};

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return (
    <Badge colorPalette={invoiceStatusPalettes[status]} variant="subtle">
      {invoiceStatusLabels[status]}
    </Badge>
  );
}

import { Badge, Code, DataList, Grid, HStack, Link, List, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink, useSearch } from 'wouter';
import { formatDateTime, formatDay, formatPercent } from '../../../contracts/domain/format';
import { isUuid } from '../../../contracts/domain/ids';
import { type DocumentParty, type InvoiceDetail, invoicePageLink } from '../../../contracts/invoices';
import { orderPageLink } from '../../../contracts/orders';
import { money } from '../../lib/money';
import { getErrorMessage } from '../../services/http';
import { DownloadButton } from '../../ui/download-button';
import { EntryList } from '../../ui/entry-list';
import { ErrorState, FullPageMessage, LoadingState, PageHeader } from '../../ui/page-states';
import { SectionCard } from '../../ui/section-card';
import { TableScroll } from '../../ui/table-scroll';
import { invoiceFileLink, useInvoiceDetail } from './api';
import { InvoiceActions, invoiceTitle } from './InvoiceActions';
import { InvoiceStatusBadge } from './InvoiceBadges';

const addressText = (party: DocumentParty) =>
  [
    party.addressLine1,
    party.addressLine2,
    `${party.zipcode} ${party.city}`.trim(),
    party.state,
    party.country,
  ]
    .filter((part) => part?.trim())
    .join(', ');

function Party({ label, party }: { label: string; party: DocumentParty }) {
  const rows: [string, string][] = [
    ['Name', party.name],
    ['E-mail', party.email || '—'],
    ['Tax id', party.taxId || '—'],
    ['Address', addressText(party) || '—'],
  ];
  return (
    <Stack gap="1">
      <Text fontWeight="medium">{label}</Text>
      <DataList.Root orientation="horizontal" size="sm" aria-label={label}>
        {rows.map(([name, value]) => (
          <DataList.Item key={name}>
            <DataList.ItemLabel>{name}</DataList.ItemLabel>
            <DataList.ItemValue overflowWrap="anywhere">{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
    </Stack>
  );
}

function Lines({ invoice }: { invoice: InvoiceDetail }) {
  const at = (minor: number) => money(minor, invoice.currency);
  return (
    <TableScroll label="Lines">
      <Table.Root size="sm" aria-label="Lines">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Item</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Quantity</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Unit price</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Discount</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Net</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Tax</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {invoice.lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a frozen document's lines never move.
            <Table.Row key={index}>
              <Table.Cell overflowWrap="anywhere">
                {line.name}
                {line.sku ? (
                  <Text fontSize="xs" color="fg.muted">
                    {line.sku}
                  </Text>
                ) : null}
              </Table.Cell>
              <Table.Cell textAlign="end">{line.quantity}</Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {at(line.unitPriceMinor)}
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {line.discountMinor ? at(line.discountMinor) : '—'}
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {at(line.netMinor)}
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {at(line.taxMinor)}
                <Text fontSize="xs" color="fg.muted">
                  {formatPercent(line.taxRate)}
                </Text>
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {at(line.totalMinor)}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </TableScroll>
  );
}

function Taxes({ invoice }: { invoice: InvoiceDetail }) {
  if (invoice.taxBreakdown.length === 0) return <Text color="fg.muted">No tax.</Text>;
  return (
    <Table.Root size="sm" aria-label="Taxes per rate">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>Rate</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">Taxed amount</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">Tax</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {invoice.taxBreakdown.map((row) => (
          <Table.Row key={row.rate}>
            <Table.Cell>{formatPercent(row.rate)}</Table.Cell>
            <Table.Cell textAlign="end">{money(row.baseMinor, invoice.currency)}</Table.Cell>
            <Table.Cell textAlign="end">{money(row.taxMinor, invoice.currency)}</Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

function Totals({ invoice }: { invoice: InvoiceDetail }) {
  const at = (minor: number) => money(minor, invoice.currency);
  const rows: [string, string, string][] = [
    ['Net', at(invoice.netMinor), 'invoice-money-net'],
    ['Tax', at(invoice.taxMinor), 'invoice-money-tax'],
    ['Shipping', at(invoice.shippingMinor), 'invoice-money-shipping'],
    ['Total', at(invoice.totalMinor), 'invoice-money-total'],
  ];
  if (invoice.kind === 'invoice') {
    rows.push(['Paid', at(invoice.paidMinor), 'invoice-money-paid']);
    if (invoice.creditedMinor) rows.push(['Credited', at(invoice.creditedMinor), 'invoice-money-credited']);
    rows.push(['Balance', at(invoice.balanceMinor), 'invoice-money-balance']);
  }
  return (
    <DataList.Root orientation="horizontal" size="sm">
      {rows.map(([label, value, testId]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue data-testid={testId}>{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

function Related({ invoice }: { invoice: InvoiceDetail }) {
  const items = [];
  if (invoice.creditedInvoice)
    items.push(
      <List.Item key="corrects">
        Corrects invoice{' '}
        <Link asChild>
          <RouterLink href={invoicePageLink(invoice.creditedInvoice.id)}>
            {invoice.creditedInvoice.number ?? 'Draft'}
          </RouterLink>
        </Link>
      </List.Item>,
    );
  if (invoice.order)
    items.push(
      <List.Item key="order">
        Order{' '}
        <Link asChild>
          <RouterLink href={orderPageLink(invoice.order.id)}>{invoice.order.reference}</RouterLink>
        </Link>
      </List.Item>,
    );
  for (const note of invoice.creditNotes)
    items.push(
      <List.Item key={note.id}>
        Credit note{' '}
        <Link asChild>
          <RouterLink href={invoicePageLink(note.id)}>{note.number ?? 'Draft'}</RouterLink>
        </Link>{' '}
        <Text as="span" color="fg.muted">
          {money(note.totalMinor, invoice.currency)}
          {note.issueDate ? `, ${formatDay(note.issueDate)}` : ''}
        </Text>
      </List.Item>,
    );
  if (items.length === 0) return <Text color="fg.muted">Typed by hand: no order or credit note.</Text>;
  return (
    <List.Root gap="2" listStyleType="none" fontSize="sm" aria-label="Related documents">
      {items}
    </List.Root>
  );
}

function Downloads({ invoice }: { invoice: InvoiceDetail }) {
  if (invoice.number === null)
    return <Text color="fg.muted">A draft has no files: issue it for its PDF and XML.</Text>;
  const name = (invoice.number ?? 'invoice').replace(/[^A-Za-z0-9._-]+/g, '-');
  const files: [string, string, string][] = [
    ['PDF', invoiceFileLink(invoice.id, 'pdf'), `${name}.pdf`],
    ['XML (EN 16931)', invoiceFileLink(invoice.id, 'xml'), `${name}.xml`],
  ];
  if (invoice.gstExport)
    files.push(['GST e-invoice (JSON)', invoiceFileLink(invoice.id, 'gst.json'), `${name}.gst.json`]);
  return (
    <Stack gap="3">
      <HStack gap="2" wrap="wrap" aria-label="Downloads" role="group">
        {files.map(([label, path, fileName]) => (
          <DownloadButton key={label} path={path} fileName={fileName}>
            {label}
          </DownloadButton>
        ))}
      </HStack>
      <Fingerprints invoice={invoice} />
    </Stack>
  );
}

/** The SHA-256 of the frozen document and of its PDF, stored when it was issued. */
function Fingerprints({ invoice }: { invoice: InvoiceDetail }) {
  const rows: [string, string | null][] = [
    ['Document', invoice.documentSha256],
    ['PDF', invoice.pdfSha256],
  ];
  if (!rows.some(([, value]) => value)) return null;
  return (
    <Stack gap="1" data-testid="invoice-fingerprint">
      <Text fontSize="xs" fontWeight="medium">
        Fingerprint (SHA-256)
      </Text>
      {rows.map(([label, value]) =>
        value ? (
          <Text key={label} fontSize="xs" color="fg.muted">
            {label}:{' '}
            <Code fontSize="xs" wordBreak="break-all" variant="plain">
              {value}
            </Code>
          </Text>
        ) : null,
      )}
    </Stack>
  );
}

const ACTIONS: Record<string, string> = {
  created: 'made the draft',
  issued: 'issued it',
  payment: 'recorded a payment',
  'payment failed': 'marked its payment failed',
  credited: 'credited it',
  mailed: 'mailed it',
  overdue: 'found it overdue',
  deleted: 'deleted it',
};

function History({ invoice }: { invoice: InvoiceDetail }) {
  return <EntryList entries={invoice.history} actions={ACTIONS} label="Invoice history" />;
}

/**
 * One invoice or credit note (`/invoices/invoice?id=…`, issue 31): its parties, lines, taxes per rate and
 * money, what it relates to (order, credit notes, the invoice a credit note corrects), its files with
 * their fingerprints and its history, with the actions its state and the user's permissions allow.
 */
export default function InvoicePage() {
  const id = new URLSearchParams(useSearch()).get('id');
  const validId = id && isUuid(id) ? id : null;
  const detail = useInvoiceDetail(validId);

  if (!validId)
    return (
      <FullPageMessage title="No invoice chosen" description="Open an invoice from the invoices list." />
    );
  if (detail.isPending) return <LoadingState rows={6} label="Loading the invoice" />;
  if (detail.isError)
    return <ErrorState message={getErrorMessage(detail.error)} onRetry={() => detail.refetch()} />;
  const invoice = detail.data;
  const issued = invoice.issueDate
    ? `issued ${formatDay(invoice.issueDate)}${invoice.dueDate ? `, due ${formatDay(invoice.dueDate)}` : ''}`
    : `made ${formatDateTime(invoice.createdAt)}`;
  return (
    <>
      <PageHeader
        title={invoiceTitle(invoice)}
        description={`From ${invoice.seller.name} to ${invoice.buyer.name}, ${issued}`}
        actions={<InvoiceActions invoice={invoice} />}
      />
      <HStack gap="2" mb="4" wrap="wrap">
        <span data-testid="invoice-status">
          <InvoiceStatusBadge status={invoice.status} />
        </span>
        <Badge variant="outline">{invoice.currency}</Badge>
        {invoice.reference ? <Badge variant="outline">Reference {invoice.reference}</Badge> : null}
      </HStack>
      <Grid
        templateColumns={{ base: '1fr', xl: 'minmax(0, 2fr) minmax(18rem, 1fr)' }}
        gap="4"
        alignItems="start"
      >
        <Stack gap="4" minW="0">
          <SectionCard title="Lines" tour="invoice-lines">
            <Lines invoice={invoice} />
          </SectionCard>
          <SectionCard title="Taxes per rate">
            <Taxes invoice={invoice} />
          </SectionCard>
          <SectionCard title="Totals" tour="invoice-money">
            <Totals invoice={invoice} />
          </SectionCard>
          {invoice.notes ? (
            <SectionCard title="Notes">
              <Text whiteSpace="pre-wrap" overflowWrap="anywhere">
                {invoice.notes}
              </Text>
            </SectionCard>
          ) : null}
        </Stack>
        <Stack gap="4">
          <SectionCard title="Parties">
            <Stack gap="4">
              <Party label="Seller" party={invoice.seller} />
              <Party label="Buyer" party={invoice.buyer} />
            </Stack>
          </SectionCard>
          <SectionCard title={invoice.kind === 'credit_note' ? 'Corrects' : 'Order and credit notes'}>
            <Related invoice={invoice} />
          </SectionCard>
          <SectionCard title="Downloads">
            <Downloads invoice={invoice} />
          </SectionCard>
          <SectionCard title="History">
            <History invoice={invoice} />
          </SectionCard>
        </Stack>
      </Grid>
    </>
  );
}

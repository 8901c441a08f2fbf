import { Button, Link, List, Stack, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { Link as RouterLink, useLocation } from 'wouter';
import { type InvoiceStatus, invoiceStatusLabels } from '../../../contracts/domain/invoice-state';
import { CREATE_INVOICE_ROUTE, INVOICES_API, invoicePageLink } from '../../../contracts/invoices';
import { ORDERS_API, type OrderDetail } from '../../../contracts/orders';
import { money } from '../../lib/money';
import { getErrorMessage, http } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { DownloadButton } from '../../ui/download-button';
import { notify } from '../../ui/notify';

/**
 * An order's documents (issue 31): the packing slip, its invoice and the credit notes of its refunds,
 * each a link to its page; "Create invoice" drafts the order's invoice when it has none in force.
 */
export function OrderDocuments({ order }: { order: OrderDetail }) {
  const [, navigate] = useLocation();
  const invoices = useRouteActions(CREATE_INVOICE_ROUTE);
  const draft = useMutation({
    mutationFn: async () =>
      (await http.post(INVOICES_API, { source: 'order', orderId: order.id }, { silent: true })).data as {
        id: string;
      },
    onSuccess: (invoice) => navigate(invoicePageLink(invoice.id)),
    onError: (failure) => notify({ type: 'error', title: getErrorMessage(failure) }),
  });
  const inForce = order.invoices.some((doc) => doc.kind === 'invoice' && doc.status !== 'cancelled');
  return (
    <Stack gap="3">
      <DownloadButton
        alignSelf="start"
        path={`${ORDERS_API}/${order.id}/packing-slip.pdf`}
        fileName={`${order.reference}-packing-slip.pdf`}
      >
        <FileText aria-hidden /> Packing slip (PDF)
      </DownloadButton>
      {order.invoices.length === 0 ? (
        <Text color="fg.muted" fontSize="sm">
          Not invoiced yet.
        </Text>
      ) : (
        <List.Root gap="1" listStyleType="none" aria-label="Invoices and credit notes">
          {order.invoices.map((doc) => (
            <List.Item key={doc.id} fontSize="sm">
              <Link asChild>
                <RouterLink href={invoicePageLink(doc.id)}>
                  {doc.kind === 'credit_note' ? 'Credit note' : 'Invoice'} {doc.number ?? '(draft)'}
                </RouterLink>
              </Link>{' '}
              <Text as="span" color="fg.muted">
                {money(doc.totalMinor, order.currency)} ·{' '}
                {invoiceStatusLabels[doc.status as InvoiceStatus] ?? doc.status}
              </Text>
            </List.Item>
          ))}
        </List.Root>
      )}
      {!inForce && invoices.can('create') && order.status !== 'cancelled' ? (
        <Button
          size="xs"
          variant="outline"
          alignSelf="start"
          loading={draft.isPending}
          onClick={() => draft.mutate()}
        >
          Create invoice
        </Button>
      ) : null}
    </Stack>
  );
}

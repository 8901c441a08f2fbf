import { Badge, Button, DataList, Grid, HStack, List, Stack, Table, Text } from '@chakra-ui/react';
import { Check } from 'lucide-react';
import { Link as RouterLink, useSearch } from 'wouter';
import { formatDateTime, formatDay } from '../../../contracts/domain/format';
import { isUuid } from '../../../contracts/domain/ids';
import { toleranceText } from '../../../contracts/domain/purchase-order-state';
import { PURCHASE_ORDERS_ROUTE, type PurchaseOrderDetail } from '../../../contracts/purchase-orders';
import { money } from '../../lib/money';
import { useRouteActions } from '../../services/route-permissions';
import { EntryList } from '../../ui/entry-list';
import { PageHeader, recordState } from '../../ui/page-states';
import { SectionCard } from '../../ui/section-card';
import { TableScroll } from '../../ui/table-scroll';
import { usePurchaseOrderDetail } from './api';
import { PurchaseOrderActions } from './PurchaseOrderActions';
import { PurchaseOrderStatusBadge } from './PurchaseOrderBadges';

function Lines({ po }: { po: PurchaseOrderDetail }) {
  return (
    <TableScroll label={`Lines of ${po.reference}`}>
      <Table.Root size="sm" aria-label={`Lines of ${po.reference}`}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Product</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Ordered</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Received</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Accepted</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Unit cost</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Line total</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {po.lines.map((line) => (
            <Table.Row key={line.id} data-testid="po-line">
              <Table.Cell overflowWrap="anywhere">
                {line.name}
                <Text fontSize="xs" color="fg.muted">
                  {line.sku}
                  {line.done ? (
                    <Badge ms="2" size="sm" colorPalette="green" variant="subtle">
                      <Check size={12} aria-hidden /> Received
                    </Badge>
                  ) : null}
                </Text>
              </Table.Cell>
              <Table.Cell textAlign="end">{line.quantity}</Table.Cell>
              <Table.Cell textAlign="end">{line.received}</Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                <Text as="span" title={`Tolerance ${toleranceText(line.tolerance)}`}>
                  {line.lowestAccepted}–{line.highestAccepted}
                </Text>
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {money(line.unitCostMinor, po.currency)}
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {money(line.unitCostMinor * line.quantity, po.currency)}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
        <Table.Footer>
          <Table.Row>
            <Table.Cell colSpan={5} fontWeight="medium">
              Total
            </Table.Cell>
            <Table.Cell textAlign="end" fontWeight="medium" whiteSpace="nowrap" data-testid="po-total">
              {money(po.totalMinor, po.currency)}
            </Table.Cell>
          </Table.Row>
        </Table.Footer>
      </Table.Root>
    </TableScroll>
  );
}

function Receipts({ po }: { po: PurchaseOrderDetail }) {
  if (po.receipts.length === 0) return <Text color="fg.muted">Nothing has arrived yet.</Text>;
  const names = new Map(po.lines.map((line) => [line.id, line.name]));
  return (
    <List.Root gap="3" listStyleType="none" aria-label="Receipts">
      {po.receipts.map((receipt) => (
        <List.Item key={receipt.id} fontSize="sm" data-testid="po-receipt">
          <Text>
            <Text as="span" fontWeight="medium">
              Receipt {receipt.number}
            </Text>{' '}
            <Text as="span" color="fg.muted">
              {formatDateTime(receipt.createdAt)} by {receipt.actorName || 'the system'}
            </Text>
          </Text>
          <Text overflowWrap="anywhere">
            {receipt.lines
              .map((item) => `${item.quantity} × ${names.get(item.lineId) ?? 'a line'}`)
              .join(', ')}
          </Text>
          {receipt.note ? (
            <Text color="fg.muted" overflowWrap="anywhere">
              {receipt.note}
            </Text>
          ) : null}
          {receipt.overReason ? (
            <Text color="fg.muted" overflowWrap="anywhere">
              Kept over the tolerance: {receipt.overReason}
            </Text>
          ) : null}
        </List.Item>
      ))}
    </List.Root>
  );
}

function Rows({ rows }: { rows: [string, string][] }) {
  return (
    <DataList.Root orientation="horizontal" size="sm">
      {rows.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue overflowWrap="anywhere">{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

function Supplier({ po }: { po: PurchaseOrderDetail }) {
  const { supplier } = po;
  return (
    <Rows
      rows={[
        ['Name', supplier.name],
        ['E-mail', supplier.email],
        ['Phone', supplier.phone || '—'],
        ['Tax id', supplier.taxId || '—'],
        ['Currency', supplier.currency],
        ['Tolerance', toleranceText(supplier.tolerance)],
        ['State', supplier.active ? 'Active' : 'Inactive'],
      ]}
    />
  );
}

function Details({ po }: { po: PurchaseOrderDetail }) {
  return (
    <Stack gap="3">
      <Rows
        rows={[
          ['Shop', po.sellerName ?? '—'],
          ['Currency', po.currency],
          ['Expected on', po.expectedOn ? formatDay(po.expectedOn) : '—'],
          ['Created', formatDateTime(po.createdAt)],
          ['Sent', po.sentAt ? formatDateTime(po.sentAt) : 'Not yet'],
        ]}
      />
      {po.notes ? (
        <Text fontSize="sm" whiteSpace="pre-wrap" overflowWrap="anywhere">
          {po.notes}
        </Text>
      ) : null}
    </Stack>
  );
}

const ACTIONS: Record<string, string> = {
  created: 'drafted the purchase order',
  sent: 'sent it to the supplier',
  received: 'took goods in',
  cancelled: 'cancelled it',
};

function History({ po }: { po: PurchaseOrderDetail }) {
  return <EntryList entries={po.history} actions={ACTIONS} label="Purchase order history" />;
}

/**
 * One purchase order (`/orders/purchase-order?id=…`, issue 31): its lines with what arrived and the
 * range each accepts, the receipts, the supplier, its PDF and its history, with the actions its state
 * allows to those who may edit purchase orders.
 */
export default function PurchaseOrderPage() {
  const id = new URLSearchParams(useSearch()).get('id');
  const valid = isUuid(id);
  const detail = usePurchaseOrderDetail(valid ? id : null);
  const { can } = useRouteActions(PURCHASE_ORDERS_ROUTE);
  const back = (
    <Button asChild variant="outline">
      <RouterLink href={PURCHASE_ORDERS_ROUTE}>Back to purchase orders</RouterLink>
    </Button>
  );
  const { data: po, view } = recordState(detail, {
    valid,
    back,
    noneChosen: {
      title: 'No purchase order chosen',
      description: 'This address does not name a purchase order. Open one from the purchase-order list.',
    },
    notFound: {
      title: 'Purchase order not found',
      description: 'There is no such purchase order, or it is not one you may see.',
    },
    loading: { rows: 6, label: 'Loading the purchase order' },
  });
  if (!po) return view;
  return (
    <>
      <PageHeader
        title={`${po.reference}: ${po.supplierName}`}
        description={`Purchase order to ${po.supplierName} <${po.supplier.email}> for the stock of ${po.sellerName ?? 'a shop'}`}
        actions={<PurchaseOrderActions po={po} canEdit={can('edit')} />}
      />
      <HStack gap="2" mb="4" wrap="wrap">
        <span data-testid="po-status">
          <PurchaseOrderStatusBadge status={po.status} />
        </span>
      </HStack>
      <Grid
        templateColumns={{ base: '1fr', xl: 'minmax(0, 2fr) minmax(18rem, 1fr)' }}
        gap="4"
        alignItems="start"
      >
        <Stack gap="4" minW="0">
          <SectionCard title="Lines" tour="po-lines">
            <Lines po={po} />
          </SectionCard>
          <SectionCard title="Receipts" tour="po-receipts">
            <Receipts po={po} />
          </SectionCard>
        </Stack>
        <Stack gap="4">
          <SectionCard title="Details">
            <Details po={po} />
          </SectionCard>
          <SectionCard title="Supplier">
            <Supplier po={po} />
          </SectionCard>
          <SectionCard title="History">
            <History po={po} />
          </SectionCard>
        </Stack>
      </Grid>
    </>
  );
}

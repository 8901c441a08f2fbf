import { Badge, DataList, Grid, HStack, Link, List, Stack, Table, Text } from '@chakra-ui/react';
import { Link as RouterLink, useSearch } from 'wouter';
import { formatDateTime } from '../../../contracts/domain/format';
import { isUuid } from '../../../contracts/domain/ids';
import {
  ORDER_PAGE,
  type OrderAddress,
  type OrderDetail,
  paymentMethodLabels,
} from '../../../contracts/orders';
import { money } from '../../lib/money';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { EntryList } from '../../ui/entry-list';
import { ErrorState, FullPageMessage, LoadingState, PageHeader } from '../../ui/page-states';
import { PricingTable } from '../../ui/pricing-table';
import { SectionCard } from '../../ui/section-card';
import { useOrderDetail } from './api';
import { OrderActions } from './OrderActions';
import { OrderStatusBadge, PaymentStateBadge } from './OrderBadges';
import { OrderDocuments } from './OrderDocuments';

const addressText = (address: OrderAddress) =>
  [
    address.fullName,
    address.addressLine1,
    address.addressLine2,
    `${address.zipcode} ${address.city}`.trim(),
    address.state,
    address.country,
  ]
    .filter((part) => part?.trim())
    .join(', ');

function Customer({ order }: { order: OrderDetail }) {
  const rows: [string, string][] = [
    ['Customer', order.customerName],
    ['E-mail', order.email],
    ['Phone', order.phone || '—'],
    ['Ship to', addressText(order.shippingAddress)],
    ['Bill to', addressText(order.billingAddress)],
    ['Seller', order.sellerName ?? '—'],
    ['Placed', formatDateTime(order.createdAt)],
  ];
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

function Money({ order }: { order: OrderDetail }) {
  const rows: [string, string, string][] = [
    ['Total', money(order.totalMinor, order.currency), 'order-money-total'],
    ['Paid', money(order.paidMinor, order.currency), 'order-money-paid'],
    ['Refunded', money(order.refundedMinor, order.currency), 'order-money-refunded'],
    ['Still due', money(order.balanceDueMinor, order.currency), 'order-money-due'],
  ];
  return (
    <Stack gap="3">
      <DataList.Root orientation="horizontal" size="sm">
        {rows.map(([label, value, testId]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue data-testid={testId}>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      {order.payments.length ? (
        <Table.Root size="sm" aria-label="Payments">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Paid on</Table.ColumnHeader>
              <Table.ColumnHeader>Method</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {order.payments.map((payment) => (
              <Table.Row key={payment.id}>
                <Table.Cell>{payment.paidOn}</Table.Cell>
                <Table.Cell>
                  {paymentMethodLabels[payment.method as keyof typeof paymentMethodLabels] ?? payment.method}
                  {payment.reference ? (
                    <Text fontSize="xs" color="fg.muted">
                      {payment.reference}
                    </Text>
                  ) : null}
                </Table.Cell>
                <Table.Cell textAlign="end">{money(payment.amountMinor, order.currency)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      ) : null}
      {order.refunds.length ? (
        <Table.Root size="sm" aria-label="Refunds">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Refund</Table.ColumnHeader>
              <Table.ColumnHeader>Reason</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {order.refunds.map((refund) => (
              <Table.Row key={refund.id} data-testid="order-refund">
                <Table.Cell whiteSpace="nowrap">
                  {refund.number}
                  <Text fontSize="xs" color="fg.muted">
                    {formatDateTime(refund.createdAt)}
                  </Text>
                </Table.Cell>
                <Table.Cell overflowWrap="anywhere">
                  {refund.reason}
                  {refund.returns.length ? (
                    <Text fontSize="xs" color="fg.muted">
                      Back:{' '}
                      {refund.returns
                        .map(
                          (item) =>
                            `${item.quantity} × ${item.name} (${item.restock ? 'restocked' : 'written off'})`,
                        )
                        .join(', ')}
                    </Text>
                  ) : null}
                </Table.Cell>
                <Table.Cell textAlign="end">{money(refund.amountMinor, order.currency)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      ) : null}
    </Stack>
  );
}

function Shipments({ order }: { order: OrderDetail }) {
  if (order.shipments.length === 0) return <Text color="fg.muted">Not shipped yet.</Text>;
  return (
    <List.Root gap="2" listStyleType="none" aria-label="Shipments">
      {order.shipments.map((shipment) => (
        <List.Item key={shipment.id} fontSize="sm">
          <Text>
            {shipment.carrier}
            {shipment.trackingNumber ? `, tracking ${shipment.trackingNumber}` : ''}
          </Text>
          <Text color="fg.muted">
            {formatDateTime(shipment.createdAt)} by {shipment.actorName || 'the system'}
          </Text>
        </List.Item>
      ))}
    </List.Root>
  );
}

function Versions({ order }: { order: OrderDetail }) {
  return (
    <List.Root gap="2" listStyleType="none" aria-label="Order versions">
      {[...order.versions].reverse().map((version) => (
        <List.Item key={version.version} fontSize="sm">
          <Text>
            <Text as="span" fontWeight="medium">
              Version {version.version}
            </Text>{' '}
            · {money(version.totalMinor, order.currency)}
          </Text>
          <Text color="fg.muted" overflowWrap="anywhere">
            {version.reason} — {version.actorName || 'the system'}, {formatDateTime(version.createdAt)}
          </Text>
          {version.diff?.lines.length ? (
            <Text color="fg.muted" fontSize="xs">
              {version.diff.lines.map((line) => `${line.name}: ${line.kind}`).join('; ')}
            </Text>
          ) : null}
        </List.Item>
      ))}
    </List.Root>
  );
}

const ACTIONS: Record<string, string> = {
  created: 'placed the order',
  edited: 'edited the lines',
  payment: 'recorded a payment',
  refund: 'refunded',
  shipped: 'shipped it',
  delivered: 'marked it delivered',
  cancelled: 'cancelled it',
};

function History({ order }: { order: OrderDetail }) {
  return <EntryList entries={order.history} actions={ACTIONS} label="Order history" />;
}

/**
 * One order (`/orders/order?id=…`, issue 31): its lines as the server priced them, the money (payments
 * and refunds), the shipment, the versions and the history, with the actions its state allows.
 */
export default function OrderPage() {
  const id = new URLSearchParams(useSearch()).get('id');
  const validId = id && isUuid(id) ? id : null;
  const detail = useOrderDetail(validId);
  const { can } = useRouteActions(ORDER_PAGE);

  if (!validId)
    return <FullPageMessage title="No order chosen" description="Open an order from the orders list." />;
  if (detail.isPending) return <LoadingState rows={6} label="Loading the order" />;
  if (detail.isError)
    return <ErrorState message={getErrorMessage(detail.error)} onRetry={() => detail.refetch()} />;
  const order = detail.data;
  return (
    <>
      <PageHeader
        title={`${order.reference}: ${order.customerName}`}
        description={`Order of ${order.sellerName ?? 'a seller'} for ${order.customerName} <${order.email}>`}
        actions={can('edit') ? <OrderActions order={order} /> : undefined}
      />
      <HStack gap="2" mb="4" wrap="wrap">
        <span data-testid="order-status">
          <OrderStatusBadge status={order.status} />
        </span>
        <span data-testid="order-payment-state">
          <PaymentStateBadge state={order.paymentState} />
        </span>
        <Badge variant="outline">Version {order.version}</Badge>
        {order.offer ? (
          <Badge variant="outline" asChild>
            <Link asChild>
              <RouterLink href={`/customers/offer?id=${order.offer.id}`}>
                From {order.offer.reference}, version {order.offer.version}
              </RouterLink>
            </Link>
          </Badge>
        ) : null}
      </HStack>
      <Grid
        templateColumns={{ base: '1fr', xl: 'minmax(0, 2fr) minmax(18rem, 1fr)' }}
        gap="4"
        alignItems="start"
      >
        <Stack gap="4" minW="0">
          <SectionCard title="Lines" tour="order-lines">
            <PricingTable pricing={order.pricing} caption={`Lines of ${order.reference}`} testId="order" />
          </SectionCard>
          <SectionCard title="Money" tour="order-money">
            <Money order={order} />
          </SectionCard>
          <SectionCard title="Versions">
            <Versions order={order} />
          </SectionCard>
        </Stack>
        <Stack gap="4">
          <SectionCard title="Customer">
            <Customer order={order} />
          </SectionCard>
          <SectionCard title="Shipment">
            <Shipments order={order} />
          </SectionCard>
          <SectionCard title="Documents" tour="order-documents">
            <OrderDocuments order={order} />
          </SectionCard>
          <SectionCard title="History">
            <History order={order} />
          </SectionCard>
        </Stack>
      </Grid>
    </>
  );
}

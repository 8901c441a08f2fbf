import { Table } from '@chakra-ui/react';
import { formatMoney } from '../../contracts/domain/currency';
import { formatDate } from '../../contracts/domain/format';
import type { Period } from '../../contracts/subscriptions';

/** A seller's subscription periods, newest first: the seller's own page and the admins' drawer alike. */
export function SubscriptionPeriodsTable({ periods }: { periods: readonly Period[] }) {
  return (
    <Table.Root size="sm">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>Plan</Table.ColumnHeader>
          <Table.ColumnHeader>From</Table.ColumnHeader>
          <Table.ColumnHeader>To</Table.ColumnHeader>
          <Table.ColumnHeader textAlign="end">Price</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {periods.map((period) => (
          <Table.Row key={period.id}>
            <Table.Cell>{period.plan.name}</Table.Cell>
            <Table.Cell>{formatDate(period.startsAt)}</Table.Cell>
            <Table.Cell>{formatDate(period.endsAt)}</Table.Cell>
            <Table.Cell textAlign="end">
              {formatMoney(period.plan.priceMinor / 100, period.plan.currency)}
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

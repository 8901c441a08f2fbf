import { HStack, Stack, Table, Text } from '@chakra-ui/react';
import type { OfferPricing } from '../../contracts/offers';
import { money } from '../lib/money';
import { TableScroll } from './table-scroll';

function discountText(line: OfferPricing['lines'][number], currency: string) {
  if (line.discountTotalMinor === 0) return '—';
  const what = line.discountPercent !== null ? ` (${line.discountPercent} %)` : '';
  return `−${money(line.discountTotalMinor, currency)}${what}`;
}

/**
 * Priced content as the server computed it (an offer's version, an order's lines): the lines (the unit
 * price a quantity break chose, the discount, the tax), then subtotal, discount, taxes, shipping and the
 * total. Display only. `testId` names the totals ('offer' → offer-totals, offer-total).
 */
export function PricingTable({
  pricing,
  caption,
  testId = 'offer',
}: {
  pricing: OfferPricing;
  caption: string;
  testId?: string;
}) {
  const { currency, totals } = pricing;
  const rows: [string, string][] = [
    ['Subtotal', money(totals.subtotalMinor, currency)],
    ['Discount', totals.discountMinor ? `−${money(totals.discountMinor, currency)}` : money(0, currency)],
    ['Taxes', money(totals.taxMinor, currency)],
    [
      pricing.shippingCountry ? `Shipping to ${pricing.shippingCountry}` : 'Shipping',
      money(totals.shippingMinor, currency),
    ],
  ];
  return (
    <Stack gap="3">
      <TableScroll label={caption}>
        <Table.Root size="sm" aria-label={caption}>
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Item</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Quantity</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Unit price</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Discount</Table.ColumnHeader>
              <Table.ColumnHeader>Tax</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {pricing.lines.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a priced version's lines never reorder
              <Table.Row key={`${line.productId ?? line.sku ?? ''}-${index}`}>
                <Table.Cell>
                  <Text overflowWrap="anywhere">{line.name}</Text>
                  {line.sku ? (
                    <Text fontSize="xs" color="fg.muted">
                      SKU {line.sku}
                    </Text>
                  ) : null}
                  {line.quantityBreaks.length ? (
                    <Text fontSize="xs" color="fg.muted">
                      From{' '}
                      {line.quantityBreaks
                        .map((b) => `${b.minQuantity}: ${money(b.unitPriceMinor, currency)}`)
                        .join(', ')}
                    </Text>
                  ) : null}
                </Table.Cell>
                <Table.Cell textAlign="end">{line.quantity}</Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  {money(line.unitPriceMinor, currency)}
                  {line.unitPriceMinor !== line.listUnitPriceMinor ? (
                    <Text fontSize="xs" color="fg.muted">
                      list {money(line.listUnitPriceMinor, currency)}
                    </Text>
                  ) : null}
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  {discountText(line, currency)}
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">
                  {line.taxLabel ? `${line.taxLabel}: ${money(line.taxMinor, currency)}` : 'No tax'}
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap" fontWeight="medium">
                  {money(line.totalMinor, currency)}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </TableScroll>
      <Stack gap="1" alignSelf="flex-end" minW="64" data-testid={`${testId}-totals`}>
        {rows.map(([label, value]) => (
          <HStack key={label} justify="space-between" gap="6">
            <Text color="fg.muted">{label}</Text>
            <Text>{value}</Text>
          </HStack>
        ))}
        <HStack justify="space-between" gap="6" borderTopWidth="1px" pt="1" fontWeight="semibold">
          <Text>Total</Text>
          <Text data-testid={`${testId}-total`}>{money(totals.totalMinor, currency)}</Text>
        </HStack>
      </Stack>
      {pricing.notes ? (
        <Text whiteSpace="pre-wrap" overflowWrap="anywhere">
          {pricing.notes}
        </Text>
      ) : null}
    </Stack>
  );
}

import { Badge, HStack, List, Stack, Text } from '@chakra-ui/react';
import type { OfferDiff } from '../../../contracts/offers';
import { money } from '../../lib/money';

const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  sku: 'SKU',
  quantity: 'Quantity',
  listUnitPriceMinor: 'List price',
  unitPriceMinor: 'Unit price',
  quantityBreaks: 'Quantity breaks',
  discountPercent: 'Percent off',
  discountMinor: 'Amount off',
  taxOptionId: 'Tax',
  totalMinor: 'Line total',
  currency: 'Currency',
  shippingCountry: 'Shipping country',
  validUntil: 'Valid until',
  notes: 'Notes',
  'totals.subtotalMinor': 'Subtotal',
  'totals.discountMinor': 'Discount',
  'totals.taxMinor': 'Taxes',
  'totals.shippingMinor': 'Shipping',
  'totals.totalMinor': 'Total',
};

/** How a changed value reads: amounts (fields ending in Minor) as money, breaks as "from n: price". */
export function diffValue(value: unknown, field: string, currency: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field.endsWith('Minor') && typeof value === 'number') return money(value, currency);
  if (field === 'quantityBreaks' && Array.isArray(value)) {
    if (value.length === 0) return 'none';
    return value
      .map(
        (b: { minQuantity: number; unitPriceMinor: number }) =>
          `from ${b.minQuantity}: ${money(b.unitPriceMinor, currency)}`,
      )
      .join(', ');
  }
  if (field === 'discountPercent') return `${value} %`;
  return String(value);
}

const kindPalette = { added: 'green', removed: 'red', changed: 'yellow' } as const;
const kindLabel = { added: 'Added', removed: 'Removed', changed: 'Changed' } as const;

/** A line-level diff: lines added, removed or changed (each field before → after), then the totals. */
export function OfferDiffView({
  diff,
  currency,
  label,
}: {
  diff: OfferDiff;
  currency: string;
  label: string;
}) {
  if (diff.lines.length === 0 && diff.fields.length === 0)
    return <Text color="fg.muted">Nothing the customer sees changed.</Text>;
  const change = (field: string, before: unknown, after: unknown) => (
    <List.Item key={field}>
      {FIELD_LABELS[field] ?? field}: <Text as="del">{diffValue(before, field, currency)}</Text> →{' '}
      <Text as="ins" textDecoration="none" fontWeight="medium">
        {diffValue(after, field, currency)}
      </Text>
    </List.Item>
  );
  return (
    <Stack gap="3" aria-label={label} role="group" data-testid="offer-diff">
      {diff.lines.map((line) => (
        <Stack key={`${line.kind}-${line.key}`} gap="1" data-kind={line.kind}>
          <HStack gap="2">
            <Badge colorPalette={kindPalette[line.kind]} variant="subtle">
              {kindLabel[line.kind]}
            </Badge>
            <Text fontWeight="medium" overflowWrap="anywhere">
              {line.name}
            </Text>
          </HStack>
          {line.changes.length ? (
            <List.Root ps="5" fontSize="sm">
              {line.changes.map((c) => change(c.field, c.before, c.after))}
            </List.Root>
          ) : null}
        </Stack>
      ))}
      {diff.fields.length ? (
        <List.Root ps="5" fontSize="sm">
          {diff.fields.map((c) => change(c.field, c.before, c.after))}
        </List.Root>
      ) : null}
    </Stack>
  );
}

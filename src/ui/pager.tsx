import { Button, HStack, Text } from '@chakra-ui/react';
import { formatNumber } from '../../contracts/domain/format';

/**
 * Previous / next paging for server-paged lists, with "11–20 of 34". Hidden when everything fits on
 * one page. `label` names the list for screen readers ("Customers pages"). `compact` is for narrow
 * places (a side list, a tab): smaller buttons with the range between them and no outer margin, so
 * the caller's own spacing decides. A list that stops counting (`capped`: `count` is a lower bound,
 * "of 1,000+") pages on while the current page is full (`pageLength` rows on it).
 */
export function Pager({
  skip,
  limit,
  count,
  onSkipChange,
  label,
  compact = false,
  capped = false,
  pageLength,
}: {
  skip: number;
  limit: number;
  count: number;
  onSkipChange: (skip: number) => void;
  label: string;
  compact?: boolean;
  capped?: boolean;
  pageLength?: number;
}) {
  if (count <= limit && skip === 0 && !capped) return null;
  const shown = pageLength ?? limit;
  const first = capped ? skip + (shown > 0 ? 1 : 0) : Math.min(skip + 1, count);
  const last = capped ? skip + shown : Math.min(skip + limit, count);
  const hasNext = capped ? shown >= limit : skip + limit < count;
  const size = compact ? 'xs' : 'sm';
  const range = (
    <Text fontSize={size} color="fg.muted" aria-live="polite">
      {formatNumber(first)}–{formatNumber(last)} of {formatNumber(count)}
      {capped ? '+' : ''}
    </Text>
  );
  const previous = (
    <Button
      size={size}
      variant="outline"
      disabled={skip === 0}
      onClick={() => onSkipChange(Math.max(0, skip - limit))}
    >
      Previous
    </Button>
  );
  const next = (
    <Button size={size} variant="outline" disabled={!hasNext} onClick={() => onSkipChange(skip + limit)}>
      Next
    </Button>
  );
  return compact ? (
    <HStack as="nav" aria-label={label} justify="space-between">
      {previous}
      {range}
      {next}
    </HStack>
  ) : (
    <HStack as="nav" aria-label={label} justify="space-between" mt="4" gap="3">
      {range}
      <HStack gap="2">
        {previous}
        {next}
      </HStack>
    </HStack>
  );
}

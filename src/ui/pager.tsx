import { Button, HStack, Text } from '@chakra-ui/react';

/**
 * Previous / next paging for server-paged lists, with "11–20 of 34". Hidden when everything fits on
 * one page. `label` names the list for screen readers ("Customers pages"). `compact` is for narrow
 * places (a side list, a tab): smaller buttons with the range between them and no outer margin, so
 * the caller's own spacing decides.
 */
export function Pager({
  skip,
  limit,
  count,
  onSkipChange,
  label,
  compact = false,
}: {
  skip: number;
  limit: number;
  count: number;
  onSkipChange: (skip: number) => void;
  label: string;
  compact?: boolean;
}) {
  if (count <= limit && skip === 0) return null;
  const first = Math.min(skip + 1, count);
  const last = Math.min(skip + limit, count);
  const size = compact ? 'xs' : 'sm';
  const range = (
    <Text fontSize={size} color="fg.muted" aria-live="polite">
      {first}–{last} of {count}
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
    <Button
      size={size}
      variant="outline"
      disabled={skip + limit >= count}
      onClick={() => onSkipChange(skip + limit)}
    >
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

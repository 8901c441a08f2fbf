import { Button, HStack, Text } from '@chakra-ui/react';

/**
 * Previous / next paging for server-paged lists, with "11–20 of 34". Hidden when everything fits on
 * one page. `label` names the list for screen readers ("Customers pages").
 */
export function Pager({
  skip,
  limit,
  count,
  onSkipChange,
  label,
}: {
  skip: number;
  limit: number;
  count: number;
  onSkipChange: (skip: number) => void;
  label: string;
}) {
  if (count <= limit && skip === 0) return null;
  const first = Math.min(skip + 1, count);
  const last = Math.min(skip + limit, count);
  return (
    <HStack as="nav" aria-label={label} justify="space-between" mt="4" gap="3">
      <Text fontSize="sm" color="fg.muted" aria-live="polite">
        {first}–{last} of {count}
      </Text>
      <HStack gap="2">
        <Button
          size="sm"
          variant="outline"
          disabled={skip === 0}
          onClick={() => onSkipChange(Math.max(0, skip - limit))}
        >
          Previous
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={skip + limit >= count}
          onClick={() => onSkipChange(skip + limit)}
        >
          Next
        </Button>
      </HStack>
    </HStack>
  );
}

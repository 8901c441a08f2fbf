import { Button, HStack, Text } from '@chakra-ui/react';

/** Previous / next over a server-paged list, with "11–20 of 45". Nothing when one page holds it all. */
export function Pager({
  skip,
  limit,
  count,
  onChange,
}: {
  skip: number;
  limit: number;
  count: number;
  onChange: (skip: number) => void;
}) {
  if (count <= limit && skip === 0) return null;
  return (
    <HStack justify="space-between" pt="3">
      <Button
        size="xs"
        variant="outline"
        disabled={skip === 0}
        onClick={() => onChange(Math.max(0, skip - limit))}
      >
        Previous
      </Button>
      <Text fontSize="xs" color="fg.muted">
        {count === 0 ? 0 : skip + 1}–{Math.min(skip + limit, count)} of {count}
      </Text>
      <Button
        size="xs"
        variant="outline"
        disabled={skip + limit >= count}
        onClick={() => onChange(skip + limit)}
      >
        Next
      </Button>
    </HStack>
  );
}

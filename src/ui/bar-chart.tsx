import { Box, Flex, Text } from '@chakra-ui/react';

export interface BarDatum {
  label: string;
  value: number;
  /** A colour token for this bar (e.g. `green.solid` for a status); the brand colour otherwise. */
  color?: string;
}

/**
 * A small accessible bar chart in plain boxes: enough for a handful of bars, and no chart library in
 * the bundle. Each bar carries its value as text for screen readers and for anyone who prefers numbers.
 */
export function BarChart({ data, label }: { data: BarDatum[]; label: string }) {
  const max = Math.max(1, ...data.map((d) => d.value));
  return (
    // role="img" hides the bars from assistive technology, so the label carries the numbers too.
    <Flex
      role="img"
      aria-label={`${label}: ${data.map((d) => `${d.label} ${d.value}`).join(', ')}`}
      align="flex-end"
      gap="2"
      h="40"
      pt="4"
    >
      {data.map((d) => (
        <Flex key={d.label} direction="column" align="center" justify="flex-end" flex="1" h="full" minW="0">
          <Text fontSize="xs" color="fg.muted">
            {d.value}
          </Text>
          <Box
            w="full"
            maxW="10"
            bg={d.color ?? 'brand.solid'}
            borderTopRadius="sm"
            h={`${(d.value / max) * 100}%`}
            minH="1"
          />
          <Text fontSize="2xs" color="fg.muted" mt="1" truncate maxW="full">
            {d.label}
          </Text>
        </Flex>
      ))}
    </Flex>
  );
}

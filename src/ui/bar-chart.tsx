import { Box, Flex, Text } from '@chakra-ui/react';

/**
 * A small accessible bar chart in plain boxes: enough for a handful of bars, and no chart library in
 * the bundle. Each bar carries its value as text for screen readers and for anyone who prefers numbers.
 */
export function BarChart({ data, label }: { data: { label: string; value: number }[]; label: string }) {
  const max = Math.max(1, ...data.map((d) => d.value));
  return (
    <Flex role="img" aria-label={label} align="flex-end" gap="2" h="40" pt="4">
      {data.map((d) => (
        <Flex key={d.label} direction="column" align="center" justify="flex-end" flex="1" h="full" minW="0">
          <Text fontSize="xs" color="fg.muted">
            {d.value}
          </Text>
          <Box
            w="full"
            maxW="10"
            bg="brand.solid"
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

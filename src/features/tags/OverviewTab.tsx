// The status overview: the draft's tags by status against the published tree (what the next publish
// would do), how many sit at each depth, how many carry no products, the largest subtrees — charts with
// their numbers beside them — and when the tree was last published and its levels calculated.
import { Box, Heading, SimpleGrid, Stack, Stat, Table, Text } from '@chakra-ui/react';
import { formatNumber } from '../../../contracts/domain/format';
import { tagStatuses, tagStatusLabels } from '../../../contracts/tags';
import { relativeTime } from '../../lib/relative-time';
import { getErrorMessage } from '../../services/http';
import { BarChart } from '../../ui/bar-chart';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { useTagOverview, useTreeState, useVersions } from './api';
import { statusPalette } from './format';

export function OverviewTab() {
  const overview = useTagOverview(true);
  const state = useTreeState();
  const last = useVersions(0, 1);
  if (overview.isPending) return <LoadingState rows={4} label="Loading the overview" />;
  if (overview.isError)
    return <ErrorState message={getErrorMessage(overview.error)} onRetry={() => overview.refetch()} />;
  const data = overview.data;
  const latest = last.data?.result[0];
  const levelsAt = state.data?.levelsCalculatedAt;
  return (
    <Stack gap="6" data-testid="tag-overview">
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="4">
        {tagStatuses.map((status) => (
          <Stat.Root key={status} borderWidth="1px" rounded="md" p="3" data-testid={`status-${status}`}>
            <Stat.Label>{tagStatusLabels[status]}</Stat.Label>
            <Stat.ValueText color={`${statusPalette[status]}.fg`}>
              {formatNumber(data.byStatus[status])}
            </Stat.ValueText>
          </Stat.Root>
        ))}
      </SimpleGrid>
      <Text fontSize="sm" color="fg.muted">
        {latest
          ? `Version ${latest.number} is live, published ${relativeTime(latest.publishedAt)} by ${latest.publishedBy.name}.`
          : 'Nothing is published yet.'}{' '}
        {levelsAt
          ? `Levels and product counts were calculated ${relativeTime(levelsAt)}.`
          : 'Levels have not been calculated yet.'}
      </Text>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
        <Box>
          <Heading size="sm" mb="2">
            Tags by status
          </Heading>
          <BarChart
            label="Tags by status"
            data={tagStatuses.map((status) => ({
              label: tagStatusLabels[status],
              value: data.byStatus[status],
              color: `${statusPalette[status]}.solid`,
            }))}
          />
        </Box>
        <Box>
          <Heading size="sm" mb="2">
            Tags by level
          </Heading>
          <BarChart
            label="Tags by level"
            data={data.depth.map((row) => ({ label: `Level ${row.level}`, value: row.count }))}
          />
        </Box>
      </SimpleGrid>
      <Stat.Root borderWidth="1px" rounded="md" p="3" maxW="sm">
        <Stat.Label>Tags without products (in them or below them)</Stat.Label>
        <Stat.ValueText data-testid="without-products">
          {formatNumber(data.withoutProducts)} of {formatNumber(data.nodeCount)}
        </Stat.ValueText>
      </Stat.Root>
      <Box>
        <Heading size="sm" mb="2">
          Largest subtrees
        </Heading>
        <Box overflowX="auto">
          <Table.Root size="sm" aria-label="Largest subtrees">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Tag</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Tags in it</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Products</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {data.largestSubtrees.map((row) => (
                <Table.Row key={row.id}>
                  <Table.Cell>{row.path}</Table.Cell>
                  <Table.Cell textAlign="end">{formatNumber(row.size)}</Table.Cell>
                  <Table.Cell textAlign="end">{formatNumber(row.products)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      </Box>
    </Stack>
  );
}

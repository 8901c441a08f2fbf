import {
  Box,
  Button,
  CloseButton,
  Drawer,
  Heading,
  HStack,
  Portal,
  SimpleGrid,
  Stack,
  Stat,
  Table,
  Text,
} from '@chakra-ui/react';
import { Download } from 'lucide-react';
import { productStatusLabels } from '../../../contracts/catalog';
import type { CatalogReport } from '../../../contracts/catalog-actions';
import { formatDateTime, formatNumber } from '../../../contracts/domain/format';
import type { QueryTree } from '../../../contracts/query-tree';
import { statusColor } from '../../lib/status-color';
import { getErrorMessage } from '../../services/http';
import { BarChart } from '../../ui/bar-chart';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { useReport } from './api';

const quote = (cell: string | number) => {
  const text = String(cell);
  // Spreadsheets run cells starting with these as formulas: a leading quote keeps them text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The report as a CSV of sections (what the drawer shows, in numbers). */
export function reportCsv(report: CatalogReport, summary: string): string {
  const lines: (string | number)[][] = [
    ['Staging products report', report.generatedAt],
    ['Query', summary],
    ['Products', report.total],
    ['Without images', report.withoutImages],
    [],
    ['Status', 'Products'],
    ...report.byStatus.map((entry) => [productStatusLabels[entry.status], entry.count]),
    [],
    ['Category', 'Products'],
    ...report.byCategory.map((entry) => [entry.label, entry.count]),
    [],
    ['Seller', 'Products'],
    ...report.bySeller.map((entry) => [entry.label, entry.count]),
    [],
    ['Completeness', 'Products'],
    ...report.completeness.map((entry) => [entry.band, entry.count]),
    [],
    ['Missing required attribute', 'Products missing it'],
    ...report.missingAttributes.map((entry) => [entry.label, entry.count]),
  ];
  return `\uFEFF${lines.map((line) => line.map(quote).join(',')).join('\r\n')}\r\n`;
}

function download(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="2">
      <Heading size="sm">{title}</Heading>
      {children}
    </Stack>
  );
}

/**
 * Named counts as ranked rows (a bar under each name): long names stay readable where a column chart
 * would drop every other label.
 */
function RankedBars({ label, data }: { label: string; data: { label: string; count: number }[] }) {
  const max = Math.max(1, ...data.map((entry) => entry.count));
  return (
    <Stack gap="2" as="ol" aria-label={label} listStyleType="none">
      {data.map((entry) => (
        <Box as="li" key={entry.label}>
          <HStack justify="space-between" fontSize="sm">
            <Text lineClamp={1}>{entry.label}</Text>
            <Text fontVariantNumeric="tabular-nums">{formatNumber(entry.count)}</Text>
          </HStack>
          <Box h="1.5" rounded="full" bg="bg.muted" aria-hidden>
            <Box h="full" rounded="full" bg="brand.solid" w={`${(100 * entry.count) / max}%`} />
          </Box>
        </Box>
      ))}
    </Stack>
  );
}

/** The report of the grid's query: charts where a person would rather look than read, numbers beside. */
export function ReportDrawer({
  open,
  query,
  search,
  summary,
  onClose,
}: {
  open: boolean;
  query: QueryTree;
  search: string;
  /** The query in words, printed on the report. */
  summary: string;
  onClose: () => void;
}) {
  const report = useReport({ query, search }, open);
  const data = report.data;
  return (
    <Drawer.Root open={open} onOpenChange={(event) => !event.open && onClose()} size="lg">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content aria-label="Report">
            <Drawer.Header>
              <Stack gap="1">
                <Drawer.Title>Report</Drawer.Title>
                <Text fontSize="sm" color="fg.muted">
                  {summary}
                </Text>
              </Stack>
            </Drawer.Header>
            <Drawer.Body>
              {report.isError ? (
                <ErrorState message={getErrorMessage(report.error)} onRetry={() => report.refetch()} />
              ) : !data ? (
                <LoadingState label="Counting…" />
              ) : (
                <Stack gap="6" data-testid="catalog-report">
                  <SimpleGrid columns={{ base: 2, md: 3 }} gap="3">
                    <Stat.Root borderWidth="1px" rounded="md" p="3">
                      <Stat.Label>Products</Stat.Label>
                      <Stat.ValueText data-testid="report-total">{formatNumber(data.total)}</Stat.ValueText>
                    </Stat.Root>
                    <Stat.Root borderWidth="1px" rounded="md" p="3">
                      <Stat.Label>Without images</Stat.Label>
                      <Stat.ValueText>{formatNumber(data.withoutImages)}</Stat.ValueText>
                    </Stat.Root>
                    <Stat.Root borderWidth="1px" rounded="md" p="3">
                      <Stat.Label>Complete</Stat.Label>
                      <Stat.ValueText>{formatNumber(data.completeness.at(-1)?.count ?? 0)}</Stat.ValueText>
                    </Stat.Root>
                  </SimpleGrid>
                  <Section title="By status">
                    <BarChart
                      label="Products by status"
                      data={data.byStatus.map((entry) => ({
                        label: productStatusLabels[entry.status],
                        value: entry.count,
                        color: `${statusColor(productStatusLabels[entry.status])}.solid`,
                      }))}
                    />
                  </Section>
                  <Section title="Completeness">
                    <BarChart
                      label="Products by completeness"
                      data={data.completeness.map((entry) => ({ label: entry.band, value: entry.count }))}
                    />
                  </Section>
                  <Section title="By category">
                    <RankedBars label="Products by category" data={data.byCategory} />
                  </Section>
                  <Section title="By seller">
                    <RankedBars label="Products by seller" data={data.bySeller} />
                  </Section>
                  <Section title="Required attributes most often missing">
                    {data.missingAttributes.length === 0 ? (
                      <Text color="fg.muted">Every required attribute is filled.</Text>
                    ) : (
                      <Table.Root size="sm">
                        <Table.Header>
                          <Table.Row>
                            <Table.ColumnHeader>Attribute</Table.ColumnHeader>
                            <Table.ColumnHeader textAlign="end">Products missing it</Table.ColumnHeader>
                          </Table.Row>
                        </Table.Header>
                        <Table.Body>
                          {data.missingAttributes.map((entry) => (
                            <Table.Row key={entry.id}>
                              <Table.Cell>{entry.label}</Table.Cell>
                              <Table.Cell textAlign="end">{formatNumber(entry.count)}</Table.Cell>
                            </Table.Row>
                          ))}
                        </Table.Body>
                      </Table.Root>
                    )}
                  </Section>
                </Stack>
              )}
            </Drawer.Body>
            <Drawer.Footer>
              <HStack justify="space-between" w="full">
                <Box fontSize="xs" color="fg.muted">
                  {data ? `As of ${formatDateTime(data.generatedAt)}` : null}
                </Box>
                <Button
                  variant="outline"
                  disabled={!data}
                  onClick={() =>
                    data &&
                    download(reportCsv(data, summary), `staging-report-${data.generatedAt.slice(0, 10)}.csv`)
                  }
                >
                  <Download /> Download CSV
                </Button>
              </HStack>
            </Drawer.Footer>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

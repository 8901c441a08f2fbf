// The campaigns dashboard (SPEC §1, issue 17): how the bulk mails are doing, counted live by the server
// — sends over time, rates per campaign, answers, the latest campaigns with their progress and how the
// contacts grow by source. Every chart has its numbers beside it.
import { Badge, Box, Card, Heading, HStack, Progress, SimpleGrid, Stat, Text } from '@chakra-ui/react';
import { campaignStatusLabels } from '../../../contracts/campaigns';
import type { CampaignsDashboard } from '../../../contracts/campaigns-dashboard';
import { formatDateTime, formatMonth, formatNumber, formatPercent } from '../../../contracts/domain/format';
import { type ContactSource, contactSourceLabels, contactSources } from '../../../contracts/marketing';
import { statusColor } from '../../lib/status-color';
import { getErrorMessage } from '../../services/http';
import { BarChart, GroupedBarChart } from '../../ui/bar-chart';
import { FiguresTable } from '../../ui/figures-table';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { useCampaignsDashboard } from './api';

/** "2026-11" → "Nov 2026": the month as the calendar names it, in UTC wherever the reader is. */
export const monthLabel = (month: string) => formatMonth(`${month}-01T00:00:00Z`, 'UTC');

export function CampaignsSection() {
  const dashboard = useCampaignsDashboard();
  if (dashboard.isPending) return <LoadingState />;
  if (dashboard.isError)
    return <ErrorState message={getErrorMessage(dashboard.error)} onRetry={() => dashboard.refetch()} />;
  const data = dashboard.data;
  return (
    <Box as="section" aria-label="Campaigns" mb="8">
      <CampaignStats totals={data.totals} />
      <SimpleGrid columns={{ base: 1, xl: 2 }} gap="4">
        <SentOverTime rows={data.sentOverTime} />
        <LatestCampaigns rows={data.latest} />
        <RatesPerCampaign rows={data.perCampaign} />
        <ResponsesByAnswer rows={data.responsesByAnswer} />
        <ContactsGrowth rows={data.contactsGrowth} />
      </SimpleGrid>
    </Box>
  );
}

function CampaignStats({ totals }: { totals: CampaignsDashboard['totals'] }) {
  const stats: [string, string, string?][] = [
    ['Contacts', formatNumber(totals.contacts), `${formatNumber(totals.subscribed)} subscribed`],
    ['Campaigns sent', formatNumber(totals.campaignsSent)],
    [
      'Mails sent',
      formatNumber(totals.mailsSent),
      totals.mailsDeferred ? `${formatNumber(totals.mailsDeferred)} waiting for a retry` : undefined,
    ],
    ['Failures', formatNumber(totals.mailsFailed), `${formatNumber(totals.bounced)} addresses bounced`],
    ['Responses', formatNumber(totals.responses)],
    ['Unsubscribed', formatNumber(totals.unsubscribed)],
  ];
  return (
    <SimpleGrid columns={{ base: 2, md: 3, xl: 6 }} gap="4" mb="4" data-tour="campaign-stats">
      {stats.map(([label, value, help]) => (
        <Card.Root key={label}>
          <Card.Body>
            <Stat.Root>
              <Stat.Label>{label}</Stat.Label>
              <Stat.ValueText>{value}</Stat.ValueText>
              {/* A <dl> holds only <dt>/<dd>: the help is a second <dd> of the figure. */}
              {help ? <Stat.HelpText as="dd">{help}</Stat.HelpText> : null}
            </Stat.Root>
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}

/** A titled card; the caller's box carries the tour target (spelled out, so the tour test finds it). */
function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card.Root h="full">
      <Card.Header>
        <Heading size="md">{title}</Heading>
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}

/** A chart with its numbers in a table beside it (below it on narrow screens). */
function ChartWithNumbers({ chart, table }: { chart: React.ReactNode; table: React.ReactNode }) {
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4" alignItems="start">
      <Box minW="0">{chart}</Box>
      <Box overflowX="auto">{table}</Box>
    </SimpleGrid>
  );
}

const Empty = ({ children }: { children: React.ReactNode }) => <Text color="fg.muted">{children}</Text>;

function SentOverTime({ rows }: { rows: CampaignsDashboard['sentOverTime'] }) {
  return (
    <Box data-tour="campaigns-over-time">
      <Panel title="Campaigns sent over time">
        {rows.length === 0 ? (
          <Empty>No campaign has been sent in the last 12 months.</Empty>
        ) : (
          <ChartWithNumbers
            chart={
              <BarChart
                label="Mails sent per month"
                data={rows.map((row) => ({ label: monthLabel(row.month), value: row.mails }))}
              />
            }
            table={
              <FiguresTable
                label="Mails sent per month"
                rows={rows}
                rowKey={(row) => row.month}
                columns={[
                  { header: 'Month', cell: (row) => monthLabel(row.month) },
                  { header: 'Campaigns', cell: (row) => formatNumber(row.campaigns), numeric: true },
                  { header: 'Mails', cell: (row) => formatNumber(row.mails), numeric: true },
                ]}
              />
            }
          />
        )}
      </Panel>
    </Box>
  );
}

function LatestCampaigns({ rows }: { rows: CampaignsDashboard['latest'] }) {
  return (
    <Box data-tour="latest-campaigns">
      <Panel title="Latest campaigns">
        {rows.length === 0 ? (
          <Empty>No campaign yet.</Empty>
        ) : (
          <Box as="ul" listStyleType="none" display="grid" gap="3">
            {rows.map((row) => {
              const label = campaignStatusLabels[row.status];
              const share = row.total ? Math.round((row.done / row.total) * 100) : 0;
              return (
                <Box as="li" key={row.id}>
                  <HStack justify="space-between" gap="2">
                    <Text fontWeight="medium" truncate>
                      {row.name}
                    </Text>
                    <Badge colorPalette={statusColor(label)}>{label}</Badge>
                  </HStack>
                  {row.status === 'scheduled' ? (
                    <Text fontSize="sm" color="fg.muted">
                      Scheduled for {formatDateTime(row.scheduledAt)}
                    </Text>
                  ) : (
                    <>
                      <Progress.Root
                        value={share}
                        size="sm"
                        // As on the campaigns list: the brand colour, orange while a person must resume.
                        colorPalette={row.status === 'paused' ? 'orange' : 'brand'}
                        mt="1"
                        aria-label={`${row.name}: ${share} % done`}
                      >
                        <Progress.Track>
                          <Progress.Range />
                        </Progress.Track>
                      </Progress.Root>
                      <Text fontSize="sm" color="fg.muted">
                        {formatNumber(row.sent)} sent of {formatNumber(row.total)}
                        {row.failed ? `, ${formatNumber(row.failed)} failed` : ''}
                        {row.deferred ? `, ${formatNumber(row.deferred)} waiting for a retry` : ''}
                      </Text>
                    </>
                  )}
                </Box>
              );
            })}
          </Box>
        )}
      </Panel>
    </Box>
  );
}

function RatesPerCampaign({ rows }: { rows: CampaignsDashboard['perCampaign'] }) {
  return (
    <Box data-tour="campaign-rates">
      <Panel title="Response and unsubscribe rates">
        {rows.length === 0 ? (
          <Empty>Rates appear once a campaign has been sent.</Empty>
        ) : (
          <>
            <GroupedBarChart
              label="Rates per campaign, percent of the mails sent"
              categories={rows.map((row) => row.name)}
              series={[
                {
                  name: 'Response rate',
                  color: 'brand.solid',
                  values: rows.map((row) => row.responseRate),
                  format: (value: number) => formatPercent(value),
                },
                {
                  name: 'Unsubscribe rate',
                  color: 'orange.solid',
                  values: rows.map((row) => row.unsubscribeRate),
                  format: (value: number) => formatPercent(value),
                },
              ]}
            />
            <Box overflowX="auto" mt="3">
              <FiguresTable
                label="Rates per campaign"
                rows={rows}
                rowKey={(row) => row.id}
                columns={[
                  { header: 'Campaign', cell: (row) => row.name },
                  { header: 'Sent', cell: (row) => formatNumber(row.sent), numeric: true },
                  { header: 'Failed', cell: (row) => formatNumber(row.failed), numeric: true },
                  {
                    header: 'Responses',
                    cell: (row) => `${formatNumber(row.responses)} (${formatPercent(row.responseRate)})`,
                    numeric: true,
                  },
                  {
                    // The campaigns list counts the same: recipients who left after this campaign's mail
                    // and before any later one.
                    header: 'Unsubscribes',
                    cell: (row) =>
                      `${formatNumber(row.unsubscribes)} (${formatPercent(row.unsubscribeRate)})`,
                    numeric: true,
                  },
                ]}
              />
            </Box>
          </>
        )}
      </Panel>
    </Box>
  );
}

function ResponsesByAnswer({ rows }: { rows: CampaignsDashboard['responsesByAnswer'] }) {
  return (
    <Box data-tour="responses-by-answer">
      <Panel title="Responses by answer">
        {rows.length === 0 ? (
          <Empty>No recipient has answered yet.</Empty>
        ) : (
          <ChartWithNumbers
            chart={
              <BarChart
                label="Responses by answer"
                rows
                data={rows.map((row) => ({ label: row.response, value: row.count }))}
              />
            }
            table={
              <FiguresTable
                label="Responses by answer"
                headless
                rows={rows}
                rowKey={(row) => row.response}
                columns={[
                  { header: 'Answer', cell: (row) => row.response },
                  { header: 'Responses', cell: (row) => formatNumber(row.count), numeric: true },
                ]}
              />
            }
          />
        )}
      </Panel>
    </Box>
  );
}

interface GrowthRow {
  month: string;
  bySource: Record<ContactSource, number>;
  total: number;
}

/** New contacts per month, one column per source. */
export function growthTable(rows: CampaignsDashboard['contactsGrowth']): GrowthRow[] {
  const months = [...new Set(rows.map((row) => row.month))].sort();
  const count = new Map(rows.map((row) => [`${row.month} ${row.source}`, row.count]));
  return months.map((month) => {
    const bySource = Object.fromEntries(
      contactSources.map((source) => [source, count.get(`${month} ${source}`) ?? 0]),
    ) as Record<ContactSource, number>;
    return { month, bySource, total: contactSources.reduce((sum, source) => sum + bySource[source], 0) };
  });
}

function ContactsGrowth({ rows }: { rows: CampaignsDashboard['contactsGrowth'] }) {
  const table = growthTable(rows);
  return (
    <Box data-tour="contacts-growth">
      <Panel title="Contacts growth by source">
        {table.length === 0 ? (
          <Empty>No contact was added in the last 12 months.</Empty>
        ) : (
          <>
            <BarChart
              label="New contacts per month"
              data={table.map((row) => ({ label: monthLabel(row.month), value: row.total }))}
            />
            <Box overflowX="auto" mt="3">
              <FiguresTable
                label="New contacts per month by source"
                rows={table}
                rowKey={(row) => row.month}
                columns={[
                  { header: 'Month', cell: (row) => monthLabel(row.month) },
                  ...contactSources.map((source) => ({
                    header: contactSourceLabels[source],
                    cell: (row: GrowthRow) => formatNumber(row.bySource[source]),
                    numeric: true,
                  })),
                  { header: 'All', cell: (row) => formatNumber(row.total), numeric: true },
                ]}
              />
            </Box>
          </>
        )}
      </Panel>
    </Box>
  );
}

import { Card, Heading, SimpleGrid, Stat, Table } from '@chakra-ui/react';
import { formatNumber } from '../../../contracts/domain/format';
import { getErrorMessage } from '../../services/http';
import { BarChart } from '../../ui/bar-chart';
import { ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { useDashboardSummary } from './api';
import { CampaignsSection, monthLabel } from './CampaignsSection';

/**
 * The admin and staff landing page (SPEC §1): the campaigns dashboard, then the marketplace figures it
 * had before — all counted live by the server.
 */
export default function DashboardPage() {
  const summary = useDashboardSummary();
  return (
    <>
      <PageHeader title="Campaigns dashboard" description="Your campaigns and the marketplace at a glance." />
      <CampaignsSection />
      <Heading as="h2" size="lg" mb="4">
        Marketplace
      </Heading>
      {summary.isPending ? (
        <LoadingState />
      ) : summary.isError ? (
        <ErrorState message={getErrorMessage(summary.error)} onRetry={() => summary.refetch()} />
      ) : (
        <>
          <SimpleGrid columns={{ base: 1, sm: 2, lg: 5 }} gap="4" mb="6" data-tour="seller-tabs">
            {[
              ['Active sellers', summary.data.sellerTabs.active],
              ['Pending verification', summary.data.sellerTabs.pendingVerification],
              ['Pending KYC', summary.data.sellerTabs.pendingKyc],
              ['Inactive sellers', summary.data.sellerTabs.inactive],
              ['Blocked subscriptions', summary.data.blockedSellers],
            ].map(([label, value]) => (
              <Card.Root key={label}>
                <Card.Body>
                  <Stat.Root>
                    <Stat.Label>{label}</Stat.Label>
                    <Stat.ValueText>{typeof value === 'number' ? formatNumber(value) : value}</Stat.ValueText>
                  </Stat.Root>
                </Card.Body>
              </Card.Root>
            ))}
          </SimpleGrid>
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
            <Card.Root data-tour="seller-signups">
              <Card.Header>
                <Heading size="md">Seller sign-ups, last 12 months</Heading>
              </Card.Header>
              <Card.Body>
                <BarChart
                  label="Seller sign-ups per month"
                  data={summary.data.sellerSignups.map((row) => ({
                    label: monthLabel(row.month),
                    value: row.count,
                  }))}
                />
              </Card.Body>
            </Card.Root>
            <Card.Root data-tour="users-by-role">
              <Card.Header>
                <Heading size="md">Back-office users</Heading>
              </Card.Header>
              <Card.Body>
                <Table.Root size="sm">
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>Role</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">Users</Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {summary.data.usersByRole.map((row) => (
                      <Table.Row key={row.role}>
                        <Table.Cell>{row.role}</Table.Cell>
                        <Table.Cell textAlign="end">{formatNumber(row.count)}</Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </Card.Body>
            </Card.Root>
          </SimpleGrid>
        </>
      )}
    </>
  );
}

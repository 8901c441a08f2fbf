// The Campaigns tab: every campaign, newest first, a page at a time from the server — its status, the
// progress of a send (read again every 2 s while one sends, and at once when the broker says a send
// job finished), what was sent, deferred and failed, answers and unsubscribes, and when it was
// scheduled, started and finished. Filters by status and name; refresh.
import { Box, Button, Flex, HStack, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { type CampaignSummary, campaignStatusLabels } from '../../../contracts/campaigns';
import { formatNumber, plural } from '../../../contracts/domain/format';
import { type CampaignStatus, campaignStatuses } from '../../../contracts/marketing';
import { getErrorMessage } from '../../services/api-error';
import { taskStore } from '../../services/tasks';
import { RefreshButton } from '../../ui/list-controls';
import { EmptyListState, ErrorState, LoadingState } from '../../ui/page-states';
import { PagedTable } from '../../ui/paged-table';
import { SearchBox } from '../../ui/search-box';
import { useCampaignList } from './api';
import { CampaignProgress, CampaignStatusBadge, When } from './CampaignParts';

export const CAMPAIGNS_PAGE_SIZE = 20;

/**
 * Calls `refresh` when a running task leaves the task store — its completion arrived on the broker —
 * so a list shows a finished send at once rather than on its next poll.
 */
export function useRefreshOnTaskDone(refresh: () => void) {
  const tasks = useSyncExternalStore(taskStore.subscribe, () => taskStore.getSnapshot().tasks);
  const previous = useRef(tasks);
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  useEffect(() => {
    const gone = Object.keys(previous.current).some((id) => !(id in tasks));
    previous.current = tasks;
    if (gone) refreshRef.current();
  }, [tasks]);
}

function CampaignRow({ campaign, onOpen }: { campaign: CampaignSummary; onOpen(): void }) {
  const showsProgress = campaign.status === 'sending' || campaign.status === 'paused';
  return (
    <Table.Row data-testid="campaign-row">
      <Table.Cell maxW="xs">
        <Button
          variant="plain"
          p="0"
          h="auto"
          fontWeight="semibold"
          onClick={onOpen}
          aria-label={`Open ${campaign.name}`}
        >
          <Text truncate>{campaign.name}</Text>
        </Button>
        <Text fontSize="xs" color="fg.muted" truncate>
          {campaign.templateName ?? 'No template'} · by {campaign.createdByName}
        </Text>
      </Table.Cell>
      <Table.Cell>
        <CampaignStatusBadge status={campaign.status} />
      </Table.Cell>
      <Table.Cell minW="44">
        {showsProgress ? (
          <CampaignProgress campaign={campaign} size="xs" />
        ) : (
          <Text>{campaign.total ? plural(campaign.total, 'recipient') : '—'}</Text>
        )}
      </Table.Cell>
      <Table.Cell textAlign="end">{formatNumber(campaign.counts.sent)}</Table.Cell>
      <Table.Cell textAlign="end" color={campaign.counts.deferred ? 'yellow.fg' : undefined}>
        {formatNumber(campaign.counts.deferred)}
      </Table.Cell>
      <Table.Cell textAlign="end" color={campaign.counts.failed ? 'red.fg' : undefined}>
        {formatNumber(campaign.counts.failed)}
      </Table.Cell>
      <Table.Cell textAlign="end">{formatNumber(campaign.responses)}</Table.Cell>
      <Table.Cell textAlign="end">{formatNumber(campaign.unsubscribes)}</Table.Cell>
      <Table.Cell fontSize="sm">
        <Stack gap="0">
          {campaign.scheduledAt ? (
            <Text>
              Scheduled <When at={campaign.scheduledAt} />
            </Text>
          ) : null}
          {campaign.startedAt ? (
            <Text>
              Started <When at={campaign.startedAt} />
            </Text>
          ) : null}
          {campaign.finishedAt ? (
            <Text>
              Finished <When at={campaign.finishedAt} />
            </Text>
          ) : null}
          {!campaign.scheduledAt && !campaign.startedAt ? (
            <Text color="fg.muted">
              Created <When at={campaign.createdAt} />
            </Text>
          ) : null}
        </Stack>
      </Table.Cell>
    </Table.Row>
  );
}

export interface CampaignsTabProps {
  query: string;
  status: CampaignStatus | null;
  page: number;
  onChange(patch: { query?: string; status?: CampaignStatus | null; page?: number }): void;
  onOpen(id: string): void;
  onCompose(): void;
  canCreate: boolean;
}

export function CampaignsTab({
  query,
  status,
  page,
  onChange,
  onOpen,
  onCompose,
  canCreate,
}: CampaignsTabProps) {
  const skip = (page - 1) * CAMPAIGNS_PAGE_SIZE;
  const list = useCampaignList({ skip, limit: CAMPAIGNS_PAGE_SIZE, query, status });
  useRefreshOnTaskDone(() => void list.refetch());
  // The button spins for a refresh someone asked for, not for the polls while a campaign sends.
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void list.refetch().finally(() => setRefreshing(false));
  };
  const filtered = Boolean(query || status);

  return (
    <>
      <Flex gap="2" mb="3" wrap="wrap" align="center">
        <SearchBox
          value={query}
          onSearch={(text) => onChange({ query: text, page: 1 })}
          label="Search campaigns"
          placeholder="Search by name"
        />
        <NativeSelect.Root size="sm" width="44">
          <NativeSelect.Field
            aria-label="Status"
            value={status ?? ''}
            onChange={(event) =>
              onChange({ status: (event.target.value || null) as CampaignStatus | null, page: 1 })
            }
          >
            <option value="">All statuses</option>
            {campaignStatuses.map((option) => (
              <option key={option} value={option}>
                {campaignStatusLabels[option]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <HStack gap="2" ms="auto">
          <RefreshButton onRefresh={refresh} refreshing={refreshing} label="Refresh campaigns" />
        </HStack>
      </Flex>
      <Box data-tour="campaign-list">
        {list.isPending ? (
          <LoadingState rows={5} label="Loading campaigns" />
        ) : list.isError ? (
          <ErrorState message={getErrorMessage(list.error)} onRetry={() => void list.refetch()} />
        ) : list.data.result.length === 0 ? (
          <Box>
            <EmptyListState
              title={filtered ? 'No campaign matches' : 'No campaigns yet'}
              description={
                filtered
                  ? 'Try another name or status.'
                  : 'A campaign mails one template to an audience of contacts, now or at a time you choose.'
              }
              pastTheEnd={skip > 0 && list.data.count > 0}
              onFirstPage={() => onChange({ page: 1 })}
            />
            {!filtered && canCreate ? (
              <Flex justify="center">
                <Button colorPalette="brand" onClick={onCompose}>
                  <Plus /> Compose the first campaign
                </Button>
              </Flex>
            ) : null}
          </Box>
        ) : (
          <PagedTable
            label="Campaigns"
            pagerLabel="Campaigns pages"
            skip={skip}
            limit={CAMPAIGNS_PAGE_SIZE}
            count={list.data.count}
            onSkipChange={(next) => onChange({ page: next / CAMPAIGNS_PAGE_SIZE + 1 })}
            stale={list.isPlaceholderData}
            busy={list.isFetching}
            columns={
              <>
                <Table.ColumnHeader>Campaign</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader>Progress</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Sent</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Deferred</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Failed</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Responses</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Unsubscribes</Table.ColumnHeader>
                <Table.ColumnHeader>When</Table.ColumnHeader>
              </>
            }
          >
            {list.data.result.map((campaign) => (
              <CampaignRow key={campaign.id} campaign={campaign} onOpen={() => onOpen(campaign.id)} />
            ))}
          </PagedTable>
        )}
      </Box>
    </>
  );
}

import { Badge, Box, Button, HStack, Input, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { formatDate, plural } from '../../../contracts/domain/format';
import {
  type SubscriptionRow,
  type SubscriptionStateKey,
  subscriptionStateKeyList,
  subscriptionStateKeys,
} from '../../../contracts/subscriptions';
import { getErrorMessage } from '../../services/http';
import { notify } from '../../ui/notify';
import { EmptyMessage, ErrorState, LoadingState } from '../../ui/page-states';
import { PagedTable } from '../../ui/paged-table';
import { SubscriptionStateBadge } from '../../ui/subscription-state-badge';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useBlockSubscription, useSellerSubscriptionList } from './api';
import { NoteDialog } from './NoteDialog';
import { SellerLink } from './SellerLink';

const PAGE_SIZE = 15;
/** Typing pauses this long before the search goes to the server. */
const SEARCH_DELAY_MS = 300;

function RenewalCell({ row }: { row: SubscriptionRow }) {
  const { endsAt, daysLeft, state } = row.current;
  if (!endsAt) return <Text color="fg.muted">—</Text>;
  return (
    <Box>
      <Text>{formatDate(endsAt)}</Text>
      <Text fontSize="xs" color="fg.muted">
        {daysLeft
          ? `${plural(daysLeft, 'day')} left`
          : state === 'Blocked' || state === 'Expired'
            ? 'ended'
            : ''}
      </Text>
    </Box>
  );
}

/** Every seller's subscription, soonest renewal first, filtered by state; block or unblock for admins. */
export function SellerSubscriptionsTab({
  canApprove,
  onOpenSeller,
}: {
  canApprove: boolean;
  onOpenSeller: (sellerId: string) => void;
}) {
  const [status, setStatus] = useState<SubscriptionStateKey | ''>('');
  const [search, setSearch] = useState('');
  const query = useDebouncedValue(search, SEARCH_DELAY_MS);
  const [skip, setSkip] = useState(0);
  const list = useSellerSubscriptionList({ status, query, skip, limit: PAGE_SIZE });
  const block = useBlockSubscription();
  const [target, setTarget] = useState<SubscriptionRow | null>(null);

  const confirm = (reason: string | undefined) => {
    if (!target) return;
    const blocked = !target.blocked;
    block.mutate(
      { sellerId: target.id, blocked, reason },
      {
        onSuccess: () => {
          setTarget(null);
          notify({
            type: 'success',
            title: blocked ? `${target.sellerName} is blocked` : `${target.sellerName} is unblocked`,
          });
        },
      },
    );
  };

  return (
    <Stack gap="4">
      <HStack gap="3" flexWrap="wrap">
        <Input
          maxW="sm"
          placeholder="Search by seller name, code or e-mail"
          aria-label="Search sellers"
          value={search}
          onChange={(e) => {
            // A new search or filter starts from the first page.
            setSearch(e.target.value);
            setSkip(0);
          }}
        />
        <NativeSelect.Root maxW="56">
          <NativeSelect.Field
            aria-label="Subscription state"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as SubscriptionStateKey | '');
              setSkip(0);
            }}
          >
            <option value="">All states</option>
            {subscriptionStateKeyList.map((key) => (
              <option key={key} value={key}>
                {subscriptionStateKeys[key]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </HStack>
      {list.isPending ? (
        <LoadingState rows={5} />
      ) : list.isError ? (
        <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
      ) : list.data.result.length === 0 ? (
        <EmptyMessage title="No sellers match" description="Try another state or search." />
      ) : (
        <PagedTable
          compact
          label="Seller subscriptions"
          pagerLabel="Seller subscription pages"
          skip={skip}
          limit={PAGE_SIZE}
          count={list.data.count}
          onSkipChange={setSkip}
          columns={
            <>
              <Table.ColumnHeader>Seller</Table.ColumnHeader>
              <Table.ColumnHeader>State</Table.ColumnHeader>
              <Table.ColumnHeader>Plan</Table.ColumnHeader>
              <Table.ColumnHeader>Renewal date</Table.ColumnHeader>
              {canApprove ? <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader> : null}
            </>
          }
        >
          {list.data.result.map((row) => (
            <Table.Row key={row.id}>
              <Table.Cell>
                <SellerLink name={row.sellerName} onOpen={() => onOpenSeller(row.id)} />
                <Text fontSize="xs" color="fg.muted">
                  {row.sellerCode} · {row.email}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <HStack gap="2" flexWrap="wrap">
                  <SubscriptionStateBadge state={row.current.state} />
                  {row.hasPendingRequest ? <Badge colorPalette="yellow">Renewal requested</Badge> : null}
                </HStack>
              </Table.Cell>
              <Table.Cell>{row.current.plan?.name ?? '—'}</Table.Cell>
              <Table.Cell>
                <RenewalCell row={row} />
              </Table.Cell>
              {canApprove ? (
                <Table.Cell textAlign="end">
                  <Button
                    size="xs"
                    variant="outline"
                    colorPalette={row.blocked ? 'green' : 'red'}
                    aria-label={`${row.blocked ? 'Unblock' : 'Block'} ${row.sellerName}`}
                    onClick={() => {
                      block.reset();
                      setTarget(row);
                    }}
                  >
                    {row.blocked ? 'Unblock' : 'Block'}
                  </Button>
                </Table.Cell>
              ) : null}
            </Table.Row>
          ))}
        </PagedTable>
      )}
      <NoteDialog
        open={!!target}
        title={target?.blocked ? `Unblock ${target.sellerName}?` : `Block ${target?.sellerName ?? ''}?`}
        description={
          target?.blocked
            ? 'The seller can use the back-office again, even if no new period has started. To renew, approve their renewal request instead.'
            : 'The seller can only see and renew their subscription until they are unblocked or a renewal is approved.'
        }
        confirmLabel={target?.blocked ? 'Unblock seller' : 'Block seller'}
        confirmPalette={target?.blocked ? 'green' : 'red'}
        noteLabel="Reason (optional, kept in the seller's history)"
        noteRequired={false}
        pending={block.isPending}
        error={block.isError ? getErrorMessage(block.error) : null}
        onConfirm={confirm}
        onClose={() => setTarget(null)}
      />
    </Stack>
  );
}

import { Box, Button, HStack, SegmentGroup, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { formatMoney } from '../../../contracts/domain/currency';
import { formatDate } from '../../../contracts/domain/format';
import type { RenewalListFilter, RenewalRequest } from '../../../contracts/subscriptions';
import { relativeTime } from '../../lib/relative-time';
import { getErrorMessage } from '../../services/http';
import { notify } from '../../ui/notify';
import { EmptyMessage, ErrorState, LoadingState } from '../../ui/page-states';
import { PagedTable } from '../../ui/paged-table';
import { RenewalStatusBadge } from '../../ui/subscription-state-badge';
import { useDecideRenewal, useRenewalRequests } from './api';
import { NoteDialog } from './NoteDialog';
import { SellerLink } from './SellerLink';

const PAGE_SIZE = 10;
const decidedFilters = [
  { value: 'decided', label: 'All decided' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
];

type Decision = { request: RenewalRequest; decision: 'approve' | 'reject' };

function SellerCell({
  request,
  onOpenSeller,
}: {
  request: RenewalRequest;
  onOpenSeller: (id: string) => void;
}) {
  return (
    <Box>
      <SellerLink name={request.seller.sellerName} onOpen={() => onOpenSeller(request.seller.id)} />
      <Text fontSize="xs" color="fg.muted">
        {request.seller.sellerCode}
      </Text>
    </Box>
  );
}

function PlanCell({ request }: { request: RenewalRequest }) {
  return (
    <Box>
      <Text>{request.plan.name}</Text>
      <Text fontSize="xs" color="fg.muted">
        {formatMoney(request.plan.priceMinor / 100, request.plan.currency)} · {request.plan.periodDays} days
      </Text>
    </Box>
  );
}

/**
 * Renewal requests: the pending queue (oldest first) with Approve / Reject for those who may decide, or
 * the decided ones. Staff see the same lists without the buttons (the server refuses them anyway).
 */
export function RenewalRequestsTab({
  mode,
  canApprove,
  onOpenSeller,
}: {
  mode: 'pending' | 'decided';
  canApprove: boolean;
  onOpenSeller: (sellerId: string) => void;
}) {
  const [filter, setFilter] = useState<RenewalListFilter>(mode === 'pending' ? 'pending' : 'decided');
  const [skip, setSkip] = useState(0);
  const requests = useRenewalRequests({ status: filter, skip, limit: PAGE_SIZE });
  const decide = useDecideRenewal();
  const [deciding, setDeciding] = useState<Decision | null>(null);

  const confirm = (note: string | undefined) => {
    if (!deciding) return;
    const { request, decision } = deciding;
    decide.mutate(
      { id: request.id, decision, note },
      {
        onSuccess: () => {
          setDeciding(null);
          notify({
            type: 'success',
            title: decision === 'approve' ? 'Renewal approved' : 'Renewal rejected',
            description:
              decision === 'approve'
                ? `${request.seller.sellerName} can use the back-office again.`
                : `${request.seller.sellerName} will see your reason.`,
          });
          // The last row of a page went away: step back rather than show an empty page.
          if (requests.data && requests.data.result.length === 1 && skip > 0)
            setSkip(Math.max(0, skip - PAGE_SIZE));
        },
      },
    );
  };

  const showActions = mode === 'pending' && canApprove;
  return (
    <Stack gap="4">
      {mode === 'decided' ? (
        <SegmentGroup.Root
          value={filter}
          onValueChange={(e) => {
            if (!e.value) return;
            setFilter(e.value as RenewalListFilter);
            setSkip(0);
          }}
          alignSelf="flex-start"
          size="sm"
        >
          <SegmentGroup.Indicator />
          <SegmentGroup.Items items={decidedFilters} />
        </SegmentGroup.Root>
      ) : null}
      {requests.isPending ? (
        <LoadingState rows={4} />
      ) : requests.isError ? (
        <ErrorState message={getErrorMessage(requests.error)} onRetry={() => requests.refetch()} />
      ) : requests.data.result.length === 0 ? (
        <EmptyMessage
          title={mode === 'pending' ? 'No renewal requests waiting' : 'No decided requests yet'}
          description={mode === 'pending' ? 'New requests from sellers appear here.' : undefined}
        />
      ) : (
        <PagedTable
          compact
          label={mode === 'pending' ? 'Pending renewal requests' : 'Decided renewal requests'}
          pagerLabel="Renewal request pages"
          skip={skip}
          limit={PAGE_SIZE}
          count={requests.data.count}
          onSkipChange={setSkip}
          columns={
            <>
              <Table.ColumnHeader>Seller</Table.ColumnHeader>
              <Table.ColumnHeader>Plan</Table.ColumnHeader>
              <Table.ColumnHeader>Seller's note</Table.ColumnHeader>
              <Table.ColumnHeader>Requested</Table.ColumnHeader>
              {mode === 'decided' ? (
                <>
                  <Table.ColumnHeader>Decision</Table.ColumnHeader>
                  <Table.ColumnHeader>Reason / note</Table.ColumnHeader>
                </>
              ) : null}
              {showActions ? <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader> : null}
            </>
          }
        >
          {requests.data.result.map((request) => (
            <Table.Row key={request.id}>
              <Table.Cell>
                <SellerCell request={request} onOpenSeller={onOpenSeller} />
              </Table.Cell>
              <Table.Cell>
                <PlanCell request={request} />
              </Table.Cell>
              <Table.Cell maxW="xs" whiteSpace="pre-wrap">
                {request.note ?? '—'}
              </Table.Cell>
              <Table.Cell title={formatDate(request.requestedAt)}>
                {relativeTime(request.requestedAt)}
              </Table.Cell>
              {mode === 'decided' ? (
                <>
                  <Table.Cell>
                    <RenewalStatusBadge status={request.status} />
                    <Text fontSize="xs" color="fg.muted">
                      {request.decidedBy ?? '—'}
                      {request.decidedAt ? `, ${formatDate(request.decidedAt)}` : ''}
                    </Text>
                  </Table.Cell>
                  <Table.Cell maxW="xs" whiteSpace="pre-wrap">
                    {request.decisionNote ?? '—'}
                  </Table.Cell>
                </>
              ) : null}
              {showActions ? (
                <Table.Cell textAlign="end">
                  <HStack justify="flex-end" gap="2">
                    <Button
                      size="xs"
                      colorPalette="green"
                      aria-label={`Approve ${request.seller.sellerName}`}
                      onClick={() => {
                        decide.reset();
                        setDeciding({ request, decision: 'approve' });
                      }}
                    >
                      Approve
                    </Button>
                    <Button
                      size="xs"
                      variant="outline"
                      colorPalette="red"
                      aria-label={`Reject ${request.seller.sellerName}`}
                      onClick={() => {
                        decide.reset();
                        setDeciding({ request, decision: 'reject' });
                      }}
                    >
                      Reject
                    </Button>
                  </HStack>
                </Table.Cell>
              ) : null}
            </Table.Row>
          ))}
        </PagedTable>
      )}
      <NoteDialog
        open={!!deciding}
        title={
          deciding?.decision === 'approve'
            ? `Approve ${deciding.request.seller.sellerName}'s renewal?`
            : `Reject ${deciding?.request.seller.sellerName ?? ''}'s renewal?`
        }
        description={
          deciding?.decision === 'approve'
            ? `A new ${deciding.request.plan.name} period of ${deciding.request.plan.periodDays} days starts (after the current one, if it is still running) and the seller is unblocked. Approve only once the payment has been received.`
            : 'The subscription stays as it is. The seller sees your reason and can ask again.'
        }
        confirmLabel={deciding?.decision === 'approve' ? 'Approve renewal' : 'Reject renewal'}
        confirmPalette={deciding?.decision === 'approve' ? 'green' : 'red'}
        noteLabel={
          deciding?.decision === 'approve'
            ? 'Note (optional, e.g. the payment reference)'
            : 'Reason for the seller'
        }
        noteRequired={deciding?.decision === 'reject'}
        pending={decide.isPending}
        error={decide.isError ? getErrorMessage(decide.error) : null}
        onConfirm={confirm}
        onClose={() => setDeciding(null)}
      />
    </Stack>
  );
}

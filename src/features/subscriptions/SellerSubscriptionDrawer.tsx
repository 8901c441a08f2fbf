import { CloseButton, DataList, Drawer, Heading, Portal, Stack, Text } from '@chakra-ui/react';
import { formatDate } from '../../../contracts/domain/format';
import { getErrorMessage } from '../../services/http';
import { EmptyMessage, ErrorState, LoadingState } from '../../ui/page-states';
import { SubscriptionPeriodsTable } from '../../ui/subscription-periods-table';
import { RenewalStatusBadge, SubscriptionStateBadge } from '../../ui/subscription-state-badge';
import { useSellerSubscriptionDetail } from './api';

/** One seller's subscription at a glance: state, the latest periods and requests. */
export function SellerSubscriptionDrawer({
  sellerId,
  onClose,
}: {
  sellerId: string | null;
  onClose: () => void;
}) {
  const detail = useSellerSubscriptionDetail(sellerId);
  return (
    <Drawer.Root open={!!sellerId} onOpenChange={(e) => !e.open && onClose()} size="md">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{detail.data?.seller.sellerName ?? 'Seller subscription'}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              {detail.isPending ? (
                <LoadingState rows={4} />
              ) : detail.isError ? (
                <ErrorState message={getErrorMessage(detail.error)} onRetry={() => detail.refetch()} />
              ) : (
                <Stack gap="6">
                  <DataList.Root orientation="horizontal">
                    <DataList.Item>
                      <DataList.ItemLabel>Seller code</DataList.ItemLabel>
                      <DataList.ItemValue>{detail.data.seller.sellerCode}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>State</DataList.ItemLabel>
                      <DataList.ItemValue>
                        <SubscriptionStateBadge state={detail.data.current.state} />
                      </DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>Plan</DataList.ItemLabel>
                      <DataList.ItemValue>{detail.data.current.plan?.name ?? '—'}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>
                        {detail.data.current.daysLeft ? 'Renewal date' : 'Ended on'}
                      </DataList.ItemLabel>
                      <DataList.ItemValue>
                        {detail.data.current.endsAt ? formatDate(detail.data.current.endsAt) : '—'}
                      </DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>New seller</DataList.ItemLabel>
                      <DataList.ItemValue>{detail.data.seller.isNewSeller ? 'Yes' : 'No'}</DataList.ItemValue>
                    </DataList.Item>
                  </DataList.Root>
                  <Stack gap="2">
                    <Heading size="sm">Periods ({detail.data.periodCount})</Heading>
                    {detail.data.periods.length === 0 ? (
                      <EmptyMessage title="No periods yet" />
                    ) : (
                      <SubscriptionPeriodsTable periods={detail.data.periods} />
                    )}
                    {detail.data.periodCount > detail.data.periods.length ? (
                      <Text fontSize="xs" color="fg.muted">
                        The latest {detail.data.periods.length} of {detail.data.periodCount} periods.
                      </Text>
                    ) : null}
                  </Stack>
                  <Stack gap="2">
                    <Heading size="sm">Recent renewal requests</Heading>
                    {detail.data.recentRequests.length === 0 ? (
                      <EmptyMessage title="No renewal requests" />
                    ) : (
                      detail.data.recentRequests.map((request) => (
                        <Stack key={request.id} gap="1" borderWidth="1px" rounded="md" p="3">
                          <Text fontWeight="medium">
                            {request.plan.name}, {formatDate(request.requestedAt)}{' '}
                            <RenewalStatusBadge status={request.status} />
                          </Text>
                          {request.note ? (
                            <Text fontSize="sm" whiteSpace="pre-wrap">
                              Seller: {request.note}
                            </Text>
                          ) : null}
                          {request.decisionNote ? (
                            <Text fontSize="sm" color="fg.muted" whiteSpace="pre-wrap">
                              {request.decidedBy ?? 'Admin'}: {request.decisionNote}
                            </Text>
                          ) : null}
                        </Stack>
                      ))
                    )}
                  </Stack>
                </Stack>
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

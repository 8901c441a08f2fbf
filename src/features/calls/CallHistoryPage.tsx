// The call history (issue 6, SPEC §7 "Call history"): every call log the user may see, filtered by
// number, status, direction and date range, paged by the server, with a call's details, feedback and
// timeline in a drawer. The whole view is the URL (`?number=…&status=…&page=…&callId=…`), so a reload,
// the back button and a shared link show the same calls.
import { Alert, Box, Stack } from '@chakra-ui/react';
import { useCallback } from 'react';
import { CALL_PAGE_SIZE } from '../../../contracts/calls';
import { getErrorMessage } from '../../services/http';
import { useCurrentUser } from '../../services/session-queries';
import { EmptyListState, ErrorState, PageHeader } from '../../ui/page-states';
import { Pager } from '../../ui/pager';
import { useUrlView } from '../../ui/url-view';
import { useCallList } from './api';
import { CallDrawer } from './CallDrawer';
import { type CallFilterPatch, CallFilters } from './CallFilters';
import { CallTable } from './CallTable';
import { callViewHref, hasFilters, isRangeReversed, parseCallView } from './url-state';

export const RANGE_REVERSED_MESSAGE = 'The start of the date range must be before its end';

export default function CallHistoryPage() {
  const { view, setView } = useUrlView(parseCallView, callViewHref);
  const user = useCurrentUser();

  // A new filter starts from the first page.
  const onFilter = useCallback(
    (patch: CallFilterPatch, options?: { replace?: boolean }) => setView({ ...patch, page: 1 }, options),
    [setView],
  );

  const reversed = isRangeReversed(view);
  const { callId: _open, ...listQuery } = view;
  const list = useCallList(listQuery, !reversed);
  const rows = list.data?.result ?? [];
  // Admins see everyone's calls: whose log it is matters once the page holds someone else's.
  const showOwner = rows.some((call) => call.owner.id !== user.data?.id);
  const filtered = hasFilters(view);

  return (
    <>
      <PageHeader title="Call History" description="Calls made and received, their outcome and feedback." />
      <CallFilters view={view} onChange={onFilter} rangeError={reversed ? RANGE_REVERSED_MESSAGE : null} />
      <Box data-tour="call-table">
        {reversed ? (
          <Alert.Root status="warning">
            <Alert.Indicator />
            <Alert.Title>{RANGE_REVERSED_MESSAGE}.</Alert.Title>
          </Alert.Root>
        ) : list.isError ? (
          <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
        ) : !list.isPending && rows.length === 0 ? (
          <EmptyListState
            title={filtered ? 'No calls match these filters' : 'No calls yet'}
            description={
              filtered
                ? 'Try another number, status, direction or dates.'
                : 'Calls you make and receive are listed here with their outcome and feedback.'
            }
            pastTheEnd={view.page > 1}
            onFirstPage={() => setView({ page: 1 })}
          />
        ) : (
          <Stack gap="0" opacity={list.isPlaceholderData ? 0.6 : 1} transition="opacity 0.15s">
            <CallTable
              rows={rows}
              loading={list.isPending}
              stale={list.isPlaceholderData}
              showOwner={showOwner}
              hrefOf={(call) => callViewHref({ ...view, callId: call.callId })}
            />
            {list.data ? (
              <Pager
                skip={(view.page - 1) * CALL_PAGE_SIZE}
                limit={CALL_PAGE_SIZE}
                count={list.data.count}
                capped={list.data.countCapped ?? false}
                pageLength={list.data.result.length}
                onSkipChange={(skip) => setView({ page: Math.floor(skip / CALL_PAGE_SIZE) + 1 })}
                label="Call history pages"
              />
            ) : null}
          </Stack>
        )}
      </Box>
      <CallDrawer callId={view.callId} onClose={() => setView({ callId: null })} />
    </>
  );
}

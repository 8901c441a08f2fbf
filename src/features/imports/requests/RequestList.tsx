import { Box, Button, Flex, NativeSelect, Stack } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { MessageSquarePlus } from 'lucide-react';
import { useState } from 'react';
import {
  type Import,
  type RequestStatus,
  requestStatuses,
  requestStatusLabels,
} from '../../../../contracts/imports';
import { getErrorMessage } from '../../../services/http';
import { RefreshButton } from '../../../ui/list-controls';
import { notify } from '../../../ui/notify';
import { EmptyListState, ErrorState } from '../../../ui/page-states';
import { Pager } from '../../../ui/pager';
import type { UploadPreset } from '../import-list/UploadDrawer';
import { importKeys, useImportRequests } from '../shared/api';
import { type ImportsView, importsHref, withImport } from '../shared/url-state';
import { RequestDrawer } from './RequestDrawer';
import { RequestFormDialog } from './RequestFormDialog';
import { RequestTable } from './RequestTable';

const REQUESTS_PAGE_SIZE = 25;

/**
 * The import requests tab: a seller's own requests (and "Request an import"), or every seller's for
 * staff and admins, filtered by status, with a request open in a side panel.
 */
export function RequestList({
  view,
  setView,
  staff,
  userId,
  canRequest,
  onUploadForRequest,
}: {
  view: ImportsView;
  setView: (patch: Partial<ImportsView>, options?: { replace?: boolean }) => void;
  /** Staff and admins: every seller's requests, and the actions that answer them. */
  staff: boolean;
  userId: string | null;
  canRequest: boolean;
  onUploadForRequest: (preset: UploadPreset) => void;
}) {
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const list = useImportRequests({
    status: view.requestStatus,
    skip: (view.requestPage - 1) * REQUESTS_PAGE_SIZE,
    limit: REQUESTS_PAGE_SIZE,
  });
  const rows = list.data?.result ?? [];
  const open = rows.find((request) => request.id === view.requestId) ?? null;
  const importHref = (importId: string) =>
    importsHref(withImport({ ...view, tab: 'imports', requestId: null }, importId));

  return (
    <Stack gap="4">
      <Flex gap="3" wrap="wrap" align="center">
        <NativeSelect.Root size="md" width="48">
          <NativeSelect.Field
            aria-label="Request status"
            value={view.requestStatus ?? ''}
            onChange={(event) =>
              setView({ requestStatus: (event.target.value || null) as RequestStatus | null, requestPage: 1 })
            }
          >
            <option value="">All statuses</option>
            {requestStatuses.map((status) => (
              <option key={status} value={status}>
                {requestStatusLabels[status]}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <RefreshButton
          label="Refresh requests"
          onRefresh={() => list.refetch()}
          refreshing={list.isFetching && !list.isPending}
        />
        {canRequest ? (
          <Button
            ms="auto"
            colorPalette="brand"
            variant="outline"
            onClick={() => setAsking(true)}
            data-tour="request-import"
          >
            <MessageSquarePlus /> Request an import
          </Button>
        ) : null}
      </Flex>
      <Box>
        {list.isError ? (
          <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
        ) : !list.isPending && rows.length === 0 ? (
          <EmptyListState
            title={view.requestStatus ? 'No request with this status' : 'No import requests'}
            description={
              staff
                ? 'Sellers who cannot map a sheet, or who sell from a feed, ask here for an import.'
                : 'Cannot map a sheet, or sell from a product feed? Request an import and our team does it for you.'
            }
            pastTheEnd={view.requestPage > 1}
            onFirstPage={() => setView({ requestPage: 1 })}
          />
        ) : (
          <Stack gap="0" opacity={list.isPlaceholderData ? 0.6 : 1} aria-busy={list.isFetching}>
            <RequestTable
              rows={rows}
              loading={list.isPending}
              showSeller={staff}
              hrefOf={(request) => importsHref({ ...view, requestId: request.id })}
              onOpen={(request) => setView({ requestId: request.id })}
            />
            {list.data ? (
              <Pager
                skip={(view.requestPage - 1) * REQUESTS_PAGE_SIZE}
                limit={REQUESTS_PAGE_SIZE}
                count={list.data.count}
                onSkipChange={(skip) => setView({ requestPage: Math.floor(skip / REQUESTS_PAGE_SIZE) + 1 })}
                label="Request pages"
              />
            ) : null}
          </Stack>
        )}
      </Box>
      <RequestDrawer
        requestId={view.requestId}
        fromList={open}
        staff={staff}
        userId={userId}
        importHref={importHref}
        onImported={(item: Import) =>
          setView(withImport({ ...view, tab: 'imports', requestId: null }, item.id))
        }
        onUploadForRequest={(preset) => {
          setView({ requestId: null });
          onUploadForRequest(preset);
        }}
        onClose={() => setView({ requestId: null })}
      />
      {asking ? (
        <RequestFormDialog
          chooseSeller={staff}
          onClose={() => setAsking(false)}
          onSent={(request) => {
            setAsking(false);
            void client.invalidateQueries({ queryKey: importKeys.requests() });
            notify({
              type: 'success',
              title: 'Request sent',
              description: 'You are answered here; the history shows each step.',
            });
            setView({ requestId: request.id, requestStatus: null, requestPage: 1 });
          }}
        />
      ) : null}
    </Stack>
  );
}

import { Box, Button, Flex, Stack } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { MessageSquarePlus } from 'lucide-react';
import { useState } from 'react';
import { type Import, requestStatuses, requestStatusLabels } from '../../../../contracts/imports';
import { FilterSelect } from '../../../ui/filter-select';
import { RefreshButton } from '../../../ui/list-controls';
import { notify } from '../../../ui/notify';
import { PagedQueryTable } from '../../../ui/paged-table';
import type { UploadPreset } from '../import-list/UploadDrawer';
import { importKeys, useImportRequests } from '../shared/api';
import { type ImportsView, importsHref, type SetImportsView, withImport } from '../shared/url-state';
import { RequestDrawer } from './RequestDrawer';
import { RequestFormDialog } from './RequestFormDialog';
import { RequestRow, requestColumns } from './RequestTable';

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
  setView: SetImportsView;
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
  const open = list.data?.result.find((request) => request.id === view.requestId) ?? null;
  const importHref = (importId: string) =>
    importsHref(withImport({ ...view, tab: 'imports', requestId: null }, importId));

  return (
    <Stack gap="4">
      <Flex gap="3" wrap="wrap" align="center">
        <FilterSelect
          label="Request status"
          values={requestStatuses}
          labels={requestStatusLabels}
          value={view.requestStatus}
          onChange={(requestStatus) => setView({ requestStatus, requestPage: 1 })}
          width="48"
        />
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
        <PagedQueryTable
          query={list}
          loadingLabel="Loading import requests"
          loadingRows={5}
          empty={{
            title: view.requestStatus ? 'No request with this status' : 'No import requests',
            description: staff
              ? 'Sellers who cannot map a sheet, or who sell from a feed, ask here for an import.'
              : 'Cannot map a sheet, or sell from a product feed? Request an import and our team does it for you.',
          }}
          label="Import requests"
          pagerLabel="Request pages"
          columns={requestColumns(staff)}
          skip={(view.requestPage - 1) * REQUESTS_PAGE_SIZE}
          limit={REQUESTS_PAGE_SIZE}
          onSkipChange={(skip) => setView({ requestPage: Math.floor(skip / REQUESTS_PAGE_SIZE) + 1 })}
          busy={list.isFetching}
          framed
          interactive
        >
          {(rows) => {
            const now = new Date();
            return rows.map((request) => (
              <RequestRow
                key={request.id}
                item={request}
                showSeller={staff}
                href={importsHref({ ...view, requestId: request.id })}
                onOpen={() => setView({ requestId: request.id })}
                now={now}
              />
            ));
          }}
        </PagedQueryTable>
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

import {
  Box,
  Button,
  CloseButton,
  Code,
  DataList,
  Drawer,
  Heading,
  HStack,
  Link,
  Portal,
  Stack,
  Text,
} from '@chakra-ui/react';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Link as RouterLink } from 'wouter';
import type { Import, ImportRequest } from '../../../../contracts/imports';
import { relativeTime } from '../../../lib/relative-time';
import { downloadWithToken } from '../../../services/downloads';
import { getErrorMessage } from '../../../services/http';
import { HistoryTimeline } from '../../../ui/history-timeline';
import { notify } from '../../../ui/notify';
import { ErrorState, LoadingState } from '../../../ui/page-states';
import type { UploadPreset } from '../import-list/UploadDrawer';
import { requestFilePath, useImportRequest, useRequestHistory } from '../shared/api';
import { RequestStatusBadge } from '../shared/Badges';
import { importHistoryWords } from '../shared/history-format';
import { StaffActions } from './RequestActions';

/** What the seller sent: the file to download, or the feed's address as plain text. */
function RequestSource({ request }: { request: ImportRequest }) {
  const [busy, setBusy] = useState(false);
  if (request.kind === 'feed') {
    return (
      <Code wordBreak="break-all" whiteSpace="pre-wrap" data-testid="request-feed-url">
        {request.feedUrl}
      </Code>
    );
  }
  return (
    <HStack gap="2" wrap="wrap">
      <Text wordBreak="break-all">{request.fileName}</Text>
      <Button
        size="xs"
        variant="outline"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await downloadWithToken(requestFilePath(request.id), request.fileName ?? 'request-file');
          } catch (failure) {
            notify({
              type: 'error',
              title: 'Could not download the file',
              description: getErrorMessage(failure),
            });
          } finally {
            setBusy(false);
          }
        }}
      >
        <Download /> Download file
      </Button>
    </HStack>
  );
}

function RequestDetails({
  request,
  staff,
  userId,
  importHref,
  onImported,
  onUploadForRequest,
}: {
  request: ImportRequest;
  staff: boolean;
  userId: string | null;
  importHref: (importId: string) => string;
  onImported: (item: Import) => void;
  onUploadForRequest: (preset: UploadPreset) => void;
}) {
  const history = useRequestHistory(request.id);
  return (
    <Stack gap="6">
      <DataList.Root orientation="horizontal" size="sm">
        {staff ? (
          <DataList.Item>
            <DataList.ItemLabel>Seller</DataList.ItemLabel>
            <DataList.ItemValue>{request.sellerName}</DataList.ItemValue>
          </DataList.Item>
        ) : null}
        <DataList.Item>
          <DataList.ItemLabel>{request.kind === 'file' ? 'File' : 'Feed URL'}</DataList.ItemLabel>
          <DataList.ItemValue minW="0">
            <RequestSource request={request} />
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Asked</DataList.ItemLabel>
          <DataList.ItemValue>
            {request.createdBy.name}, {relativeTime(request.createdAt)}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Handled by</DataList.ItemLabel>
          <DataList.ItemValue>{request.assignee?.name ?? 'Nobody yet'}</DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
      <Stack gap="1">
        <Heading size="sm">Note</Heading>
        <Text whiteSpace="pre-wrap" color={request.note ? undefined : 'fg.muted'} data-testid="request-note">
          {request.note || 'No note.'}
        </Text>
      </Stack>
      {request.response ? (
        <Stack gap="1">
          <Heading size="sm">Response</Heading>
          <Text whiteSpace="pre-wrap" data-testid="request-response">
            {request.response}
          </Text>
        </Stack>
      ) : null}
      {request.importIds.length > 0 ? (
        <Stack gap="1">
          <Heading size="sm">Imports made for it</Heading>
          <Box as="ul" listStyleType="none">
            {request.importIds.map((id, index) => (
              <li key={id}>
                <Link asChild colorPalette="brand">
                  <RouterLink href={importHref(id)}>
                    Open import {request.importIds.length - index}
                  </RouterLink>
                </Link>
              </li>
            ))}
          </Box>
        </Stack>
      ) : null}
      {staff ? (
        <StaffActions
          request={request}
          userId={userId}
          onImported={onImported}
          onUploadForRequest={onUploadForRequest}
        />
      ) : null}
      <Stack gap="2">
        <Heading size="sm">History</Heading>
        <HistoryTimeline
          history={history}
          words={importHistoryWords}
          emptyDescription="Taking, importing and answering the request are listed here."
        />
      </Stack>
    </Stack>
  );
}

/** One import request (`?tab=requests&request=<id>`) in a side panel. */
export function RequestDrawer({
  requestId,
  fromList,
  staff,
  userId,
  importHref,
  onImported,
  onUploadForRequest,
  onClose,
}: {
  requestId: string | null;
  /** The request's row on the list's page, shown until its own answer arrives. */
  fromList: ImportRequest | null;
  staff: boolean;
  userId: string | null;
  importHref: (importId: string) => string;
  onImported: (item: Import) => void;
  onUploadForRequest: (preset: UploadPreset) => void;
  onClose: () => void;
}) {
  // Keep showing the last request while the drawer slides out.
  const [shownId, setShownId] = useState(requestId);
  if (requestId && requestId !== shownId) setShownId(requestId);
  const query = useImportRequest(shownId, fromList);
  const request = query.data ?? null;
  return (
    <Drawer.Root open={Boolean(requestId)} onOpenChange={(event) => !event.open && onClose()} size="md">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Stack gap="1" pe="8">
                <Drawer.Title>
                  {staff && request ? `Import request of ${request.sellerName}` : 'Import request'}
                </Drawer.Title>
                {request ? (
                  <HStack gap="2">
                    <RequestStatusBadge status={request.status} />
                    <Text fontSize="sm" color="fg.muted">
                      {request.kind === 'file' ? 'A sheet to map' : 'A feed to fetch'}
                    </Text>
                  </HStack>
                ) : null}
              </Stack>
            </Drawer.Header>
            <Drawer.Body>
              {request ? (
                <RequestDetails
                  request={request}
                  staff={staff}
                  userId={userId}
                  importHref={importHref}
                  onImported={onImported}
                  onUploadForRequest={onUploadForRequest}
                />
              ) : query.isError ? (
                <ErrorState message={getErrorMessage(query.error)} onRetry={() => query.refetch()} />
              ) : (
                <LoadingState rows={5} label="Loading the request" />
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

import { Badge, Box, Button, Heading, HStack, Stack, Tabs, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useEffect } from 'react';
import { Link as RouterLink } from 'wouter';
import { formatDateTime } from '../../../../contracts/domain/format';
import type { Import } from '../../../../contracts/imports';
import { formatBytes } from '../../../lib/file-limits';
import { relativeTime } from '../../../lib/relative-time';
import { getErrorMessage } from '../../../services/http';
import { ErrorState, LoadingState } from '../../../ui/page-states';
import { importKeys, useImport } from '../shared/api';
import { BatchStatusBadge } from '../shared/Badges';
import {
  type ImportSection,
  type ImportsView,
  importsHref,
  type SetImportsView,
  withImport,
} from '../shared/url-state';
import { BatchProgress } from './BatchProgress';
import { HistorySection } from './HistorySection';
import { MappingSection } from './MappingSection';
import { MarkInactiveSection } from './MarkInactiveSection';
import { MoveActions } from './MoveActions';
import { PreviewSection } from './PreviewSection';
import { ReportSection } from './ReportSection';
import { TitlesSection } from './TitlesSection';

export interface ImportPermissions {
  /** Upload, move, stop, resume, remap, retitle, mark inactive. */
  canImport: boolean;
  /** The error sheet is for whoever fixes and uploads the sheet again (the server asks `import`). */
  canDownloadErrors: boolean;
  canEditTemplate: boolean;
  showSeller: boolean;
  userId: string | null;
}

const sectionLabels: Record<ImportSection, string> = {
  report: 'Report',
  mapping: 'Mapping',
  preview: 'Preview',
  titles: 'Suggested titles',
  inactive: 'Mark inactive',
  history: 'History',
};

/**
 * When a job finishes a step (or a new batch starts), what was read from the batch is out of date:
 * the report, the preview and the titles are asked for again.
 */
function useRefreshOnStatusChange(item: Import | undefined) {
  const client = useQueryClient();
  const key = item ? `${item.batch.id}:${item.batch.status}:${item.batch.finishedAt ?? ''}` : null;
  const batchId = item?.batch.id;
  const importId = item?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the change being followed
  useEffect(() => {
    if (!batchId || !importId) return;
    void client.invalidateQueries({ queryKey: importKeys.batch(batchId) });
    void client.invalidateQueries({ queryKey: importKeys.batches(importId) });
    void client.invalidateQueries({ queryKey: importKeys.history(importId) });
  }, [key, client]);
}

function ImportHeader({
  item,
  permissions,
  showMoves,
}: {
  item: Import;
  permissions: ImportPermissions;
  showMoves: boolean;
}) {
  const { batch } = item;
  return (
    <Stack gap="4">
      <Stack gap="1" minW="0">
        <HStack gap="3" wrap="wrap">
          <Heading size="xl" wordBreak="break-all" data-testid="import-file-name">
            {item.fileName}
          </Heading>
          <BatchStatusBadge status={batch.status} />
        </HStack>
        <HStack gap="2" fontSize="sm" color="fg.muted" wrap="wrap">
          {permissions.showSeller ? (
            <Text data-testid="import-seller" color="fg">
              {item.sellerName}
            </Text>
          ) : null}
          <Text>
            {item.format.toUpperCase()} · {formatBytes(item.fileSize)}
          </Text>
          <Badge variant="outline" data-testid="batch-number">
            Batch {batch.number}
          </Badge>
          <Text title={formatDateTime(item.createdAt)}>
            Uploaded by {item.createdBy.name} {relativeTime(item.createdAt)}
          </Text>
          {item.requestId ? <Badge colorPalette="purple">For an import request</Badge> : null}
        </HStack>
      </Stack>
      {/* The moves are offered once the preview is complete and no job works on the batch. */}
      {showMoves && permissions.canImport && (batch.status === 'ready' || batch.status === 'moved') ? (
        <MoveActions batch={batch} />
      ) : null}
    </Stack>
  );
}

/**
 * One import (`?import=<id>`): its header, the live progress of a running batch with Stop or Resume,
 * and the sections — report, mapping, preview with the moves, suggested titles, mark inactive, history.
 */
export function ImportView({
  view,
  setView,
  permissions,
}: {
  view: ImportsView;
  setView: SetImportsView;
  permissions: ImportPermissions;
}) {
  const query = useImport(view.importId);
  const item = query.data;
  useRefreshOnStatusChange(item);
  const back = (
    <Button asChild variant="ghost" size="sm" alignSelf="start" ms="-2">
      <RouterLink href={importsHref(withImport(view, null))}>
        <ArrowLeft /> Back to imports
      </RouterLink>
    </Button>
  );

  if (query.isError) {
    return (
      <Stack gap="4">
        {back}
        <ErrorState message={getErrorMessage(query.error)} onRetry={() => query.refetch()} />
      </Stack>
    );
  }
  if (!item) {
    return (
      <Stack gap="4">
        {back}
        <LoadingState rows={6} label="Loading the import" />
      </Stack>
    );
  }

  return (
    <Stack gap="5" data-testid="import-view">
      {back}
      <ImportHeader item={item} permissions={permissions} showMoves={view.section !== 'preview'} />
      <BatchProgress batch={item.batch} canAct={permissions.canImport} />
      <Tabs.Root
        value={view.section}
        onValueChange={(event) => setView({ section: event.value as ImportSection })}
        colorPalette="brand"
        variant="line"
        lazyMount
        unmountOnExit
      >
        <Tabs.List overflowX="auto" data-tour="import-sections">
          {(Object.keys(sectionLabels) as ImportSection[]).map((section) => (
            <Tabs.Trigger key={section} value={section} whiteSpace="nowrap" flexShrink={0}>
              {sectionLabels[section]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Box pt="4">
          <Tabs.Content value="report">
            <ReportSection
              item={item}
              view={view}
              setView={setView}
              canDownloadErrors={permissions.canDownloadErrors}
            />
          </Tabs.Content>
          <Tabs.Content value="mapping">
            <MappingSection item={item} canEdit={permissions.canImport} />
          </Tabs.Content>
          <Tabs.Content value="preview">
            <PreviewSection item={item} view={view} setView={setView} canMove={permissions.canImport} />
          </Tabs.Content>
          <Tabs.Content value="titles">
            <TitlesSection
              item={item}
              canApply={permissions.canImport}
              canEditTemplate={permissions.canEditTemplate}
            />
          </Tabs.Content>
          <Tabs.Content value="inactive">
            <MarkInactiveSection item={item} canMark={permissions.canImport} />
          </Tabs.Content>
          <Tabs.Content value="history">
            <HistorySection item={item} />
          </Tabs.Content>
        </Box>
      </Tabs.Root>
    </Stack>
  );
}

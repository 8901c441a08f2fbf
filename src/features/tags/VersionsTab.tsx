// Publish history: every version with who published it, when, its note and what it changed against
// the one before; open any version read-only, compare it with any other version or the draft, export
// it, and — for those who may publish — roll back to it (it becomes the draft; publishing it makes a new
// version, so the history is never rewritten). The tree's own history (publishes, rollbacks, level
// calculations) follows for staff.
import {
  Badge,
  Box,
  Button,
  CloseButton,
  Drawer,
  Heading,
  HStack,
  NativeSelect,
  Portal,
  Stack,
  Table,
  Text,
} from '@chakra-ui/react';
import { Eye, GitCompare, History, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { formatDateTime, plural } from '../../../contracts/domain/format';
import type { TagTreeSource, TagVersion } from '../../../contracts/tags';
import { relativeTime } from '../../lib/relative-time';
import { getErrorMessage } from '../../services/http';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { HistoryTimeline, type HistoryWords } from '../../ui/history-timeline';
import { notify } from '../../ui/notify';
import { EmptyMessage, ErrorState, LoadingState } from '../../ui/page-states';
import { Pager } from '../../ui/pager';
import { useRollback, useTagDiff, useTreeHistory, useTreeState, useVersions } from './api';
import { DiffView } from './DiffView';
import { sourceName, versionSummary } from './format';
import { HierarchyTab } from './HierarchyTab';
import { TagExportMenu } from './TagExportMenu';

const PAGE_SIZE = 20;

function CompareDrawer({
  from,
  versions,
  allowDraft,
  onClose,
}: {
  from: number;
  versions: TagVersion[];
  allowDraft: boolean;
  onClose: () => void;
}) {
  const [to, setTo] = useState<TagTreeSource>(from > 1 ? from - 1 : allowDraft ? 'draft' : from);
  const diff = useTagDiff(to, from);
  return (
    <Drawer.Root open onOpenChange={(event) => !event.open && onClose()} size="lg">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>What version {from} changed</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack gap="4">
                <HStack gap="2" wrap="wrap">
                  <Text>Compared with</Text>
                  <NativeSelect.Root size="sm" width="56">
                    <NativeSelect.Field
                      aria-label="Compare with"
                      value={String(to)}
                      onChange={(event) =>
                        setTo(event.target.value === 'draft' ? 'draft' : Number(event.target.value))
                      }
                    >
                      {allowDraft ? <option value="draft">the draft</option> : null}
                      {versions
                        .filter((version) => version.number !== from)
                        .map((version) => (
                          <option key={version.number} value={version.number}>
                            version {version.number}
                          </option>
                        ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </HStack>
                {diff.isPending ? <LoadingState rows={3} label="Comparing" /> : null}
                {diff.isError ? (
                  <ErrorState message={getErrorMessage(diff.error)} onRetry={() => diff.refetch()} />
                ) : null}
                {diff.data ? <DiffView diff={diff.data} /> : null}
              </Stack>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

function VersionDrawer({
  number,
  onClose,
  canExport,
}: {
  number: number;
  onClose: () => void;
  canExport: boolean;
}) {
  const [selected, setSelected] = useState<string | null>(null);
  return (
    <Drawer.Root open onOpenChange={(event) => !event.open && onClose()} size="xl">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <HStack justify="space-between" w="full" pe="8" wrap="wrap">
                <Drawer.Title>Version {number} (read-only)</Drawer.Title>
                {canExport ? <TagExportMenu source={number} /> : null}
              </HStack>
            </Drawer.Header>
            <Drawer.Body>
              <HierarchyTab
                source={number}
                permissions={{ create: false, edit: false, delete: false }}
                selectedId={selected}
                onSelect={setSelected}
                treeLabel={`Tags of version ${number}`}
              />
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

export const treeHistoryWords: HistoryWords = {
  fieldLabel: (field: string) => field,
  actionText: (entry: { action: string }) =>
    ({ published: 'published', 'rolled back': 'rolled the draft back', levels: 'calculated node levels' })[
      entry.action
    ] ?? entry.action,
  formatValue: (value: unknown) => String(value ?? '—'),
  // The server writes these notes as sentences; a publisher's own note is quoted inside them.
  noteIsQuote: () => false,
};

function TreeActivity() {
  const history = useTreeHistory();
  return (
    <HistoryTimeline
      history={history}
      words={treeHistoryWords}
      emptyDescription="Publishes, rollbacks and level calculations appear here."
    />
  );
}

export function VersionsTab({
  canRollback,
  canExport,
  staff,
}: {
  canRollback: boolean;
  canExport: boolean;
  /** Staff and admins also compare with the draft and see the tree's activity. */
  staff: boolean;
}) {
  const [skip, setSkip] = useState(0);
  const versions = useVersions(skip, PAGE_SIZE);
  const state = useTreeState();
  const rollback = useRollback();
  const [open, setOpen] = useState<number | null>(null);
  const [comparing, setComparing] = useState<number | null>(null);
  const [rollingBack, setRollingBack] = useState<number | null>(null);

  if (versions.isPending) return <LoadingState rows={4} label="Loading the publish history" />;
  if (versions.isError)
    return <ErrorState message={getErrorMessage(versions.error)} onRetry={() => versions.refetch()} />;
  const list = versions.data.result;
  const latest = state.data?.latest ?? null;

  const confirmRollback = async () => {
    if (rollingBack === null || !state.data) return;
    try {
      await rollback.mutateAsync({ version: rollingBack, draftRevision: state.data.draftRevision });
      notify({
        type: 'success',
        title: `The draft is version ${rollingBack} again`,
        description: 'Publish it to make it what the storefront shows.',
      });
      setRollingBack(null);
    } catch {
      // Shown in the dialog.
    }
  };

  return (
    <Stack gap="6">
      {list.length === 0 ? (
        <EmptyMessage
          title="Nothing published yet"
          description="Publish the draft to make the first version."
        />
      ) : (
        <Box overflowX="auto">
          <Table.Root size="sm" aria-label="Published versions">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Version</Table.ColumnHeader>
                <Table.ColumnHeader>Published</Table.ColumnHeader>
                <Table.ColumnHeader>Note</Table.ColumnHeader>
                <Table.ColumnHeader>Changes</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {list.map((version) => (
                <Table.Row key={version.number} data-testid="version-row">
                  <Table.Cell>
                    <HStack gap="2">
                      <Text fontWeight="semibold">Version {version.number}</Text>
                      {version.number === latest ? <Badge colorPalette="green">Live</Badge> : null}
                    </HStack>
                    <Text fontSize="xs" color="fg.muted">
                      {plural(version.nodeCount, 'tag')}
                      {version.rolledBackFrom ? ` · version ${version.rolledBackFrom} brought back` : ''}
                    </Text>
                  </Table.Cell>
                  <Table.Cell>
                    <Text>{version.publishedBy.name}</Text>
                    <Text fontSize="xs" color="fg.muted" title={formatDateTime(version.publishedAt)}>
                      {relativeTime(version.publishedAt)}
                    </Text>
                  </Table.Cell>
                  <Table.Cell maxW="64">
                    <Text lineClamp={2}>{version.note || '—'}</Text>
                  </Table.Cell>
                  <Table.Cell>{versionSummary(version)}</Table.Cell>
                  <Table.Cell>
                    <HStack gap="1" justify="flex-end" wrap="wrap">
                      <Button size="xs" variant="outline" onClick={() => setOpen(version.number)}>
                        <Eye /> Open
                      </Button>
                      <Button size="xs" variant="outline" onClick={() => setComparing(version.number)}>
                        <GitCompare /> Compare
                      </Button>
                      {canRollback ? (
                        <Button
                          size="xs"
                          variant="outline"
                          colorPalette="red"
                          onClick={() => setRollingBack(version.number)}
                          aria-label={`Roll back to version ${version.number}`}
                        >
                          <RotateCcw /> Roll back
                        </Button>
                      ) : null}
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
          <Pager
            skip={skip}
            limit={PAGE_SIZE}
            count={versions.data.count}
            onSkipChange={setSkip}
            label="Versions pages"
          />
        </Box>
      )}
      {staff ? (
        <Box>
          <Heading size="sm" mb="3">
            <HStack gap="2">
              <History /> Activity
            </HStack>
          </Heading>
          <TreeActivity />
        </Box>
      ) : null}
      {open !== null ? (
        <VersionDrawer number={open} onClose={() => setOpen(null)} canExport={canExport} />
      ) : null}
      {comparing !== null ? (
        <CompareDrawer
          from={comparing}
          versions={list}
          allowDraft={staff}
          onClose={() => setComparing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={rollingBack !== null}
        title={`Roll back to version ${rollingBack}?`}
        description={`The draft becomes ${sourceName(rollingBack ?? 'draft')} again: its changes since then are replaced. The storefront keeps version ${latest} until you publish; publishing makes a new version.`}
        confirmLabel="Roll back"
        danger
        pending={rollback.isPending}
        error={rollback.error ? getErrorMessage(rollback.error) : null}
        onConfirm={() => void confirmRollback()}
        onClose={() => {
          rollback.reset();
          setRollingBack(null);
        }}
      />
    </Stack>
  );
}

// The hierarchy: the tree (the draft to edit, or a published version to read) with search, expand and
// collapse all, and the selected tag's details beside it. Every edit reloads just the lists it touched,
// so an expanded 50,000-tag tree stays as it is around the change.
import { Box, Button, Drawer, Grid, HStack, Portal, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, ChevronsDownUp, ChevronsUpDown, Plus } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { formatNumber } from '../../../contracts/domain/format';
import type { TagNodeWithPath, TagTreeSource } from '../../../contracts/tags';
import { tagAllPageSchema } from '../../../contracts/tags';
import { getErrorMessage, http } from '../../services/http';
import { fetchTagChildren, fetchTagNode, TAGS_API, tagTreeKeys, useTagSearch } from '../../services/tag-tree';
import { notify } from '../../ui/notify';
import { EmptyMessage } from '../../ui/page-states';
import { SearchBox } from '../../ui/search-box';
import { tagPathText } from '../../ui/tag-picker';
import { NARROW_SCREEN, useMediaQuery } from '../../ui/use-media-query';
import { useMoveTag } from './api';
import { type TagAction, TagDetails } from './TagDetails';
import { DeleteTagDialog, MoveTagDialog, TagFormDialog, type TagFormMode } from './TagDialogs';
import { TagTree } from './TagTree';
import { TagTreeStore } from './tree-store';

export interface TreePermissions {
  create: boolean;
  edit: boolean;
  delete: boolean;
}

/**
 * Tags per "expand all" request: each page is parsed and sorted in one task of its own, so a smaller
 * page is a shorter task (2,500 keeps each under a frame's budget at 50,000 tags; bench `tags`).
 */
const ALL_PAGE = 2500;

/** A store for one tree, reading it through the API. */
export function useTreeStore(source: TagTreeSource) {
  const store = useMemo(
    () =>
      new TagTreeStore({
        children: (parent, skip, limit) => fetchTagChildren(source, parent, { skip, limit }),
        allPage: async (after) =>
          tagAllPageSchema.parse(
            (
              await http.get(`${TAGS_API}/trees/${source}/all`, {
                params: { after, limit: ALL_PAGE },
                silent: true,
              })
            ).data,
          ),
      }),
    [source],
  );
  useEffect(() => {
    void store.load(null);
  }, [store]);
  return store;
}

type Dialog =
  | { kind: 'form'; mode: TagFormMode }
  | { kind: 'move'; node: TagNodeWithPath }
  | { kind: 'delete'; node: TagNodeWithPath };

export function HierarchyTab({
  source,
  permissions,
  selectedId,
  onSelect,
  treeLabel,
}: {
  source: TagTreeSource;
  permissions: TreePermissions;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  treeLabel: string;
}) {
  const store = useTreeStore(source);
  useSyncExternalStore(store.subscribe, store.getVersion);
  const client = useQueryClient();
  const move = useMoveTag();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [search, setSearch] = useState('');
  const found = useTagSearch(source, search, 25);
  const draft = source === 'draft';
  const canMove = draft && permissions.edit;
  // On a phone the details would sit far below the tree: a tag tapped there opens them in a sheet.
  const narrow = useMediaQuery(NARROW_SCREEN);
  const [sheetOpen, setSheetOpen] = useState(false);
  useEffect(() => {
    if (!selectedId) setSheetOpen(false);
  }, [selectedId]);

  const parentOf = (id: string | null) => (id ? (store.item(id)?.parentId ?? null) : null);
  /** Opens the tree down to a tag, then selects it. */
  const reveal = async (node: Pick<TagNodeWithPath, 'id' | 'ancestorIds'>) => {
    await store.reveal(node.ancestorIds);
    onSelect(node.id);
    setSheetOpen(true);
  };

  // A tag opened from the address (a reload, a link) is shown where it is.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on the first load of this tree
  useEffect(() => {
    if (!selectedId) return;
    let cancelled = false;
    client
      .fetchQuery({
        queryKey: tagTreeKeys.node(source, selectedId),
        queryFn: ({ signal }) => fetchTagNode(source, selectedId, signal),
      })
      .then(async (node) => {
        if (!cancelled) await store.reveal(node.ancestorIds);
      })
      .catch(() => {
        if (!cancelled) onSelect(null);
      });
    return () => {
      cancelled = true;
    };
  }, [store]);

  const onAction = (action: TagAction, node: TagNodeWithPath) => {
    if (action === 'addChild') setDialog({ kind: 'form', mode: { kind: 'add', parent: node } });
    if (action === 'addSibling') {
      const parent = node.parentId
        ? { id: node.parentId, name: node.pathNames.at(-2) ?? '', pathNames: node.pathNames.slice(0, -1) }
        : null;
      setDialog({ kind: 'form', mode: { kind: 'add', parent } });
    }
    if (action === 'rename') setDialog({ kind: 'form', mode: { kind: 'edit', node } });
    if (action === 'move') setDialog({ kind: 'move', node });
    if (action === 'delete') setDialog({ kind: 'delete', node });
  };

  const afterMove = async (node: TagNodeWithPath, previousParent: string | null) => {
    await store.reload([
      previousParent,
      node.parentId,
      parentOf(previousParent),
      parentOf(node.parentId),
      null,
    ]);
    await reveal(node);
  };

  const dropMove = async (id: string, parentId: string | null) => {
    const item = store.item(id);
    if (!item) return;
    try {
      // The version to name is the one the server has now: a drag is a fresh decision.
      const node = await client.fetchQuery({
        queryKey: tagTreeKeys.node('draft', id),
        queryFn: ({ signal }) => fetchTagNode('draft', id, signal),
        staleTime: 0,
      });
      const moved = await move.mutateAsync({ id, version: node.version, parentId });
      notify({
        type: 'success',
        title: `“${moved.name}” moved`,
        description: `Now in ${tagPathText({ pathNames: moved.pathNames.slice(0, -1) }) || 'the top level'}.`,
      });
      await afterMove(moved, item.parentId);
    } catch (error) {
      notify({ type: 'error', title: 'The tag was not moved', description: getErrorMessage(error) });
    }
  };

  const results = search ? (found.data?.result ?? []) : [];
  const details = selectedId ? (
    <TagDetails
      source={source}
      id={selectedId}
      permissions={draft ? permissions : noEdits}
      onAction={onAction}
    />
  ) : null;
  return (
    <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 400px' }} gap="6" alignItems="start">
      <Stack gap="3" minW="0">
        <HStack gap="2" wrap="wrap">
          <SearchBox
            value={search}
            onSearch={setSearch}
            label="Search tags"
            placeholder="Search by name or code"
            maxW="72"
          />
          <Button
            size="sm"
            variant="outline"
            onClick={() => void store.expandAll()}
            loading={store.allProgress !== null}
          >
            <ChevronsUpDown /> Expand all
          </Button>
          <Button size="sm" variant="outline" onClick={() => store.collapseAll()}>
            <ChevronsDownUp /> Collapse all
          </Button>
          {draft && permissions.create ? (
            <Button
              size="sm"
              colorPalette="brand"
              ms={{ md: 'auto' }}
              data-tour="add-node"
              onClick={() => setDialog({ kind: 'form', mode: { kind: 'add', parent: null } })}
            >
              <Plus /> Add top-level tag
            </Button>
          ) : null}
        </HStack>
        {store.allProgress ? (
          <Text fontSize="sm" color="fg.muted" aria-live="polite">
            Loading {formatNumber(store.allProgress.loaded)} of {formatNumber(store.allProgress.total)} tags…
          </Text>
        ) : null}
        {search ? (
          <Box borderWidth="1px" rounded="md" p="2" data-testid="tag-search-results">
            {found.isError ? (
              <Text color="fg.error">{getErrorMessage(found.error)}</Text>
            ) : results.length === 0 ? (
              <Text fontSize="sm" color="fg.muted">
                {found.isFetching ? 'Searching…' : `No tag matches “${search}”.`}
              </Text>
            ) : (
              <Stack gap="0" as="ul" listStyleType="none">
                {results.map((node) => (
                  <Box as="li" key={node.id}>
                    <Button
                      variant="ghost"
                      size="sm"
                      w="full"
                      justifyContent="flex-start"
                      h="auto"
                      py="1.5"
                      onClick={() => void reveal(node)}
                    >
                      <Stack gap="0" align="flex-start" textAlign="left">
                        <Text fontWeight="medium">{node.name}</Text>
                        <Text fontSize="xs" color="fg.muted" whiteSpace="normal">
                          {tagPathText(node)}
                        </Text>
                      </Stack>
                    </Button>
                  </Box>
                ))}
                {found.data && found.data.count > results.length ? (
                  <Text fontSize="xs" color="fg.muted" px="3" pt="1">
                    {formatNumber(found.data.count - results.length)} more match: type more of the name.
                  </Text>
                ) : null}
              </Stack>
            )}
          </Box>
        ) : null}
        <TagTree
          store={store}
          selectedId={selectedId}
          onSelect={onSelect}
          onOpen={() => setSheetOpen(true)}
          canMove={canMove}
          onMove={(id, parentId) => void dropMove(id, parentId)}
          showStatus={draft}
          label={treeLabel}
        />
        {canMove ? (
          <Text fontSize="xs" color="fg.muted">
            Drag a tag onto another to move it there, or use “Move to…” beside the tree.
          </Text>
        ) : null}
      </Stack>
      {narrow ? (
        <TagSheet open={sheetOpen && selectedId !== null} onClose={() => setSheetOpen(false)}>
          {details}
        </TagSheet>
      ) : (
        <Box borderWidth="1px" rounded="md" p="4" position="sticky" top="4">
          {details ?? (
            <EmptyMessage title="No tag chosen" description="Choose a tag in the tree to see it here." />
          )}
        </Box>
      )}

      {dialog?.kind === 'form' ? (
        <TagFormDialog
          mode={dialog.mode}
          onClose={() => setDialog(null)}
          onSaved={async (node) => {
            setDialog(null);
            await store.reload([node.parentId, parentOf(node.parentId), null]);
            await reveal(node);
          }}
        />
      ) : null}
      {dialog?.kind === 'move' ? (
        <MoveTagDialog
          node={dialog.node}
          onClose={() => setDialog(null)}
          onMoved={async (node, previousParent) => {
            setDialog(null);
            await afterMove(node, previousParent);
          }}
        />
      ) : null}
      {dialog?.kind === 'delete' ? (
        <DeleteTagDialog
          node={dialog.node}
          onClose={() => setDialog(null)}
          onDeleted={async () => {
            const { node } = dialog;
            setDialog(null);
            store.forgetBelow(node.id);
            onSelect(node.parentId);
            await store.reload([node.parentId, parentOf(node.parentId), null]);
          }}
        />
      ) : null}
    </Grid>
  );
}

const noEdits: TreePermissions = { create: false, edit: false, delete: false };

/** The chosen tag's details over the tree, on a narrow screen; closing it goes back to the tree. */
function TagSheet({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer.Root open={open} onOpenChange={(event) => !event.open && onClose()} size="full">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="tag-sheet">
            <Drawer.Header>
              <Button variant="ghost" size="sm" ms="-2" onClick={onClose}>
                <ArrowLeft /> Back to the tree
              </Button>
              <Drawer.Title srOnly>Tag details</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body pb="8">{children}</Drawer.Body>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

// The views menu of a list (ARCHITECTURE "saved views"): which view the list shows and whether it has
// changed since, the user's views and those shared with them to load, and what can be done with the
// loaded one. Knows nothing of the list it serves beyond its name: the page owns the list's state and
// which view is loaded (in its URL), and hears of loads through `onLoad`.
import { Badge, Box, Button, HStack, Menu, Portal, Text } from '@chakra-ui/react';
import { Bookmark, Check, ChevronDown, Lock, Star } from 'lucide-react';
import { useState } from 'react';
import type { SavedView, ViewList, ViewState } from '../../../contracts/saved-views';
import { getErrorMessage } from '../../services/api-error';
import { useDeleteView, useSavedViews, useSetDefaultView, useUpdateView } from '../../services/saved-views';
import { ConfirmDialog } from '../confirm-dialog';
import { notify } from '../notify';
import { EditViewDialog, SaveViewAsDialog } from './view-dialogs';
import { isViewModified } from './view-state';

export interface SavedViewsMenuProps {
  /** Which list's views: its name in `viewLists` (contracts/saved-views.ts). */
  list: ViewList;
  /** What the list shows now. */
  current: ViewState;
  /** The loaded view's id (the page keeps it, e.g. in its URL), or null when no saved view is loaded. */
  viewId: string | null;
  /** Load this view: show its state and remember its id. Also called with a view just saved as new. */
  onLoad(view: SavedView): void;
  /** The loaded view was deleted: the list keeps showing what it shows, as no saved view. */
  onUnload?(): void;
  /** Whether the user may share a view with everyone (`publish` on the list's route). */
  canPublish: boolean;
  /** What the button says when no saved view is loaded, e.g. "All products". */
  neutralLabel?: string;
}

type Dialog = 'save-as' | 'rename' | 'delete' | null;

function ViewItem({ view, loaded, onLoad }: { view: SavedView; loaded: boolean; onLoad(): void }) {
  return (
    <Menu.Item value={`view:${view.id}`} onClick={onLoad} aria-current={loaded ? 'true' : undefined}>
      <Box w="4" flexShrink={0} aria-hidden>
        {loaded ? <Check size={16} /> : null}
      </Box>
      <Box flex="1" minW="0">
        <Text truncate>{view.name}</Text>
        {view.editable ? null : (
          <Text fontSize="xs" color="fg.muted" truncate>
            Read-only · by {view.owner.name}
          </Text>
        )}
      </Box>
      {view.editable ? null : <Lock size={14} aria-label="Read-only" />}
      {view.isDefault ? <Star size={14} aria-label="Default view" /> : null}
    </Menu.Item>
  );
}

export function SavedViewsMenu({
  list,
  current,
  viewId,
  onLoad,
  onUnload,
  canPublish,
  neutralLabel = 'No saved view',
}: SavedViewsMenuProps) {
  const views = useSavedViews(list);
  const update = useUpdateView(list);
  const remove = useDeleteView(list);
  const setDefault = useSetDefaultView(list);
  const [dialog, setDialog] = useState<Dialog>(null);

  const loaded = viewId ? (views.data?.find((view) => view.id === viewId) ?? null) : null;
  const modified = loaded ? isViewModified(loaded.state, current) : false;
  const own = views.data?.filter((view) => view.editable) ?? [];
  const shared = views.data?.filter((view) => !view.editable) ?? [];

  const save = (view: SavedView) =>
    update.mutate(
      { id: view.id, body: { state: current } },
      {
        onSuccess: (saved) => notify({ type: 'success', title: `Saved ${saved.name}` }),
        onError: (error) => notify({ type: 'error', title: getErrorMessage(error) }),
      },
    );

  const toggleDefault = (view: SavedView) =>
    setDefault.mutate(view.isDefault ? null : view.id, {
      onSuccess: () =>
        notify({
          type: 'success',
          title: view.isDefault
            ? 'This list now opens without a default view'
            : `${view.name} is now your default view`,
        }),
    });

  const closeDelete = () => {
    remove.reset();
    setDialog(null);
  };

  return (
    <HStack gap="2" wrap="wrap">
      <Menu.Root positioning={{ placement: 'bottom-start' }}>
        <Menu.Trigger asChild>
          <Button variant="outline" maxW="sm" data-testid="saved-views-trigger">
            <Bookmark />
            <Text as="span" truncate>
              {loaded?.name ?? (viewId && views.isPending ? 'Loading view…' : neutralLabel)}
            </Text>
            {modified ? (
              <Badge colorPalette="orange" variant="subtle" title="Changed since the view was saved">
                Modified
              </Badge>
            ) : null}
            <ChevronDown />
          </Button>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="64" maxH="md" overflowY="auto">
              {views.isPending ? (
                <Menu.Item value="loading" disabled>
                  Loading views…
                </Menu.Item>
              ) : views.isError ? (
                <Menu.Item value="retry" onClick={() => views.refetch()}>
                  Could not load the views: {getErrorMessage(views.error)} Try again.
                </Menu.Item>
              ) : (
                <>
                  <Menu.ItemGroup>
                    <Menu.ItemGroupLabel>My views</Menu.ItemGroupLabel>
                    {own.length ? (
                      own.map((view) => (
                        <ViewItem
                          key={view.id}
                          view={view}
                          loaded={view.id === viewId}
                          onLoad={() => onLoad(view)}
                        />
                      ))
                    ) : (
                      <Menu.Item value="no-own" disabled>
                        No saved views yet
                      </Menu.Item>
                    )}
                  </Menu.ItemGroup>
                  {shared.length ? (
                    <Menu.ItemGroup>
                      <Menu.ItemGroupLabel>Shared with me</Menu.ItemGroupLabel>
                      {shared.map((view) => (
                        <ViewItem
                          key={view.id}
                          view={view}
                          loaded={view.id === viewId}
                          onLoad={() => onLoad(view)}
                        />
                      ))}
                    </Menu.ItemGroup>
                  ) : null}
                </>
              )}
              <Menu.Separator />
              {loaded?.editable ? (
                <Menu.Item
                  value="save"
                  disabled={!modified || update.isPending}
                  // A disabled item is only marked so (aria-disabled): a click still reaches it.
                  onClick={() => modified && !update.isPending && save(loaded)}
                >
                  Save
                </Menu.Item>
              ) : null}
              <Menu.Item value="save-as" onClick={() => setDialog('save-as')}>
                {loaded && !loaded.editable ? 'Save as copy…' : 'Save as…'}
              </Menu.Item>
              {loaded?.editable ? (
                <Menu.Item value="rename" onClick={() => setDialog('rename')}>
                  Rename…
                </Menu.Item>
              ) : null}
              {loaded ? (
                <Menu.Item
                  value="default"
                  disabled={setDefault.isPending}
                  onClick={() => !setDefault.isPending && toggleDefault(loaded)}
                >
                  {loaded.isDefault ? 'Clear default' : 'Set as default'}
                </Menu.Item>
              ) : null}
              {loaded?.editable ? (
                <Menu.Item value="delete" color="fg.error" onClick={() => setDialog('delete')}>
                  Delete…
                </Menu.Item>
              ) : null}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {loaded && !loaded.editable ? (
        <HStack gap="1" color="fg.muted" fontSize="xs" aria-live="polite">
          <Lock size={12} aria-hidden />
          <Text>Shared by {loaded.owner.name}: read-only, save a copy to keep changes.</Text>
        </HStack>
      ) : null}
      {dialog === 'save-as' ? (
        <SaveViewAsDialog
          list={list}
          state={current}
          initialName={loaded && !loaded.editable ? `${loaded.name} (copy)` : ''}
          canPublish={canPublish}
          onClose={() => setDialog(null)}
          onSaved={(view) => {
            notify({ type: 'success', title: `Saved ${view.name}` });
            setDialog(null);
            onLoad(view);
          }}
        />
      ) : null}
      {dialog === 'rename' && loaded ? (
        <EditViewDialog view={loaded} list={list} canPublish={canPublish} onClose={() => setDialog(null)} />
      ) : null}
      <ConfirmDialog
        open={dialog === 'delete' && loaded !== null}
        title={`Delete ${loaded?.name ?? 'view'}?`}
        description={
          loaded?.scope === 'private'
            ? 'The view is deleted for good. What the list shows stays as it is.'
            : 'The view is deleted for good, also for everyone it is shared with. What the list shows stays as it is.'
        }
        confirmLabel="Delete"
        danger
        pending={remove.isPending}
        error={remove.isError ? getErrorMessage(remove.error) : null}
        onClose={closeDelete}
        onConfirm={() =>
          loaded &&
          remove.mutate(loaded.id, {
            onSuccess: () => {
              notify({ type: 'success', title: `Deleted ${loaded.name}` });
              closeDelete();
              onUnload?.();
            },
          })
        }
      />
    </HStack>
  );
}

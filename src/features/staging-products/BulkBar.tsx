import { Button, Field, HStack, Menu, NativeSelect, Portal, Text, Textarea } from '@chakra-ui/react';
import { ChevronDown, ImageUp, Tags, Trash2, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  type BulkResult,
  type ProductSelection,
  type ProductStatus,
  productStatuses,
  productStatusLabels,
} from '../../../contracts/catalog';
import { BULK_LIMIT } from '../../../contracts/catalog-actions';
import { getErrorMessage } from '../../services/http';
import { useCurrentUser } from '../../services/session-queries';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormDialog } from '../../ui/form-dialog';
import { notify } from '../../ui/notify';
import { type BulkAction, countSelection, loadQueryOptions, useBulkAction, useReprocessImages } from './api';
import { BulkTagsDialog } from './BulkTagsDialog';

const plural = (count: number, noun: string) =>
  `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;

/** What a bulk action did, in one toast: how many changed, how many were left alone and why. */
function announce(result: BulkResult, verb: string) {
  const skipped = result.skippedCount
    ? ` ${plural(result.skippedCount, 'product')} left as they were${result.skipped[0] ? ` (e.g. ${result.skipped[0].sku}: ${result.skipped[0].reason})` : ''}.`
    : '';
  notify({
    type: result.skippedCount && !result.changed ? 'warning' : 'success',
    title: `${plural(result.changed, 'product')} ${verb}.`,
    description: skipped || undefined,
  });
}

type Dialog =
  | null
  | { kind: 'reject' }
  | { kind: 'category' }
  | { kind: 'tags' }
  | { kind: 'delete'; count: number };

/**
 * The actions on the ticked rows, or on every product of the query ("select all N"): change status,
 * assign a category, add or remove tags, reprocess images, delete (with the exact count in the
 * confirmation).
 */
export function BulkBar({
  selection,
  label,
  canEdit,
  canDelete,
  onClear,
}: {
  selection: ProductSelection;
  /** "3 selected" or "All 1,240 matching products". */
  label: string;
  canEdit: boolean;
  canDelete: boolean;
  onClear: () => void;
}) {
  const bulk = useBulkAction();
  const reprocess = useReprocessImages();
  // Sellers read the published tag tree; staff and admins the draft (tag ids are the same in both).
  const tagSource = useCurrentUser().data?.isSeller ? 'latest' : 'draft';
  const [dialog, setDialog] = useState<Dialog>(null);
  const [reason, setReason] = useState('');
  const [categoryId, setCategoryId] = useState('');
  const [categories, setCategories] = useState<{ value: string; label: string }[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [counting, setCounting] = useState(false);

  useEffect(() => {
    if (dialog?.kind !== 'category' || categories.length) return;
    loadQueryOptions('categories', '').then(setCategories, () => setCategories([]));
  }, [dialog, categories.length]);

  const run = (action: BulkAction, verb: string) =>
    bulk.mutate(
      { selection, action },
      {
        onSuccess: (result) => {
          announce(result, verb);
          setDialog(null);
          setError(null);
          onClear();
        },
        onError: (failure) => setError(getErrorMessage(failure)),
      },
    );

  const changeStatus = (status: ProductStatus) => {
    if (status === 'rejected') {
      setReason('');
      setError(null);
      setDialog({ kind: 'reject' });
    } else run({ kind: 'status', status }, `moved to ${productStatusLabels[status].toLowerCase()}`);
  };

  const askDelete = async () => {
    setCounting(true);
    try {
      const { count, overLimit } = await countSelection(selection);
      if (overLimit) {
        notify({
          type: 'warning',
          title: `Select at most ${BULK_LIMIT.toLocaleString('en-US')} products to delete. Narrow the query first.`,
        });
      } else {
        setError(null);
        setDialog({ kind: 'delete', count });
      }
    } finally {
      setCounting(false);
    }
  };

  return (
    <HStack
      gap="2"
      wrap="wrap"
      px="3"
      py="2"
      mb="3"
      rounded="md"
      bg="brand.subtle"
      role="toolbar"
      aria-label="Bulk actions"
    >
      <Text fontWeight="medium" fontSize="sm" data-testid="selection-label">
        {label}
      </Text>
      {canEdit ? (
        <>
          <Menu.Root>
            <Menu.Trigger asChild>
              <Button size="sm" variant="outline" loading={bulk.isPending}>
                Change status <ChevronDown />
              </Button>
            </Menu.Trigger>
            <Portal>
              <Menu.Positioner>
                <Menu.Content>
                  {productStatuses.map((status) => (
                    <Menu.Item key={status} value={status} onClick={() => changeStatus(status)}>
                      {productStatusLabels[status]}
                    </Menu.Item>
                  ))}
                </Menu.Content>
              </Menu.Positioner>
            </Portal>
          </Menu.Root>
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              setError(null);
              setCategoryId('');
              setDialog({ kind: 'category' });
            }}
          >
            Assign category
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              setError(null);
              setDialog({ kind: 'tags' });
            }}
          >
            <Tags /> Tags
          </Button>
          <Button
            size="sm"
            variant="outline"
            loading={reprocess.isPending}
            onClick={() => reprocess.mutate(selection)}
          >
            <ImageUp /> Reprocess images
          </Button>
        </>
      ) : null}
      {canDelete ? (
        <Button size="sm" variant="outline" colorPalette="red" loading={counting} onClick={askDelete}>
          <Trash2 /> Delete
        </Button>
      ) : null}
      <Button size="sm" variant="ghost" onClick={onClear} ms="auto">
        <X /> Clear selection
      </Button>

      <FormDialog
        open={dialog?.kind === 'reject'}
        onClose={() => setDialog(null)}
        onSubmit={(event) => {
          event.preventDefault();
          run({ kind: 'status', status: 'rejected', reason }, 'rejected');
        }}
        title="Reject products"
        submitLabel="Reject"
        submitPalette="red"
        pending={bulk.isPending}
      >
        <Field.Root required invalid={Boolean(error)}>
          <Field.Label>Why are they rejected? Their sellers read this.</Field.Label>
          <Textarea value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
          <Field.ErrorText>{error}</Field.ErrorText>
        </Field.Root>
      </FormDialog>

      <FormDialog
        open={dialog?.kind === 'category'}
        onClose={() => setDialog(null)}
        onSubmit={(event) => {
          event.preventDefault();
          if (categoryId) run({ kind: 'category', categoryId }, 'moved to the category');
          else setError('Choose a category.');
        }}
        title="Assign a category"
        submitLabel="Assign"
        pending={bulk.isPending}
      >
        <Text fontSize="sm" color="fg.muted">
          Values of attributes the new category does not have are removed, as when one product changes
          category.
        </Text>
        <Field.Root required invalid={Boolean(error)}>
          <Field.Label>Category</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field value={categoryId} onChange={(event) => setCategoryId(event.target.value)}>
              <option value="">Choose…</option>
              {categories.map((category) => (
                <option key={category.value} value={category.value}>
                  {category.label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.ErrorText>{error}</Field.ErrorText>
        </Field.Root>
      </FormDialog>

      <BulkTagsDialog
        open={dialog?.kind === 'tags'}
        onClose={() => setDialog(null)}
        pending={bulk.isPending}
        error={error}
        source={tagSource}
        what={label}
        onSubmit={(mode, tags) =>
          run(
            { kind: 'tags', mode, tagIds: tags.map((tag) => tag.id) },
            mode === 'add' ? 'tagged' : 'untagged',
          )
        }
      />

      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title={dialog?.kind === 'delete' ? `Delete ${plural(dialog.count, 'product')}?` : 'Delete products?'}
        description={
          dialog?.kind === 'delete'
            ? `${plural(dialog.count, 'product')}, with ${dialog.count === 1 ? 'its' : 'their'} images and history, will be deleted. This cannot be undone.`
            : ''
        }
        confirmLabel={dialog?.kind === 'delete' ? `Delete ${plural(dialog.count, 'product')}` : 'Delete'}
        danger
        pending={bulk.isPending}
        error={error}
        onConfirm={() => run({ kind: 'delete' }, 'deleted')}
        onClose={() => setDialog(null)}
      />
    </HStack>
  );
}

import { Button, Field, HStack, Menu, Portal, Text, Textarea } from '@chakra-ui/react';
import { ChevronDown, ImageUp, Tags, Trash2, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  type BulkResult,
  type ProductSelection,
  type ProductStatus,
  productStatuses,
  productStatusLabels,
} from '../../../contracts/catalog';
import { BULK_JOB_LIMIT, type SelectionCount } from '../../../contracts/catalog-actions';
import { plural } from '../../../contracts/domain/format';
import { getErrorMessage } from '../../services/http';
import { useCurrentUser } from '../../services/session-queries';
import { notifyTaskStarted } from '../../services/task-started';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { FormDialog } from '../../ui/form-dialog';
import { notify } from '../../ui/notify';
import { OptionSelect } from '../../ui/option-select';
import {
  type BulkAction,
  type BulkAnswer,
  countSelection,
  isBulkTask,
  loadQueryOptions,
  useBulkAction,
  useReprocessImages,
} from './api';
import { BulkTagsDialog } from './BulkTagsDialog';

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

/**
 * The toast of an answer: the result when the action ran in the request; over BULK_LIMIT products it
 * runs as a task, whose own toast ("Bulk status change Completed", with "N changed, M skipped") ends it.
 */
function announceAnswer(answer: BulkAnswer, verb: string) {
  if (!isBulkTask(answer)) {
    announce(answer, verb);
    return;
  }
  notifyTaskStarted(answer.taskStatus, {
    type: 'info',
    title: `${answer.taskStatus.taskName} started. You will be notified when it is done.`,
  });
}

/** The confirmation of an action over BULK_LIMIT products, with the exact count. */
function jobQuestion(action: BulkAction, count: number): { title: string; confirm: string } {
  const products = plural(count, 'product');
  if (action.kind === 'status') {
    const label = productStatusLabels[action.status];
    return { title: `Move ${products} to ${label}?`, confirm: `Move ${products}` };
  }
  if (action.kind === 'category')
    return { title: `Move ${products} to the category?`, confirm: `Move ${products}` };
  if (action.kind === 'tags') {
    const verb = action.mode === 'add' ? 'Tag' : 'Untag';
    return { title: `${verb} ${products}?`, confirm: `${verb} ${products}` };
  }
  return { title: `Delete ${products}?`, confirm: `Delete ${products}` };
}

const IN_BACKGROUND =
  'That is more than can change at once: it runs in the background, in batches, and you will be notified with how many changed and how many were left as they were.';

type Dialog =
  | null
  | { kind: 'reject' }
  | { kind: 'category' }
  | { kind: 'tags' }
  | { kind: 'delete'; count: number; asJob: boolean }
  | { kind: 'job'; action: BulkAction; verb: string; count: number };

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
        onSuccess: (answer) => {
          announceAnswer(answer, verb);
          setDialog(null);
          setError(null);
          onClear();
        },
        onError: (failure) => setError(getErrorMessage(failure)),
      },
    );

  /** The exact size of the selection, or null (and a warning) when no bulk action may take it. */
  const measure = async (): Promise<SelectionCount | null> => {
    setCounting(true);
    try {
      const size = await countSelection(selection);
      if (size.overLimit) {
        notify({
          type: 'warning',
          title: `A bulk action takes at most ${plural(BULK_JOB_LIMIT, 'product')}. Narrow the query first.`,
        });
        return null;
      }
      return size;
    } catch {
      return null; // the http client has toasted why
    } finally {
      setCounting(false);
    }
  };

  /**
   * Ticked rows (at most a page) run at once. A query's products are counted first: over BULK_LIMIT
   * the action runs as a task, so the person confirms it with the exact count.
   */
  const perform = async (action: BulkAction, verb: string) => {
    if ('query' in selection) {
      const size = await measure();
      if (!size) return;
      if (size.asJob) {
        setError(null);
        setDialog({ kind: 'job', action, verb, count: size.count });
        return;
      }
    }
    run(action, verb);
  };

  const changeStatus = (status: ProductStatus) => {
    if (status === 'rejected') {
      setReason('');
      setError(null);
      setDialog({ kind: 'reject' });
    } else void perform({ kind: 'status', status }, `moved to ${productStatusLabels[status].toLowerCase()}`);
  };

  const askDelete = async () => {
    const size = await measure();
    if (!size) return;
    setError(null);
    setDialog({ kind: 'delete', count: size.count, asJob: size.asJob });
  };

  const job = dialog?.kind === 'job' ? jobQuestion(dialog.action, dialog.count) : null;

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
              <Button size="sm" variant="outline" loading={bulk.isPending || counting}>
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
          void perform({ kind: 'status', status: 'rejected', reason }, 'rejected');
        }}
        title="Reject products"
        submitLabel="Reject"
        submitPalette="red"
        pending={bulk.isPending || counting}
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
          if (categoryId) void perform({ kind: 'category', categoryId }, 'moved to the category');
          else setError('Choose a category.');
        }}
        title="Assign a category"
        submitLabel="Assign"
        pending={bulk.isPending || counting}
      >
        <Text fontSize="sm" color="fg.muted">
          Values of attributes the new category does not have are removed, as when one product changes
          category.
        </Text>
        <Field.Root required invalid={Boolean(error)}>
          <Field.Label>Category</Field.Label>
          <OptionSelect value={categoryId} blank="Choose…" options={categories} onChange={setCategoryId} />
          <Field.ErrorText>{error}</Field.ErrorText>
        </Field.Root>
      </FormDialog>

      <BulkTagsDialog
        open={dialog?.kind === 'tags'}
        onClose={() => setDialog(null)}
        pending={bulk.isPending || counting}
        error={error}
        source={tagSource}
        what={label}
        onSubmit={(mode, tags) =>
          perform(
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
            ? `${plural(dialog.count, 'product')}, with ${dialog.count === 1 ? 'its' : 'their'} images and history, will be deleted. This cannot be undone.${dialog.asJob ? ` ${IN_BACKGROUND}` : ''}`
            : ''
        }
        confirmLabel={dialog?.kind === 'delete' ? `Delete ${plural(dialog.count, 'product')}` : 'Delete'}
        danger
        pending={bulk.isPending}
        error={error}
        onConfirm={() => run({ kind: 'delete' }, 'deleted')}
        onClose={() => setDialog(null)}
      />

      <ConfirmDialog
        open={dialog?.kind === 'job'}
        title={job?.title ?? ''}
        description={
          dialog?.kind === 'job' ? `${plural(dialog.count, 'product')} match. ${IN_BACKGROUND}` : ''
        }
        confirmLabel={job?.confirm ?? ''}
        pending={bulk.isPending}
        error={error}
        onConfirm={() => {
          if (dialog?.kind === 'job') run(dialog.action, dialog.verb);
        }}
        onClose={() => setDialog(null)}
      />
    </HStack>
  );
}

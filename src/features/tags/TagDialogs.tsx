// The draft's edits, each a dialog that stays open while the server decides and shows its refusal
// (a name taken among the siblings, a move under a descendant, a colleague's change) in place:
// add a tag (as a child or a sibling) and rename it, move it with a searchable picker (the keyboard
// way to do what dragging does), delete it after saying what becomes of its children and products.
import { Button, Field, Input, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useEffect, useState } from 'react';
import { plural } from '../../../contracts/domain/format';
import { TAG_CODE_MAX, TAG_NAME_MAX, type TagNodeWithPath } from '../../../contracts/tags';
import { ApiError, getErrorMessage } from '../../services/http';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';
import { TagPicker, tagPathText } from '../../ui/tag-picker';
import { useCreateTag, useDeleteImpact, useDeleteTag, useMoveTag, useUpdateTag } from './api';

/** The field a server refusal names (`fields.name`), else the form's own message. */
function refusal(error: unknown): { name?: string; code?: string; form?: string } {
  if (!error) return {};
  const data =
    error instanceof ApiError ? (error.data as { fields?: Record<string, string> } | undefined) : undefined;
  const fields = data?.fields ?? {};
  if (fields.name || fields.code) return { name: fields.name, code: fields.code };
  return { form: getErrorMessage(error) };
}

export type TagFormMode =
  | { kind: 'add'; parent: Pick<TagNodeWithPath, 'id' | 'name' | 'pathNames'> | null }
  | { kind: 'edit'; node: TagNodeWithPath };

export function TagFormDialog({
  mode,
  onClose,
  onSaved,
}: {
  mode: TagFormMode;
  onClose: () => void;
  onSaved: (node: TagNodeWithPath) => void;
}) {
  const create = useCreateTag();
  const update = useUpdateTag();
  const editing = mode.kind === 'edit' ? mode.node : null;
  const [name, setName] = useState(editing?.name ?? '');
  const [code, setCode] = useState(editing?.code ?? '');
  const [local, setLocal] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;
  const errors = refusal(create.error ?? update.error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setLocal(null);
    if (!name.trim()) {
      setLocal('Give the tag a name.');
      return;
    }
    try {
      const saved = editing
        ? await update.mutateAsync({
            id: editing.id,
            version: editing.version,
            ...(name.trim() !== editing.name ? { name: name.trim() } : {}),
            ...(code.trim() !== editing.code ? { code: code.trim() } : {}),
          })
        : await create.mutateAsync({
            parentId: mode.kind === 'add' ? (mode.parent?.id ?? null) : null,
            name: name.trim(),
            ...(code.trim() ? { code: code.trim() } : {}),
          });
      onSaved(saved);
    } catch {
      // Shown in the dialog.
    }
  };
  const nothingChanged = editing !== null && name.trim() === editing.name && code.trim() === editing.code;

  return (
    <FormDialog
      open
      onClose={() => !pending && onClose()}
      onSubmit={(event) => {
        if (!nothingChanged) return submit(event);
        event.preventDefault();
        onClose();
      }}
      title={
        editing
          ? `Rename “${editing.name}”`
          : mode.kind === 'add' && mode.parent
            ? `Add a tag under “${mode.parent.name}”`
            : 'Add a top-level tag'
      }
      submitLabel={editing ? 'Save' : 'Add tag'}
      pending={pending}
    >
      {mode.kind === 'add' && mode.parent ? (
        <Text fontSize="sm" color="fg.muted">
          In {tagPathText(mode.parent)}
        </Text>
      ) : null}
      <FormMessage status="error">{local ?? errors.form}</FormMessage>
      <Field.Root required invalid={Boolean(errors.name)}>
        <Field.Label>
          Name <Field.RequiredIndicator />
        </Field.Label>
        <Input
          value={name}
          maxLength={TAG_NAME_MAX}
          autoFocus
          onChange={(event) => setName(event.target.value)}
        />
        <Field.HelperText>Unique among its siblings. A name cannot contain “&gt;”.</Field.HelperText>
        <Field.ErrorText>{errors.name}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={Boolean(errors.code)}>
        <Field.Label>Code</Field.Label>
        <Input
          value={code}
          maxLength={TAG_CODE_MAX}
          placeholder={editing ? undefined : 'Made from the name when empty'}
          onChange={(event) => setCode(event.target.value)}
        />
        <Field.HelperText>
          Lower-case letters and digits joined by hyphens; unique in the tree.
        </Field.HelperText>
        <Field.ErrorText>{errors.code}</Field.ErrorText>
      </Field.Root>
    </FormDialog>
  );
}

/** "Move to…": choose the new parent by typing, or the top level. */
export function MoveTagDialog({
  node,
  onClose,
  onMoved,
}: {
  node: TagNodeWithPath;
  onClose: () => void;
  onMoved: (node: TagNodeWithPath, previousParent: string | null) => void;
}) {
  const move = useMoveTag();
  const to = async (parentId: string | null) => {
    try {
      onMoved(await move.mutateAsync({ id: node.id, version: node.version, parentId }), node.parentId);
    } catch {
      // Shown in the dialog.
    }
  };
  return (
    <FormDialog
      open
      onClose={() => !move.isPending && onClose()}
      onSubmit={(event) => {
        event.preventDefault();
        onClose();
      }}
      title={`Move “${node.name}”`}
      submitLabel="Done"
      pending={move.isPending}
    >
      <Text fontSize="sm" color="fg.muted">
        Now in{' '}
        {node.pathNames.length > 1
          ? tagPathText({ pathNames: node.pathNames.slice(0, -1) })
          : 'the top level'}
        . Its {plural(node.childrenCount, 'child tag', 'child tags')} and everything below them move with it.
      </Text>
      <FormMessage status="error">{move.error ? getErrorMessage(move.error) : null}</FormMessage>
      <TagPicker
        label="New parent"
        autoFocus
        onPick={(tag) => void to(tag.id)}
        exclude={(tag) =>
          tag.id === node.id || tag.ancestorIds.includes(node.id)
            ? 'inside the tag you are moving'
            : tag.id === node.parentId
              ? 'already its parent'
              : null
        }
      />
      {node.parentId ? (
        <Button
          variant="outline"
          size="sm"
          alignSelf="flex-start"
          onClick={() => void to(null)}
          disabled={move.isPending}
        >
          Move to the top level
        </Button>
      ) : null}
    </FormDialog>
  );
}

/** Deleting: what becomes of the children (up a level, or with it) and of the products tagged. */
export function DeleteTagDialog({
  node,
  onClose,
  onDeleted,
}: {
  node: TagNodeWithPath;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const impact = useDeleteImpact(node.id);
  const remove = useDeleteTag();
  const [children, setChildren] = useState<'lift' | 'delete'>('lift');
  const [products, setProducts] = useState<'parent' | 'untag'>(node.parentId ? 'parent' : 'untag');
  useEffect(() => {
    if (!node.parentId) setProducts('untag');
  }, [node.parentId]);
  const figures = impact.data;
  const affected = figures ? (children === 'delete' ? figures.subtreeProducts : figures.products) : 0;
  const parentName = node.pathNames.at(-2);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await remove.mutateAsync({ id: node.id, version: node.version, children, products });
      onDeleted();
    } catch {
      // Shown in the dialog.
    }
  };

  return (
    <FormDialog
      open
      onClose={() => !remove.isPending && onClose()}
      onSubmit={submit}
      title={`Delete “${node.name}”?`}
      submitLabel="Delete tag"
      submitPalette="red"
      pending={remove.isPending || impact.isPending}
    >
      <Text>It leaves the draft now; the storefront keeps it until the next publish.</Text>
      <FormMessage status="error">
        {remove.error ? getErrorMessage(remove.error) : impact.error ? getErrorMessage(impact.error) : null}
      </FormMessage>
      {figures && figures.children > 0 ? (
        <Field.Root>
          <Field.Label>
            Its {plural(figures.children, 'child tag', 'child tags')} ({plural(figures.descendants, 'tag')}{' '}
            below it in all)
          </Field.Label>
          <RadioGroup.Root
            value={children}
            onValueChange={(details) => setChildren(details.value as 'lift' | 'delete')}
          >
            <Stack gap="2">
              <RadioGroup.Item value="lift">
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>
                  Move them up to {parentName ? `“${parentName}”` : 'the top level'}
                </RadioGroup.ItemText>
              </RadioGroup.Item>
              <RadioGroup.Item value="delete">
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>
                  Delete them too ({plural(figures.descendants, 'tag')})
                </RadioGroup.ItemText>
              </RadioGroup.Item>
            </Stack>
          </RadioGroup.Root>
        </Field.Root>
      ) : null}
      {affected > 0 ? (
        <Field.Root>
          <Field.Label>
            {plural(affected, 'product')} carry {children === 'delete' ? 'these tags' : 'this tag'}
          </Field.Label>
          <RadioGroup.Root
            value={products}
            onValueChange={(details) => setProducts(details.value as 'parent' | 'untag')}
          >
            <Stack gap="2">
              {node.parentId ? (
                <RadioGroup.Item value="parent">
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>Tag them “{parentName}” instead</RadioGroup.ItemText>
                </RadioGroup.Item>
              ) : null}
              <RadioGroup.Item value="untag">
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>Remove the tag from them</RadioGroup.ItemText>
              </RadioGroup.Item>
            </Stack>
          </RadioGroup.Root>
        </Field.Root>
      ) : null}
    </FormDialog>
  );
}

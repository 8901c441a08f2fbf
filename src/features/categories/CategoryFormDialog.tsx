import { Field, Input, SimpleGrid, Switch, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import {
  type Category,
  categoryBodySchema,
  MAX_SLUG_LENGTH,
  MAX_SORT_ORDER,
  slugify,
} from '../../../contracts/categories';
import { getErrorMessage } from '../../services/http';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage, fieldErrors } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { type Level, useSaveCategory } from './api';

interface Draft {
  name: string;
  slug: string;
  description: string;
  sortOrder: string;
  isActive: boolean;
}

const fields = ['name', 'slug', 'description', 'sortOrder', 'isActive'] as const;

const draftOf = (category: Category | null): Draft => ({
  name: category?.name ?? '',
  slug: category?.slug ?? '',
  description: category?.description ?? '',
  sortOrder: String(category?.sortOrder ?? 0),
  isActive: category?.isActive ?? true,
});

/**
 * Create or edit a category or subcategory. A new one's slug follows the name until the user types
 * their own; an existing slug stays put when the name changes (links to it keep working).
 */
export function CategoryFormDialog({
  level,
  category,
  open,
  onClose,
}: {
  level: Level;
  /** null: create a new one. */
  category: Category | null;
  open: boolean;
  onClose: () => void;
}) {
  const save = useSaveCategory(level);
  const [draft, setDraft] = useState(() => draftOf(category));
  const [slugTouched, setSlugTouched] = useState(category !== null);
  const [errors, setErrors] = useState<Partial<Record<(typeof fields)[number], string>>>({});
  const noun = level.kind === 'category' ? 'category' : 'subcategory';

  const close = () => {
    if (save.isPending) return;
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = categoryBodySchema.safeParse({
      ...draft,
      // The field holds text; the API takes a number (text that is not one fails validation here).
      sortOrder: draft.sortOrder.trim() === '' ? 0 : Number(draft.sortOrder),
    });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues, fields));
      return;
    }
    setErrors({});
    save.mutate(
      { id: category?.id, body: parsed.data },
      {
        onSuccess: (saved) => {
          notify({
            type: 'success',
            title: category ? `Saved ${saved.name}` : `Created ${saved.name}`,
          });
          onClose();
        },
      },
    );
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      onSubmit={submit}
      title={category ? `Edit ${category.name}` : `New ${noun}`}
      label={category ? `Edit ${noun}` : `New ${noun}`}
      submitLabel={category ? 'Save' : `Create ${noun}`}
      pending={save.isPending}
    >
      <FormMessage status="error">{save.isError ? getErrorMessage(save.error) : null}</FormMessage>
      <Field.Root invalid={!!errors.name} required>
        <Field.Label>
          Name <Field.RequiredIndicator />
        </Field.Label>
        <Input
          name="name"
          maxLength={100}
          value={draft.name}
          onChange={(e) => {
            const name = e.target.value;
            setDraft((d) => ({ ...d, name, slug: slugTouched ? d.slug : slugify(name) }));
          }}
        />
        <Field.ErrorText>{errors.name}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={!!errors.slug}>
        <Field.Label>Slug</Field.Label>
        <Input
          name="slug"
          maxLength={MAX_SLUG_LENGTH}
          value={draft.slug}
          onChange={(e) => {
            const slug = e.target.value;
            // Emptying the field hands the slug back to the name.
            setSlugTouched(slug !== '');
            setDraft((d) => ({ ...d, slug }));
          }}
        />
        <Field.HelperText>
          Used in the storefront's addresses: lower-case letters and digits joined by hyphens. Leave it empty
          to make one from the name.
        </Field.HelperText>
        <Field.ErrorText>{errors.slug}</Field.ErrorText>
      </Field.Root>
      <Field.Root invalid={!!errors.description}>
        <Field.Label>Description</Field.Label>
        <Textarea
          name="description"
          rows={3}
          maxLength={1000}
          value={draft.description}
          onChange={(e) => setDraft((d) => ({ ...d, description: e.target.value }))}
        />
        <Field.ErrorText>{errors.description}</Field.ErrorText>
      </Field.Root>
      <SimpleGrid columns={2} gap="4" alignItems="end">
        <Field.Root invalid={!!errors.sortOrder}>
          <Field.Label>Sort order</Field.Label>
          <Input
            name="sortOrder"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_SORT_ORDER}
            step={1}
            value={draft.sortOrder}
            onChange={(e) => setDraft((d) => ({ ...d, sortOrder: e.target.value }))}
          />
          <Field.HelperText>Lower numbers come first.</Field.HelperText>
          <Field.ErrorText>{errors.sortOrder}</Field.ErrorText>
        </Field.Root>
        <Switch.Root
          colorPalette="brand"
          checked={draft.isActive}
          onCheckedChange={(e) => setDraft((d) => ({ ...d, isActive: e.checked }))}
          mb="6"
        >
          <Switch.HiddenInput />
          <Switch.Control />
          <Switch.Label>Active</Switch.Label>
        </Switch.Root>
      </SimpleGrid>
    </FormDialog>
  );
}

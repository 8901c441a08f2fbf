// The two forms of the views menu: "Save as…" (a new view of what the list shows) and "Rename…" (name
// and sharing of one's own view). Both check the name as the server does and show its refusals — a
// taken name beside the name, anything else above the form.
import { Checkbox, Field, Input, NativeSelect } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import {
  createViewBodySchema,
  type SavedView,
  type ViewList,
  type ViewScope,
  type ViewState,
  viewScopeLabels,
  viewScopes,
} from '../../../contracts/saved-views';
import { ApiError, getErrorMessage } from '../../services/api-error';
import { useCreateView, useUpdateView } from '../../services/saved-views';
import { FormDialog } from '../form-dialog';
import { FormMessage } from '../form-parts';

const nameSchema = createViewBodySchema.shape.name;

/** The server's message for one field of the form, when it named one. */
function serverFieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const fields = (error.data as { fields?: Record<string, string> } | undefined)?.fields;
  return fields?.[field];
}

/** Whatever the server refused that is not shown beside a field. */
function formError(error: unknown, fields: readonly string[]): string | null {
  if (!error) return null;
  return fields.some((field) => serverFieldError(error, field)) ? null : getErrorMessage(error);
}

function NameField({ value, onChange, error }: { value: string; onChange(v: string): void; error?: string }) {
  return (
    <Field.Root invalid={!!error} required>
      <Field.Label>
        Name <Field.RequiredIndicator />
      </Field.Label>
      <Input name="name" maxLength={60} value={value} autoFocus onChange={(e) => onChange(e.target.value)} />
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/**
 * Who sees the view. "Everyone" is offered to those who may publish the list; a view already shared
 * with everyone keeps the choice visible (disabled) for those who may not, so the form shows the truth.
 */
function ScopeField({
  value,
  onChange,
  canPublish,
  error,
}: {
  value: ViewScope;
  onChange(scope: ViewScope): void;
  canPublish: boolean;
  error?: string;
}) {
  const scopes = viewScopes.filter((scope) => scope !== 'everyone' || canPublish || value === 'everyone');
  return (
    <Field.Root invalid={!!error}>
      <Field.Label>Who sees it</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field
          name="scope"
          value={value}
          onChange={(e) => onChange(e.target.value as ViewScope)}
        >
          {scopes.map((scope) => (
            <option key={scope} value={scope} disabled={scope === 'everyone' && !canPublish}>
              {viewScopeLabels[scope]}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Field.HelperText>
        {value === 'team' ? 'Your team sees it and can save a copy; only you can change it.' : null}
        {value === 'everyone' ? 'Everyone who sees this list can load it; only you can change it.' : null}
      </Field.HelperText>
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** Saves what the list shows as a new view of the user; the new view is loaded (`onSaved`). */
export function SaveViewAsDialog({
  list,
  state,
  initialName,
  canPublish,
  onSaved,
  onClose,
}: {
  list: ViewList;
  state: ViewState;
  initialName: string;
  canPublish: boolean;
  onSaved(view: SavedView): void;
  onClose(): void;
}) {
  const create = useCreateView(list);
  const [name, setName] = useState(initialName);
  const [scope, setScope] = useState<ViewScope>('private');
  const [makeDefault, setMakeDefault] = useState(false);
  const [nameError, setNameError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = nameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message);
      return;
    }
    setNameError(undefined);
    create.mutate({ name: parsed.data, scope, state, makeDefault }, { onSuccess: onSaved });
  };

  return (
    <FormDialog
      open
      onClose={() => !create.isPending && onClose()}
      onSubmit={submit}
      title="Save view as"
      submitLabel="Save view"
      pending={create.isPending}
    >
      <FormMessage status="error">{formError(create.error, ['name', 'scope'])}</FormMessage>
      <NameField
        value={name}
        onChange={setName}
        error={nameError ?? serverFieldError(create.error, 'name')}
      />
      <ScopeField
        value={scope}
        onChange={setScope}
        canPublish={canPublish}
        error={serverFieldError(create.error, 'scope')}
      />
      <Checkbox.Root checked={makeDefault} onCheckedChange={(e) => setMakeDefault(e.checked === true)}>
        <Checkbox.HiddenInput name="makeDefault" />
        <Checkbox.Control />
        <Checkbox.Label>Open this list with it (my default view)</Checkbox.Label>
      </Checkbox.Root>
    </FormDialog>
  );
}

/** Renames one's own view and changes who sees it; its state is left as saved. */
export function EditViewDialog({
  view,
  list,
  canPublish,
  onClose,
}: {
  view: SavedView;
  list: ViewList;
  canPublish: boolean;
  onClose(): void;
}) {
  const update = useUpdateView(list);
  const [name, setName] = useState(view.name);
  const [scope, setScope] = useState<ViewScope>(view.scope);
  const [nameError, setNameError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = nameSchema.safeParse(name);
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message);
      return;
    }
    setNameError(undefined);
    update.mutate({ id: view.id, body: { name: parsed.data, scope } }, { onSuccess: onClose });
  };

  return (
    <FormDialog
      open
      onClose={() => !update.isPending && onClose()}
      onSubmit={submit}
      title={`Rename ${view.name}`}
      label="Rename view"
      submitLabel="Save"
      pending={update.isPending}
    >
      <FormMessage status="error">{formError(update.error, ['name', 'scope'])}</FormMessage>
      <NameField
        value={name}
        onChange={setName}
        error={nameError ?? serverFieldError(update.error, 'name')}
      />
      <ScopeField
        value={scope}
        onChange={setScope}
        canPublish={canPublish}
        error={serverFieldError(update.error, 'scope')}
      />
    </FormDialog>
  );
}

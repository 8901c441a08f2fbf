// The one form of every settings section: it loads the section's field states, keeps a draft of the
// fields changed, saves them with the version it read (a stale save is refused, and the page says who
// saved in between), resets a field to what it inherits, and shows each field's source: a seller's
// page labels every value "Inherited" or "Overridden" beside the marketplace's value.
import { Badge, Box, Button, Field, HStack, Stack, Text } from '@chakra-ui/react';
import { RotateCcw } from 'lucide-react';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { formatDateTime } from '../../../contracts/domain/format';
import type { FieldState, SectionState, StoredSection } from '../../../contracts/settings';
import { ApiError, getErrorMessage } from '../../services/http';
import { notify } from '../../ui/notify';
import { useSaveSection, useSectionState } from './api';

export interface SectionForm {
  section: StoredSection;
  state: SectionState | undefined;
  /** Whether the section shows this field to this user (a seller sees only the fields they may override). */
  has(field: string): boolean;
  field(field: string): FieldState | undefined;
  /** The draft's value, else the saved one. */
  value<T = unknown>(field: string): T;
  setValue(field: string, value: unknown): void;
  errors: Record<string, string>;
  dirty: boolean;
  saving: boolean;
  isSeller: boolean;
  save(): Promise<boolean>;
  /** Resets one field at once: a seller's to inherited, the marketplace's to the default. */
  reset(field: string): Promise<boolean>;
  discard(): void;
}

const SectionFormContext = createContext<SectionForm | null>(null);

export function useSectionForm(
  section: StoredSection,
): SectionForm & { query: ReturnType<typeof useSectionState> } {
  const query = useSectionState(section);
  const mutation = useSaveSection(section);
  const [draft, setDraft] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const state = query.data;

  const submit = useCallback(
    async (set: Record<string, unknown>, reset: string[]) => {
      if (!state) return false;
      try {
        await mutation.mutateAsync({ version: state.version, set, reset });
        setErrors({});
        return true;
      } catch (error) {
        const fields =
          error instanceof ApiError ? (error.data as { fields?: Record<string, string> })?.fields : undefined;
        setErrors(fields ?? {});
        notify({
          type: 'error',
          title: error instanceof ApiError && error.status === 409 ? 'Someone else saved first' : 'Not saved',
          description: getErrorMessage(error),
        });
        return false;
      }
    },
    [state, mutation],
  );

  const form = useMemo(
    () => ({
      section,
      state,
      query,
      has: (field: string) => Boolean(state && Object.hasOwn(state.fields, field)),
      field: (field: string) => state?.fields[field],
      value: <T,>(field: string): T =>
        (Object.hasOwn(draft, field) ? draft[field] : state?.fields[field]?.value) as T,
      setValue: (field: string, value: unknown) => setDraft((current) => ({ ...current, [field]: value })),
      errors,
      dirty: Object.keys(draft).length > 0,
      saving: mutation.isPending,
      isSeller: state?.scope.type === 'seller',
      save: async () => {
        const saved = await submit(draft, []);
        if (saved) {
          setDraft({});
          notify({ type: 'success', title: 'Settings saved' });
        }
        return saved;
      },
      reset: async (field: string) => {
        const saved = await submit({}, [field]);
        if (saved) {
          setDraft(({ [field]: _dropped, ...rest }) => rest);
          notify({
            type: 'success',
            title: state?.scope.type === 'seller' ? 'Back to the marketplace value' : 'Back to the default',
          });
        }
        return saved;
      },
      discard: () => {
        setDraft({});
        setErrors({});
        void query.refetch();
      },
    }),
    [section, state, query, draft, errors, mutation.isPending, submit],
  );
  return form;
}

export function SectionFormProvider({ form, children }: { form: SectionForm; children: ReactNode }) {
  return <SectionFormContext.Provider value={form}>{children}</SectionFormContext.Provider>;
}

export function useSectionFormContext(): SectionForm {
  const form = useContext(SectionFormContext);
  if (!form) throw new Error('useSectionFormContext outside a SectionFormProvider');
  return form;
}

/** A short reading of a value, for "Marketplace: …" beside an override. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value))
    return value.length === 0 ? '(none)' : `${value.length} item${value.length === 1 ? '' : 's'}`;
  return 'set';
}

export interface FieldControl {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  disabled: boolean;
  invalid: boolean;
}

/**
 * One setting: its label, the control, its source and the reset. Renders nothing when this user's
 * section does not have the field (sellers see only what they may override).
 */
export function SettingField({
  field,
  label,
  helperText,
  children,
}: {
  field: string;
  label: string;
  helperText?: ReactNode;
  children: (control: FieldControl) => ReactNode;
}) {
  const form = useSectionFormContext();
  const state = form.field(field);
  if (!state) return null;
  const id = `setting-${form.section}-${field}`;
  const error = form.errors[field];
  const disabled = !state.editable || Boolean(state.fromEnvironment) || form.saving;
  const canReset =
    state.editable &&
    !state.fromEnvironment &&
    (form.isSeller ? state.source === 'overridden' : state.source === 'marketplace');
  return (
    <Field.Root invalid={Boolean(error)} disabled={disabled} id={id}>
      <HStack justify="space-between" w="full" gap="2" wrap="wrap">
        <HStack gap="2">
          <Field.Label>{label}</Field.Label>
          <SourceBadge state={state} isSeller={form.isSeller} />
        </HStack>
        {canReset ? (
          <Button
            size="2xs"
            variant="ghost"
            onClick={() => void form.reset(field)}
            aria-label={`${form.isSeller ? 'Reset to inherited' : 'Reset to default'}: ${label}`}
          >
            <RotateCcw /> {form.isSeller ? 'Reset to inherited' : 'Reset to default'}
          </Button>
        ) : null}
      </HStack>
      <Box w="full">
        {children({
          id,
          value: form.value(field),
          onChange: (value) => form.setValue(field, value),
          disabled,
          invalid: Boolean(error),
        })}
      </Box>
      {form.isSeller && state.source === 'overridden' ? (
        <Field.HelperText>Marketplace: {describeValue(state.inherited)}</Field.HelperText>
      ) : null}
      {state.fromEnvironment ? <Field.HelperText>Set in the server's environment.</Field.HelperText> : null}
      {helperText ? <Field.HelperText>{helperText}</Field.HelperText> : null}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

function SourceBadge({ state, isSeller }: { state: FieldState; isSeller: boolean }) {
  if (isSeller) {
    return state.source === 'overridden' ? (
      <Badge colorPalette="purple" size="sm">
        Overridden
      </Badge>
    ) : (
      <Badge colorPalette="gray" size="sm">
        Inherited
      </Badge>
    );
  }
  return state.source === 'default' ? (
    <Badge colorPalette="gray" size="sm" variant="outline">
      Default
    </Badge>
  ) : null;
}

/** The section's Save and Discard, and who saved last. */
export function SectionActions() {
  const form = useSectionFormContext();
  const editable = Object.values(form.state?.fields ?? {}).some((field) => field.editable);
  return (
    <Stack gap="2" pt="2">
      {form.state?.updatedBy ? (
        <Text fontSize="sm" color="fg.muted">
          Last saved by {form.state.updatedBy}
          {form.state.updatedAt ? `, ${formatDateTime(form.state.updatedAt)}` : ''}
        </Text>
      ) : null}
      {editable ? (
        <HStack>
          <Button
            colorPalette="brand"
            onClick={() => void form.save()}
            disabled={!form.dirty}
            loading={form.saving}
          >
            Save changes
          </Button>
          <Button variant="outline" onClick={form.discard} disabled={!form.dirty || form.saving}>
            Discard
          </Button>
        </HStack>
      ) : null}
    </Stack>
  );
}

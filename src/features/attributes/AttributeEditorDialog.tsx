import { Field, Input, NativeSelect, SimpleGrid, Switch } from '@chakra-ui/react';
import { type FormEvent, useId, useState } from 'react';
import type { AttributeDetail } from '../../../contracts/attribute-admin';
import {
  type AttributeDataType,
  type AttributeType,
  attributeDataTypeLabels,
  attributeDataTypes,
  multiValueDataTypes,
  unitDataTypes,
} from '../../../contracts/catalog';
import { getErrorMessage } from '../../services/http';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { recomputeNote, serverFieldErrors, useAttributeGroups, useSaveAttribute } from './api';
import {
  type AttributeDraft,
  draftOf,
  type FormErrors,
  lockedFields,
  validate,
  withDataType,
} from './attribute-form';
import { OptionsEditor } from './OptionsEditor';

/** The form's own fields: a refusal naming one of them shows beside it, anything else above the form. */
const FORM_FIELDS = ['code', 'label', 'dataType', 'attributeType', 'unit', 'groupName', 'options'];
const shownInForm = (key: string) => FORM_FIELDS.includes(key) || key.startsWith('options.');

/**
 * Creates an attribute (`attribute` null) or edits one. The fields follow the data type; the code and the
 * data type are fixed once products hold values (the detail says so and the server would refuse).
 */
export function AttributeEditorDialog({
  attribute,
  open,
  onClose,
}: {
  attribute: AttributeDetail | null;
  open: boolean;
  onClose: () => void;
}) {
  const save = useSaveAttribute();
  const groups = useAttributeGroups();
  const groupListId = useId();
  const [draft, setDraft] = useState<AttributeDraft>(() => draftOf(attribute));
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const locked = lockedFields(attribute);
  const canHoldSeveral = multiValueDataTypes.has(draft.dataType);

  const set = (patch: Partial<AttributeDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const close = () => {
    if (save.isPending) return;
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validate(draft, attribute);
    if (checked.errors) {
      setErrors(checked.errors);
      setFormError(null);
      return;
    }
    setErrors({});
    setFormError(null);
    save.mutate(checked.input, {
      onSuccess: (saved) => {
        notify({
          type: 'success',
          title: attribute ? `Saved ${saved.label}` : `Created ${saved.label}`,
          description: recomputeNote(saved),
        });
        onClose();
      },
      onError: (error) => {
        const fields = serverFieldErrors(error);
        const onFields = Object.fromEntries(Object.entries(fields).filter(([key]) => shownInForm(key)));
        setErrors(onFields);
        setFormError(Object.keys(onFields).length ? null : getErrorMessage(error));
      },
    });
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      onSubmit={submit}
      title={attribute ? `Edit ${attribute.label}` : 'New attribute'}
      submitLabel={attribute ? 'Save' : 'Create attribute'}
      pending={save.isPending}
      size="lg"
      scrollBehavior="inside"
    >
      <FormMessage status="error">{formError}</FormMessage>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
        <Field.Root invalid={!!errors.label} required>
          <Field.Label>
            Label <Field.RequiredIndicator />
          </Field.Label>
          <Input
            name="label"
            maxLength={100}
            value={draft.label}
            onChange={(event) => set({ label: event.target.value })}
          />
          <Field.ErrorText>{errors.label}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!errors.code} required disabled={!!locked.code}>
          <Field.Label>
            Code <Field.RequiredIndicator />
          </Field.Label>
          <Input
            name="code"
            fontFamily="mono"
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            value={draft.code}
            onChange={(event) => set({ code: event.target.value })}
          />
          {errors.code ? null : (
            <Field.HelperText>
              {locked.code ?? 'Lower-case letters, digits and _. Imports and saved views name it.'}
            </Field.HelperText>
          )}
          <Field.ErrorText>{errors.code}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!errors.dataType} disabled={!!locked.dataType}>
          <Field.Label>Data type</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="dataType"
              value={draft.dataType}
              onChange={(event) =>
                setDraft((current) => withDataType(current, event.target.value as AttributeDataType))
              }
            >
              {attributeDataTypes.map((type) => (
                <option key={type} value={type}>
                  {attributeDataTypeLabels[type]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {locked.dataType && !errors.dataType ? (
            <Field.HelperText>{locked.dataType}</Field.HelperText>
          ) : null}
          <Field.ErrorText>{errors.dataType}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!errors.attributeType} disabled={!!locked.dataType || !canHoldSeveral}>
          <Field.Label>Values per product</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="attributeType"
              value={draft.attributeType}
              onChange={(event) => set({ attributeType: event.target.value as AttributeType })}
            >
              <option value="SINGLE">One value</option>
              <option value="MULTI">Several values</option>
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {canHoldSeveral || errors.attributeType ? null : (
            <Field.HelperText>This data type holds one value.</Field.HelperText>
          )}
          <Field.ErrorText>{errors.attributeType}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!errors.groupName}>
          <Field.Label>Group</Field.Label>
          <Input
            name="groupName"
            maxLength={60}
            list={groupListId}
            value={draft.groupName}
            onChange={(event) => set({ groupName: event.target.value })}
          />
          <datalist id={groupListId}>
            {(groups.data ?? []).map((group) => (
              <option key={group} value={group} />
            ))}
          </datalist>
          <Field.HelperText>The heading product forms show it under.</Field.HelperText>
          <Field.ErrorText>{errors.groupName}</Field.ErrorText>
        </Field.Root>
        {unitDataTypes.has(draft.dataType) ? (
          <Field.Root invalid={!!errors.unit}>
            <Field.Label>Unit</Field.Label>
            <Input
              name="unit"
              maxLength={20}
              placeholder="cm, g, W, mAh…"
              value={draft.unit}
              onChange={(event) => set({ unit: event.target.value })}
            />
            <Field.ErrorText>{errors.unit}</Field.ErrorText>
          </Field.Root>
        ) : null}
      </SimpleGrid>
      <Switch.Root
        colorPalette="brand"
        checked={draft.isRequired}
        onCheckedChange={(event) => set({ isRequired: event.checked })}
      >
        <Switch.HiddenInput name="isRequired" />
        <Switch.Control />
        <Switch.Label>Required: a product is complete only with a value</Switch.Label>
      </Switch.Root>
      {draft.dataType === 'ENUMERATED' ? (
        <OptionsEditor options={draft.options} onChange={(options) => set({ options })} errors={errors} />
      ) : null}
    </FormDialog>
  );
}

import { Checkbox, Field, Input, NativeSelect, SimpleGrid } from '@chakra-ui/react';
import { type FormEvent, useEffect, useState } from 'react';
import type { Contact } from '../../../contracts/contacts';
import {
  type TemplateLanguage,
  templateLanguageLabels,
  templateLanguages,
} from '../../../contracts/marketing';
import { ApiError, getErrorMessage } from '../../services/http';
import { FormDialog } from '../../ui/form-dialog';
import { FormMessage } from '../../ui/form-parts';
import { OptionSelect } from '../../ui/option-select';
import { useCompanyTypes, useContactFields, useSaveContact } from './api';
import {
  type ContactFormErrors,
  type ContactFormValues,
  checkContactForm,
  contactFormOf,
  emptyContactForm,
} from './contact-form';

function TextInput({
  label,
  name,
  value,
  error,
  onChange,
  type = 'text',
  required = false,
}: {
  label: string;
  name: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'tel';
  required?: boolean;
}) {
  return (
    <Field.Root invalid={Boolean(error)} required={required}>
      <Field.Label>
        {label} {required ? <Field.RequiredIndicator /> : null}
      </Field.Label>
      <Input name={name} type={type} value={value} onChange={(event) => onChange(event.target.value)} />
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** A select with a blank first choice ("None", "Not known") and the field's error under it. */
function SelectInput({
  label,
  name,
  value,
  blank,
  options,
  error,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  blank: string;
  options: readonly { value: string; label: string }[];
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      <OptionSelect name={name} value={value} blank={blank} options={options} onChange={onChange} />
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** Add a contact, or edit one at the version that was read (a stale edit says who changed it). */
export function ContactDialog({
  open,
  contact,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** Null: a new contact. */
  contact: Contact | null;
  onClose: () => void;
  onSaved: (contact: Contact) => void;
}) {
  const [values, setValues] = useState<ContactFormValues>(emptyContactForm);
  const [errors, setErrors] = useState<ContactFormErrors>({});
  const save = useSaveContact();
  const types = useCompanyTypes();
  const fields = useContactFields(open);
  const countries = fields.data?.find((field) => field.key === 'country')?.options ?? [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: the form starts afresh each time it opens
  useEffect(() => {
    if (!open) return;
    setValues(contact ? contactFormOf(contact) : emptyContactForm);
    setErrors({});
    save.reset();
  }, [open, contact]);

  const set =
    <K extends keyof ContactFormValues>(key: K) =>
    (value: ContactFormValues[K]) =>
      setValues((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkContactForm(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    save.mutate(contact ? { ...checked.body, id: contact.id, version: contact.version } : checked.body, {
      onSuccess: onSaved,
      onError: (error) => {
        // A refusal about one field (a taken address, a type deleted meanwhile) shows beside it too.
        const fields =
          error instanceof ApiError ? (error.data as { fields?: ContactFormErrors })?.fields : null;
        if (fields) setErrors(fields);
      },
    });
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      onSubmit={submit}
      title={contact ? `Edit ${contact.email}` : 'Add a contact'}
      submitLabel={contact ? 'Save' : 'Add contact'}
      pending={save.isPending}
      size="lg"
      scrollBehavior="inside"
    >
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
        <TextInput
          label="First name"
          name="firstName"
          value={values.firstName}
          error={errors.firstName}
          onChange={set('firstName')}
        />
        <TextInput
          label="Last name"
          name="lastName"
          value={values.lastName}
          error={errors.lastName}
          onChange={set('lastName')}
        />
        <TextInput
          label="E-mail"
          name="email"
          type="email"
          required
          value={values.email}
          error={errors.email}
          onChange={set('email')}
        />
        <TextInput
          label="Phone"
          name="phone"
          type="tel"
          value={values.phone}
          error={errors.phone}
          onChange={set('phone')}
        />
        <TextInput
          label="Company"
          name="company"
          value={values.company}
          error={errors.company}
          onChange={set('company')}
        />
        <SelectInput
          label="Company type"
          name="companyTypeId"
          value={values.companyTypeId}
          blank="None"
          options={(types.data ?? []).map((type) => ({ value: type.id, label: type.name }))}
          error={errors.companyTypeId}
          onChange={set('companyTypeId')}
        />
        <SelectInput
          label="Country"
          name="country"
          value={values.country}
          blank="Not known"
          options={countries.map((country) => ({ value: String(country.value), label: country.label }))}
          error={errors.country}
          onChange={set('country')}
        />
        <Field.Root invalid={Boolean(errors.language)}>
          <Field.Label>Language</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="language"
              value={values.language}
              onChange={(event) => set('language')(event.target.value as TemplateLanguage)}
            >
              {templateLanguages.map((code) => (
                <option key={code} value={code}>
                  {templateLanguageLabels[code]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.HelperText>Picks the template version the contact is mailed in.</Field.HelperText>
        </Field.Root>
      </SimpleGrid>
      <Field.Root invalid={Boolean(errors.tags)}>
        <Field.Label>Tags</Field.Label>
        <Input
          name="tags"
          value={values.tags}
          onChange={(event) => set('tags')(event.target.value)}
          placeholder="vip, expo-2026"
        />
        <Field.HelperText>Separated by commas; at most 20, each up to 40 characters.</Field.HelperText>
        <Field.ErrorText>{errors.tags}</Field.ErrorText>
      </Field.Root>
      <Checkbox.Root
        checked={values.consent}
        onCheckedChange={(event) => set('consent')(event.checked === true)}
      >
        <Checkbox.HiddenInput name="consent" />
        <Checkbox.Control />
        <Checkbox.Label>The person agreed to receive marketing mail</Checkbox.Label>
      </Checkbox.Root>
      <FormMessage status="error">{save.isError ? getErrorMessage(save.error) : null}</FormMessage>
    </FormDialog>
  );
}

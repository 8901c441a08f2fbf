// What every "New …" dialog shares: the form's state and its field errors (the client's zod check, or
// the server's `fields` after a refusal), closing clears it, and a created record closes the dialog
// and opens the record. Plus the customer's name, e-mail and phone, asked alike by every such dialog.
import { Field, Input } from '@chakra-ui/react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../services/api-error';

export function useCreateForm<Form, FieldName extends string, Body, Created extends { id: string }>({
  empty,
  create,
  onClose,
  onCreated,
}: {
  empty: Form;
  create: UseMutationResult<Created, unknown, Body>;
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const [form, setForm] = useState<Form>(empty);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const set = (patch: Partial<Form>) => setForm((current) => ({ ...current, ...patch }));
  const close = () => {
    setForm(empty);
    setErrors({});
    create.reset();
    onClose();
  };
  /** Sends a checked body: created, the dialog closes and the record opens; refused, its field errors show. */
  const send = (body: Body) => {
    setErrors({});
    create.mutate(body, {
      onSuccess: (created) => {
        close();
        onCreated(created.id);
      },
      onError: (error) => {
        const fields =
          error instanceof ApiError
            ? (error.data as { fields?: Partial<Record<FieldName, string>> } | undefined)?.fields
            : null;
        if (fields) setErrors(fields);
      },
    });
  };
  return { form, set, errors, setErrors, close, send };
}

export interface CustomerContact {
  customerName: string;
  email: string;
  phone: string;
}

/** The customer's name and e-mail (required) and phone (optional), each with its error. */
export function CustomerContactFields({
  value,
  errors,
  onChange,
}: {
  value: CustomerContact;
  errors: Partial<Record<keyof CustomerContact, string>>;
  onChange: (patch: Partial<CustomerContact>) => void;
}) {
  const field = (name: keyof CustomerContact, label: string, type: string, required: boolean) => (
    <Field.Root invalid={Boolean(errors[name])} required={required}>
      <Field.Label>
        {label} {required ? <Field.RequiredIndicator /> : null}
      </Field.Label>
      <Input
        name={name}
        type={type}
        value={value[name]}
        onChange={(event) => onChange({ [name]: event.target.value })}
      />
      <Field.ErrorText>{errors[name]}</Field.ErrorText>
    </Field.Root>
  );
  return (
    <>
      {field('customerName', 'Customer name', 'text', true)}
      {field('email', 'E-mail', 'email', true)}
      {field('phone', 'Phone', 'tel', false)}
    </>
  );
}

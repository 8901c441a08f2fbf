import { Alert, Field, Input, Textarea } from '@chakra-ui/react';
import { getErrorMessage } from '../services/api-error';
import type { SubmissionState } from './use-submission';

/**
 * The server's answer above a form: an error (role alert), a success or a notice (role status).
 * Nothing when empty.
 */
export function FormMessage({
  status,
  children,
}: {
  status: 'error' | 'success' | 'info';
  children: string | null | undefined;
}) {
  if (!children) return null;
  return (
    <Alert.Root status={status} role={status === 'error' ? 'alert' : 'status'}>
      <Alert.Indicator />
      <Alert.Title>{children}</Alert.Title>
    </Alert.Root>
  );
}

interface TextFieldProps {
  label: string;
  name: string;
  type: 'email' | 'password' | 'text';
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoFocus?: boolean;
}

/** A required labelled input with its validation message, as every public form uses it. */
export function TextField({ label, error, onChange, ...input }: TextFieldProps) {
  return (
    <Field.Root invalid={!!error} required>
      <Field.Label>{label}</Field.Label>
      <Input {...input} onChange={(e) => onChange(e.target.value)} />
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

interface TextAreaFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  helperText?: string;
  error?: string;
}

/** An optional multi-line field with a length limit. */
export function TextAreaField({ label, helperText, error, onChange, ...textarea }: TextAreaFieldProps) {
  return (
    <Field.Root invalid={!!error}>
      <Field.Label>{label}</Field.Label>
      <Textarea {...textarea} rows={4} onChange={(e) => onChange(e.target.value)} />
      {helperText ? <Field.HelperText>{helperText}</Field.HelperText> : null}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** The failure of a submission above its form, worded for the user; nothing otherwise. */
export function SubmissionError({ state }: { state: SubmissionState<unknown> }) {
  return state.status === 'error' ? (
    <FormMessage status="error">{getErrorMessage(state.error)}</FormMessage>
  ) : null;
}

/** The first validation message of each form field (zod issues), for the fields the form shows. */
export function fieldErrors<F extends string>(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  fields: readonly F[],
): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (fields.includes(field as F)) errors[field as F] ??= issue.message;
  }
  return errors;
}

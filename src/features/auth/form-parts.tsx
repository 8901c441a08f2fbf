import { Alert, Field, Input } from '@chakra-ui/react';

/** The server's answer above a form: an error (role alert) or a success (role status). Nothing when empty. */
export function FormMessage({
  status,
  children,
}: {
  status: 'error' | 'success';
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
  type: 'email' | 'password';
  autoComplete: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoFocus?: boolean;
}

/** A required labelled input with its validation message, as every signed-out form uses it. */
export function TextField({ label, error, onChange, ...input }: TextFieldProps) {
  return (
    <Field.Root invalid={!!error} required>
      <Field.Label>{label}</Field.Label>
      <Input {...input} onChange={(e) => onChange(e.target.value)} />
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

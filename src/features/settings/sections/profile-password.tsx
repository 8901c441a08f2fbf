// Changing your own password: the current one, the new one twice. The new one follows the reset page's
// rules (contracts/auth.ts); your other sessions are signed out, this one stays.
import { Button, Field, Heading, Input, Stack } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { newPasswordSchema } from '../../../../contracts/auth';
import { getErrorMessage } from '../../../services/http';
import { FormMessage } from '../../../ui/form-parts';
import { useChangePassword } from './profile-api';

type Fields = 'currentPassword' | 'newPassword' | 'confirm';

export function ProfilePassword({ userId }: { userId: string }) {
  const change = useChangePassword(userId);
  const [values, setValues] = useState<Record<Fields, string>>({
    currentPassword: '',
    newPassword: '',
    confirm: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [done, setDone] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const next: Partial<Record<Fields, string>> = {};
    if (!values.currentPassword) next.currentPassword = 'Enter your current password';
    const checked = newPasswordSchema.safeParse(values.newPassword);
    if (!checked.success) next.newPassword = checked.error.issues[0]?.message;
    if (values.confirm !== values.newPassword) next.confirm = 'The two new passwords differ';
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      {
        onSuccess: ({ message }) => {
          setValues({ currentPassword: '', newPassword: '', confirm: '' });
          setDone(message);
        },
      },
    );
  };

  const field = (name: Fields, label: string, autoComplete: string) => (
    <Field.Root invalid={!!errors[name]} required>
      <Field.Label>{label}</Field.Label>
      <Input
        type="password"
        name={name}
        autoComplete={autoComplete}
        value={values[name]}
        onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
      />
      <Field.ErrorText>{errors[name]}</Field.ErrorText>
    </Field.Root>
  );

  return (
    <Stack as="form" gap="4" onSubmit={submit} aria-labelledby="profile-password-heading">
      <Heading as="h3" size="md" id="profile-password-heading">
        Password
      </Heading>
      {field('currentPassword', 'Current password', 'current-password')}
      {field('newPassword', 'New password', 'new-password')}
      {field('confirm', 'Repeat the new password', 'new-password')}
      <FormMessage status="error">{change.isError ? getErrorMessage(change.error) : null}</FormMessage>
      <FormMessage status="success">{done}</FormMessage>
      <Button type="submit" alignSelf="start" loading={change.isPending} loadingText="Changing">
        Change password
      </Button>
    </Stack>
  );
}

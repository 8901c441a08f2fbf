import { Alert, Button, Field, Input, Link, Stack } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useSearch } from 'wouter';
import { newPasswordSchema } from '../../../contracts/auth';
import { resetPassword } from '../../services/auth-api';
import { getErrorMessage } from '../../services/http';
import { AuthLayout } from './AuthLayout';

export default function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const reset = useMutation({ mutationFn: (next: string) => resetPassword(token, next) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = newPasswordSchema.safeParse(password);
    const next: typeof errors = {};
    if (!parsed.success) next.password = parsed.error.issues[0]?.message;
    if (password !== confirm) next.confirm = 'The passwords do not match';
    setErrors(next);
    if (next.password || next.confirm) return;
    reset.mutate(password);
  };

  if (!token) {
    return (
      <AuthLayout title="Reset your password">
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Title>This reset link is incomplete. Request a new one.</Alert.Title>
        </Alert.Root>
        <Link asChild fontSize="sm" alignSelf="center" color="brand.fg">
          <RouterLink href="/forgot-password">Request a new link</RouterLink>
        </Link>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Choose a new password" subtitle="At least 8 characters, with a letter and a digit.">
      {reset.isSuccess ? (
        <Stack gap="4">
          <Alert.Root status="success" role="status">
            <Alert.Indicator />
            <Alert.Title>{reset.data.message}</Alert.Title>
          </Alert.Root>
          <Button asChild colorPalette="brand">
            <RouterLink href="/signin">Sign in</RouterLink>
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            {reset.isError ? (
              <Alert.Root status="error" role="alert">
                <Alert.Indicator />
                <Alert.Title>{getErrorMessage(reset.error)}</Alert.Title>
              </Alert.Root>
            ) : null}
            <Field.Root invalid={!!errors.password} required>
              <Field.Label>New password</Field.Label>
              <Input
                name="password"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoFocus
              />
              <Field.ErrorText>{errors.password}</Field.ErrorText>
            </Field.Root>
            <Field.Root invalid={!!errors.confirm} required>
              <Field.Label>Repeat the new password</Field.Label>
              <Input
                name="confirm"
                type="password"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
              />
              <Field.ErrorText>{errors.confirm}</Field.ErrorText>
            </Field.Root>
            <Button type="submit" colorPalette="brand" loading={reset.isPending}>
              Set new password
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}

import { Button, Link, Stack } from '@chakra-ui/react';
import { type FormEvent, useCallback, useState } from 'react';
import { Link as RouterLink, useSearch } from 'wouter';
import { newPasswordSchema, RESET_LINK_INVALID_MESSAGE, RESET_TOKEN_PATTERN } from '../../../contracts/auth';
import { ApiError } from '../../services/api-error';
import { resetPassword } from '../../services/auth-api';
import { FormMessage, SubmissionError, TextField } from '../../ui/form-parts';
import { PublicLayout } from '../../ui/PublicLayout';
import { useSubmission } from '../../ui/use-submission';

export default function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const { state: reset, submit: saveNewPassword } = useSubmission(
    useCallback((next: string) => resetPassword(token, next), [token]),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = newPasswordSchema.safeParse(password);
    const next: typeof errors = {};
    if (!parsed.success) next.password = parsed.error.issues[0]?.message;
    if (password !== confirm) next.confirm = 'The passwords do not match';
    setErrors(next);
    if (next.password || next.confirm) return;
    saveNewPassword(password);
  };

  // A missing or malformed token, or one the server refused (spent, expired, unknown): the link cannot
  // work, so offer a new one instead of a form that can only fail.
  const refused =
    reset.status === 'error' && reset.error instanceof ApiError && reset.error.code === 'RESET_INVALID';
  if (!RESET_TOKEN_PATTERN.test(token) || refused) {
    return (
      <PublicLayout title="Reset your password">
        <FormMessage status="error">{RESET_LINK_INVALID_MESSAGE}</FormMessage>
        <Link asChild fontSize="sm" alignSelf="center" color="brand.fg">
          <RouterLink href="/forgot-password">Request a new link</RouterLink>
        </Link>
      </PublicLayout>
    );
  }

  return (
    <PublicLayout title="Choose a new password" subtitle="At least 8 characters, with a letter and a digit.">
      {reset.status === 'success' ? (
        <Stack gap="4">
          <FormMessage status="success">{reset.data.message}</FormMessage>
          <Button asChild colorPalette="brand">
            <RouterLink href="/signin">Sign in</RouterLink>
          </Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            <SubmissionError state={reset} />
            <TextField
              label="New password"
              name="password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={setPassword}
              autoFocus
              error={errors.password}
            />
            <TextField
              label="Repeat the new password"
              name="confirm"
              type="password"
              autoComplete="new-password"
              value={confirm}
              onChange={setConfirm}
              error={errors.confirm}
            />
            <Button type="submit" colorPalette="brand" loading={reset.status === 'pending'}>
              Set new password
            </Button>
          </Stack>
        </form>
      )}
    </PublicLayout>
  );
}

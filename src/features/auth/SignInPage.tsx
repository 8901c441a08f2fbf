import { Alert, Button, Field, Input, Link, Stack } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useSearch } from 'wouter';
import { signInBodySchema } from '../../../contracts/auth';
import { useAuthActor, useAuthSelector } from '../../services/auth-context';
import { AuthLayout } from './AuthLayout';

export default function SignInPage() {
  const actor = useAuthActor();
  const busy = useAuthSelector((s) => s.matches('signingIn'));
  const serverError = useAuthSelector((s) => s.context.error);
  const returnTo = new URLSearchParams(useSearch()).get('returnTo');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The same schema the server validates with, so the form and the API never disagree.
    const parsed = signInBodySchema.safeParse({ email, password });
    if (!parsed.success) {
      const errors: { email?: string; password?: string } = {};
      for (const issue of parsed.error.issues)
        errors[issue.path[0] as 'email' | 'password'] ??= issue.message;
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    actor.send({ type: 'auth.signIn', ...parsed.data, returnTo });
  };

  return (
    <AuthLayout title="Sign in" subtitle="Admins, staff and sellers sign in here.">
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          {serverError ? (
            <Alert.Root status="error" role="alert">
              <Alert.Indicator />
              <Alert.Title>{serverError}</Alert.Title>
            </Alert.Root>
          ) : null}
          <Field.Root invalid={!!fieldErrors.email} required>
            <Field.Label>E-mail</Field.Label>
            <Input
              name="email"
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoFocus
            />
            <Field.ErrorText>{fieldErrors.email}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={!!fieldErrors.password} required>
            <Field.Label>Password</Field.Label>
            <Input
              name="password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <Field.ErrorText>{fieldErrors.password}</Field.ErrorText>
          </Field.Root>
          <Button type="submit" colorPalette="brand" loading={busy} loadingText="Signing in…">
            Sign in
          </Button>
          <Link asChild fontSize="sm" alignSelf="center" color="brand.fg">
            <RouterLink href="/forgot-password">Forgot your password?</RouterLink>
          </Link>
        </Stack>
      </form>
    </AuthLayout>
  );
}

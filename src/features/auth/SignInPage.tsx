import { Button, Link, Stack } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink, useSearch } from 'wouter';
import { useAuthActor, useAuthSelector } from '../../services/auth-context';
import { FormMessage, fieldErrors, TextField } from '../../ui/form-parts';
import { PublicLayout } from '../../ui/PublicLayout';

export default function SignInPage() {
  const actor = useAuthActor();
  const busy = useAuthSelector((s) => s.matches('signingIn'));
  const serverError = useAuthSelector((s) => s.context.error);
  const returnTo = new URLSearchParams(useSearch()).get('returnTo');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setFieldErrors] = useState<{ email?: string; password?: string }>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The same schema the server validates with, so the form and the API never disagree. Loaded on
    // submit (it brings zod), so the page itself renders without it; the request needs it anyway.
    const { signInBodySchema } = await import('../../../contracts/auth');
    const parsed = signInBodySchema.safeParse({ email, password });
    if (!parsed.success) return setFieldErrors(fieldErrors(parsed.error.issues, ['email', 'password']));
    setFieldErrors({});
    actor.send({ type: 'auth.signIn', ...parsed.data, returnTo });
  };

  return (
    <PublicLayout title="Sign in" subtitle="Admins, staff and sellers sign in here.">
      <form onSubmit={submit} noValidate>
        <Stack gap="4">
          <FormMessage status="error">{serverError}</FormMessage>
          <TextField
            label="E-mail"
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={setEmail}
            autoFocus
            error={errors.email}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
            error={errors.password}
          />
          <Button type="submit" colorPalette="brand" loading={busy} loadingText="Signing in…">
            Sign in
          </Button>
          <Link asChild fontSize="sm" alignSelf="center" color="brand.fg">
            <RouterLink href="/forgot-password">Forgot your password?</RouterLink>
          </Link>
        </Stack>
      </form>
    </PublicLayout>
  );
}

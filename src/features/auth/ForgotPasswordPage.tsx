import { Button, Link, Stack } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink } from 'wouter';
import { forgotPasswordBodySchema } from '../../../contracts/auth';
import { forgotPassword } from '../../services/auth-api';
import { getErrorMessage } from '../../services/http';
import { AuthLayout } from './AuthLayout';
import { FormMessage, TextField } from './form-parts';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const request = useMutation({ mutationFn: forgotPassword });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = forgotPasswordBodySchema.safeParse({ email });
    if (!parsed.success) return setFieldError(parsed.error.issues[0]?.message);
    setFieldError(undefined);
    request.mutate(parsed.data.email);
  };

  return (
    <AuthLayout title="Forgot your password?" subtitle="We will e-mail you a link to choose a new one.">
      {request.isSuccess ? (
        <FormMessage status="success">{request.data.message}</FormMessage>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            {request.isError ? (
              <FormMessage status="error">{getErrorMessage(request.error)}</FormMessage>
            ) : null}
            <TextField
              label="E-mail"
              name="email"
              type="email"
              autoComplete="username"
              value={email}
              onChange={setEmail}
              autoFocus
              error={fieldError}
            />
            <Button type="submit" colorPalette="brand" loading={request.isPending}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
      <Link asChild fontSize="sm" alignSelf="center" color="brand.fg">
        <RouterLink href="/signin">Back to sign in</RouterLink>
      </Link>
    </AuthLayout>
  );
}

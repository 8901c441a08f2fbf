import { Button, Link, Stack } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { Link as RouterLink } from 'wouter';
import { forgotPasswordBodySchema } from '../../../contracts/auth';
import { forgotPassword } from '../../services/auth-api';
import { FormMessage, SubmissionError, TextField } from '../../ui/form-parts';
import { PublicLayout } from '../../ui/PublicLayout';
import { useSubmission } from '../../ui/use-submission';

export default function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const { state: request, submit: sendLink } = useSubmission(forgotPassword);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = forgotPasswordBodySchema.safeParse({ email });
    if (!parsed.success) return setFieldError(parsed.error.issues[0]?.message);
    setFieldError(undefined);
    sendLink(parsed.data.email);
  };

  return (
    <PublicLayout title="Forgot your password?" subtitle="We will e-mail you a link to choose a new one.">
      {request.status === 'success' ? (
        <FormMessage status="success">{request.data.message}</FormMessage>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="4">
            <SubmissionError state={request} />
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
            <Button type="submit" colorPalette="brand" loading={request.status === 'pending'}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
      <Link asChild fontSize="sm" alignSelf="center" color="brand.fg">
        <RouterLink href="/signin">Back to sign in</RouterLink>
      </Link>
    </PublicLayout>
  );
}

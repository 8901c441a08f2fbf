import { Button, Field, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import { getErrorMessage } from '../../services/http';
import { FormMessage, SubmissionError } from '../../ui/form-parts';
import { PublicLayout } from '../../ui/PublicLayout';
import { useSubmission } from '../../ui/use-submission';
import { loadReplyPage, type ReplyPage, sendCustomerReply } from './reply-api';

export const BAD_LINK = 'This reply link is not valid. Use the link in our latest e-mail.';
const TITLE = 'Answer your query';
const MAX_MESSAGE = 20_000;

type Loaded =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; page: ReplyPage };

/** The query id and token of the link, or null when one is missing or cannot be a valid one. */
export function replyLinkOf(search: string): { query: string; token: string } | null {
  const params = new URLSearchParams(search);
  const query = params.get('query') ?? '';
  const token = params.get('token') ?? '';
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  return uuid.test(query) && token.length >= 10 && token.length <= 200 ? { query, token } : null;
}

/**
 * /query-reply?query=…&token=… from a reply to a customer query (issue 30, public): the customer sees
 * which query they answer and writes back; the answer lands in the query's thread. A forged, changed or
 * incomplete link says so and shows no form.
 */
export default function QueryReplyPage() {
  const link = replyLinkOf(useSearch());
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const { state, submit } = useSubmission(sendCustomerReply);
  const query = link?.query;
  const token = link?.token;

  useEffect(() => {
    if (!query || !token) return;
    let live = true;
    loadReplyPage({ query, token }).then(
      (page) => live && setLoaded({ status: 'ready', page }),
      (error: unknown) => live && setLoaded({ status: 'error', message: getErrorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [query, token]);

  if (!query || !token) {
    return (
      <PublicLayout title={TITLE}>
        <FormMessage status="error">{BAD_LINK}</FormMessage>
      </PublicLayout>
    );
  }
  if (loaded.status === 'loading') {
    return (
      <PublicLayout title={TITLE}>
        <Text color="fg.muted" role="status">
          Loading your query…
        </Text>
      </PublicLayout>
    );
  }
  if (loaded.status === 'error') {
    return (
      <PublicLayout title={TITLE}>
        <FormMessage status="error">{loaded.message}</FormMessage>
      </PublicLayout>
    );
  }
  const { page } = loaded;
  const send = (event: FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    if (!text) {
      setProblem('Write your answer.');
      return;
    }
    setProblem(null);
    submit({ query, token, message: text });
  };

  return (
    <PublicLayout title={TITLE} subtitle={`Q-${page.number}: ${page.subject}`}>
      {state.status === 'success' ? (
        <FormMessage status="success">{state.data.message}</FormMessage>
      ) : !page.open ? (
        <FormMessage status="info">This query is closed. Please send us a new enquiry.</FormMessage>
      ) : (
        <Stack asChild gap="4">
          <form onSubmit={send} noValidate aria-label="Your answer">
            <Text>
              Hello {page.customerName}, write your answer below. It reaches the person handling your query.
            </Text>
            <SubmissionError state={state} />
            <Field.Root invalid={Boolean(problem)} required>
              <Field.Label>
                Your answer <Field.RequiredIndicator />
              </Field.Label>
              <Textarea
                name="message"
                rows={6}
                maxLength={MAX_MESSAGE}
                value={message}
                onChange={(event) => setMessage(event.target.value)}
              />
              <Field.ErrorText>{problem}</Field.ErrorText>
            </Field.Root>
            <Button type="submit" colorPalette="brand" loading={state.status === 'pending'}>
              Send answer
            </Button>
          </form>
        </Stack>
      )}
    </PublicLayout>
  );
}

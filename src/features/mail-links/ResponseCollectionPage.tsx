import { Button, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearch } from 'wouter';
import {
  COMMENT_MAX_LENGTH,
  type ResponseOptions,
  unknownAnswerMessage,
} from '../../../contracts/mail-links';
import { getErrorMessage } from '../../services/http';
import { FormMessage, fieldErrors, SubmissionError, TextAreaField } from '../../ui/form-parts';
import { PublicLayout } from '../../ui/PublicLayout';
import { useSubmission } from '../../ui/use-submission';
import { collectResponse, linkParams, responseOptions } from './api';
import { PageTexts } from './PageTexts';

type Field = 'response' | 'comment';
type Loaded =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | ({ status: 'ready' } & ResponseOptions);

/**
 * /responseCollection?email=…&campaign=…&token=…[&response=…] from a campaign mail (SPEC §2, public):
 * the recipient picks one of the campaign's answers (preselected when they clicked one of the mail's
 * answer buttons) and may add a comment. Only the campaign's answers are offered, and the server
 * records no other. Answering again replaces the earlier answer.
 */
export default function ResponseCollectionPage() {
  const search = useSearch();
  const link = linkParams(search, ['email', 'campaign', 'token']);
  const [response, setResponse] = useState(link?.response ?? '');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const { state, submit } = useSubmission(collectResponse);
  const testMail = new URLSearchParams(search).get('test') === '1';
  const { email, campaign, token } = link ?? {};

  useEffect(() => {
    if (testMail || !email || !campaign || !token) return;
    let live = true;
    responseOptions({ email, campaign, token }).then(
      (answer) => {
        if (!live) return;
        setLoaded({ status: 'ready', ...answer });
        // The clicked button's answer when the campaign offers it, else the one given before.
        setResponse((clicked) => {
          const offered = answer.options.find(
            (option) => option.toLowerCase() === clicked.trim().toLowerCase(),
          );
          return offered ?? answer.current ?? '';
        });
      },
      (error: unknown) => live && setLoaded({ status: 'error', message: getErrorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [testMail, email, campaign, token]);

  if (testMail) {
    const answer = new URLSearchParams(search).get('response');
    return (
      <PublicLayout title="Your response">
        <FormMessage status="info">
          {`${answer ? `This “${answer}” link` : 'This link'} comes from a test mail. Recipients answer the campaign here; a test answer is not recorded.`}
        </FormMessage>
      </PublicLayout>
    );
  }
  if (!email || !campaign || !token) {
    return (
      <PublicLayout title="Your response">
        <FormMessage status="error">This link is incomplete. Use the link from your e-mail.</FormMessage>
      </PublicLayout>
    );
  }
  if (loaded.status !== 'ready') {
    return (
      <PublicLayout title="Your response">
        {loaded.status === 'error' ? (
          <FormMessage status="error">{loaded.message}</FormMessage>
        ) : (
          <Text color="fg.muted">Loading the answers…</Text>
        )}
      </PublicLayout>
    );
  }
  const { options } = loaded;
  if (options.length === 0) {
    return (
      <PublicLayout title="Your response">
        <FormMessage status="info">{unknownAnswerMessage(options)}</FormMessage>
      </PublicLayout>
    );
  }

  const send = async (event: FormEvent) => {
    event.preventDefault();
    // The server's schema, loaded on submit like the sign-in form's (it brings zod).
    const { collectResponseBodySchema } = await import('../../../contracts/mail-links');
    const parsed = collectResponseBodySchema.safeParse({ email, campaign, token, response, comment });
    // A problem in the link itself (address, campaign, token) is for the server to word.
    const next: Partial<Record<Field, string>> = parsed.success
      ? {}
      : fieldErrors(parsed.error.issues, ['response', 'comment'] as const);
    if (!response) next.response = 'Choose an answer';
    if (Object.keys(next).length > 0) return setErrors(next);
    setErrors({});
    submit({ email, campaign, token, response, comment });
  };

  return (
    <PublicLayout title="Your response" subtitle={`Answering as ${email}.`}>
      {state.status === 'success' ? (
        <FormMessage status="success">{state.data.message}</FormMessage>
      ) : (
        <form onSubmit={send} noValidate>
          <Stack gap="4">
            <SubmissionError state={state} />
            <RadioGroup.Root
              value={response || null}
              onValueChange={(event) => setResponse(event.value ?? '')}
              aria-label="Your answer"
              aria-invalid={errors.response ? true : undefined}
            >
              <Text fontWeight="medium" mb="2">
                Your answer
              </Text>
              <Stack gap="2">
                {options.map((option, index) => (
                  <RadioGroup.Item key={option} value={option}>
                    <RadioGroup.ItemHiddenInput />
                    <RadioGroup.ItemIndicator />
                    <RadioGroup.ItemText>{loaded.labels[index] ?? option}</RadioGroup.ItemText>
                  </RadioGroup.Item>
                ))}
              </Stack>
              {errors.response ? (
                <Text color="fg.error" fontSize="sm" mt="1">
                  {errors.response}
                </Text>
              ) : null}
            </RadioGroup.Root>
            <TextAreaField
              label="Comment (optional)"
              name="comment"
              value={comment}
              onChange={setComment}
              maxLength={COMMENT_MAX_LENGTH}
              error={errors.comment}
            />
            <Button type="submit" colorPalette="brand" loading={state.status === 'pending'}>
              Send
            </Button>
          </Stack>
        </form>
      )}
      <PageTexts page="response" />
    </PublicLayout>
  );
}

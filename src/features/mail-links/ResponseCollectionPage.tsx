import { Button, Stack } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { useSearch } from 'wouter';
import { COMMENT_MAX_LENGTH } from '../../../contracts/mail-links';
import { FormMessage, fieldErrors, SubmissionError, TextAreaField, TextField } from '../../ui/form-parts';
import { PublicLayout } from '../../ui/PublicLayout';
import { useSubmission } from '../../ui/use-submission';
import { collectResponse, linkParams } from './api';

type Field = 'response' | 'comment';

/**
 * /responseCollection?email=…&campaign=…&token=…[&response=…] from a campaign mail (SPEC §2, public):
 * the recipient sends an answer, preselected when they clicked one of the mail's answer buttons, with
 * an optional comment. Answering again replaces the earlier answer.
 */
export default function ResponseCollectionPage() {
  const search = useSearch();
  const link = linkParams(search, ['email', 'campaign', 'token']);
  const [response, setResponse] = useState(link?.response ?? '');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const { state, submit } = useSubmission(collectResponse);

  const test = new URLSearchParams(search);
  if (test.get('test') === '1') {
    const answer = test.get('response');
    return (
      <PublicLayout title="Your response">
        <FormMessage status="info">
          {`${answer ? `This “${answer}” link` : 'This link'} comes from a test mail. Recipients answer the campaign here; a test answer is not recorded.`}
        </FormMessage>
      </PublicLayout>
    );
  }
  if (!link?.email || !link.campaign || !link.token) {
    return (
      <PublicLayout title="Your response">
        <FormMessage status="error">This link is incomplete. Use the link from your e-mail.</FormMessage>
      </PublicLayout>
    );
  }
  const { email, campaign, token } = link;

  const send = async (event: FormEvent) => {
    event.preventDefault();
    // The server's schema, loaded on submit like the sign-in form's (it brings zod).
    const { collectResponseBodySchema } = await import('../../../contracts/mail-links');
    const parsed = collectResponseBodySchema.safeParse({ email, campaign, token, response, comment });
    // A problem in the link itself (address, campaign, token) is for the server to word.
    const next = parsed.success ? {} : fieldErrors(parsed.error.issues, ['response', 'comment'] as const);
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
            <TextField
              label="Your answer"
              name="response"
              type="text"
              autoComplete="off"
              value={response}
              onChange={setResponse}
              error={errors.response}
              autoFocus
            />
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
    </PublicLayout>
  );
}

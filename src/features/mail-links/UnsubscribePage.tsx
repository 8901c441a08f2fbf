import { Button, Stack, Text } from '@chakra-ui/react';
import { useSearch } from 'wouter';
import { FormMessage, SubmissionError } from '../../ui/form-parts';
import { PublicLayout } from '../../ui/PublicLayout';
import { useSubmission } from '../../ui/use-submission';
import { linkParams, unsubscribeEmail } from './api';
import { PageTexts } from './PageTexts';

export const TEST_MAIL_UNSUBSCRIBE =
  'This link comes from a test mail. In the campaign’s mails it unsubscribes the recipient; here nothing changes.';

/**
 * /unsubscribe?email=…&token=… from a marketing mail (SPEC §2, public). The recipient confirms with a
 * button rather than on page load: mail scanners open links in advance, and must not unsubscribe anyone.
 */
export default function UnsubscribePage() {
  const search = useSearch();
  const link = linkParams(search, ['email', 'token']);
  const { state, submit } = useSubmission(unsubscribeEmail);

  if (new URLSearchParams(search).get('test') === '1') {
    return (
      <PublicLayout title="Unsubscribe">
        <FormMessage status="info">{TEST_MAIL_UNSUBSCRIBE}</FormMessage>
      </PublicLayout>
    );
  }
  if (!link?.email || !link.token) {
    return (
      <PublicLayout title="Unsubscribe">
        <FormMessage status="error">
          This unsubscribe link is incomplete. Use the link from your e-mail.
        </FormMessage>
      </PublicLayout>
    );
  }
  const { email, token } = link;
  return (
    <PublicLayout title="Unsubscribe" subtitle="Stop marketing e-mails from the marketplace.">
      {state.status === 'success' ? (
        <FormMessage status="success">{state.data.message}</FormMessage>
      ) : (
        <Stack gap="4">
          <SubmissionError state={state} />
          <Text>
            Unsubscribe <strong>{email}</strong>? Messages about your account (such as password resets) still
            arrive.
          </Text>
          <Button
            colorPalette="brand"
            loading={state.status === 'pending'}
            onClick={() => submit({ email, token })}
          >
            Unsubscribe
          </Button>
        </Stack>
      )}
      <PageTexts page="unsubscribe" />
    </PublicLayout>
  );
}

import { Alert, Button, Field, HStack, Input, Link, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, type ReactNode, useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, useRoute } from 'wouter';
import { formatDateTime, formatDay } from '../../../contracts/domain/format';
import type { PublicOffer, PublicResponseResult } from '../../../contracts/offers';
import { getErrorMessage } from '../../services/http';
import { FormMessage } from '../../ui/form-parts';
import { PublicLayout } from '../../ui/PublicLayout';
import { PricingTable } from '../../ui/pricing-table';
import { answerOffer, loadPublicOffer } from './public-api';

const TITLE = 'Your offer';
export const BAD_LINK = 'This offer link is not valid. Use the link from your latest offer e-mail.';

/** The public pages' frame, wide enough for the offer's table. */
function Frame({ subtitle, children }: { subtitle?: string; children: ReactNode }) {
  return (
    <PublicLayout title={TITLE} subtitle={subtitle} wide>
      {children}
    </PublicLayout>
  );
}

type Loaded =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; offer: PublicOffer };

const decisionWord = { accepted: 'accepted', declined: 'declined' } as const;

function AnswerForm({
  token,
  onAnswered,
}: {
  token: string;
  onAnswered: (result: PublicResponseResult) => void;
}) {
  const [typedName, setTypedName] = useState('');
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState<'accept' | 'decline' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const answer = (decision: 'accept' | 'decline') => async (event: FormEvent) => {
    event.preventDefault();
    const name = typedName.trim();
    if (!name) {
      setProblem('Type your full name to sign.');
      return;
    }
    setProblem(null);
    setFailure(null);
    setPending(decision);
    try {
      onAnswered(await answerOffer(token, decision, { typedName: name, comment: comment.trim() }));
    } catch (error) {
      setFailure(getErrorMessage(error));
    } finally {
      setPending(null);
    }
  };

  return (
    <Stack asChild gap="4">
      <form onSubmit={answer('accept')} noValidate aria-label="Your answer">
        <Text>Type your full name as your signature, then accept or decline this version of the offer.</Text>
        <FormMessage status="error">{failure}</FormMessage>
        <Field.Root invalid={Boolean(problem)} required>
          <Field.Label>
            Your full name <Field.RequiredIndicator />
          </Field.Label>
          <Input
            name="typedName"
            autoComplete="name"
            maxLength={200}
            value={typedName}
            onChange={(e) => setTypedName(e.target.value)}
          />
          <Field.ErrorText>{problem}</Field.ErrorText>
        </Field.Root>
        <Field.Root>
          <Field.Label>Comment (optional)</Field.Label>
          <Textarea
            name="comment"
            rows={3}
            maxLength={2000}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
        </Field.Root>
        <HStack gap="3" wrap="wrap">
          <Button
            type="submit"
            colorPalette="green"
            loading={pending === 'accept'}
            disabled={pending !== null}
          >
            Accept the offer
          </Button>
          <Button
            variant="outline"
            colorPalette="red"
            loading={pending === 'decline'}
            disabled={pending !== null}
            onClick={(event) => void answer('decline')(event)}
          >
            Decline
          </Button>
        </HStack>
      </form>
    </Stack>
  );
}

/**
 * /offer/{token} (public, no account; issue 30): the one offer version the signed link names, with its
 * lines, taxes, shipping, totals and validity; Accept or Decline with a typed name. An old version's link
 * points to the newer one; an expired or answered one says so; a forged link says it is not valid.
 */
export default function PublicOfferPage() {
  const [, params] = useRoute('/offer/:token');
  const token = params?.token ?? '';
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [result, setResult] = useState<PublicResponseResult | null>(null);

  const load = useCallback(() => {
    let live = true;
    loadPublicOffer(token).then(
      (offer) => live && setLoaded({ status: 'ready', offer }),
      (error: unknown) => live && setLoaded({ status: 'error', message: getErrorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  useEffect(() => {
    setLoaded({ status: 'loading' });
    setResult(null);
    if (!token) return;
    return load();
  }, [token, load]);

  if (!token)
    return (
      <Frame>
        <FormMessage status="error">{BAD_LINK}</FormMessage>
      </Frame>
    );
  if (loaded.status === 'loading')
    return (
      <Frame>
        <Text color="fg.muted" role="status">
          Loading your offer…
        </Text>
      </Frame>
    );
  if (loaded.status === 'error')
    return (
      <Frame>
        <FormMessage status="error">{loaded.message}</FormMessage>
      </Frame>
    );

  const { offer } = loaded;
  const answered =
    result ?? (offer.response ? { ...offer.response, version: offer.version, recorded: false } : null);

  return (
    <Frame subtitle={`OFR-${offer.number}, version ${offer.version}, from ${offer.sellerName}`}>
      <Text>Hello {offer.customerName},</Text>
      {offer.newerVersion && offer.newerToken ? (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>A newer version ({offer.newerVersion}) of this offer exists</Alert.Title>
            <Alert.Description>
              This version can no longer be answered.{' '}
              <Link asChild fontWeight="medium">
                <RouterLink href={`/offer/${offer.newerToken}`}>Open version {offer.newerVersion}</RouterLink>
              </Link>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      ) : null}
      <PricingTable pricing={offer.offer} caption={`Offer version ${offer.version}`} />
      <Text fontSize="sm" color="fg.muted">
        Valid until {formatDay(offer.offer.validUntil)}, to the end of that day (until{' '}
        {formatDateTime(offer.expiresAt)} your time). Sent {formatDateTime(offer.sentAt)}.
      </Text>
      {answered ? (
        <FormMessage status={answered.decision === 'accepted' ? 'success' : 'info'}>
          {result?.recorded
            ? `Thank you: you ${decisionWord[answered.decision]} version ${answered.version} of this offer as ${answered.typedName}. The shop has been told.`
            : `This offer was ${decisionWord[answered.decision]} on ${formatDateTime(answered.createdAt)} by ${answered.typedName}.`}
        </FormMessage>
      ) : offer.canRespond ? (
        <AnswerForm token={token} onAnswered={setResult} />
      ) : offer.newerVersion ? null : (
        <FormMessage status="info">{offer.reason ?? 'This offer can no longer be answered.'}</FormMessage>
      )}
    </Frame>
  );
}

import {
  Alert,
  Badge,
  Button,
  Card,
  DataList,
  Field,
  Flex,
  Heading,
  HStack,
  RadioCard,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'wouter';
import { formatMoney } from '../../../contracts/domain/currency';
import { formatDate, plural } from '../../../contracts/domain/format';
import type {
  CurrentSubscription,
  RenewalRequest,
  RenewalStatus,
  SellerSubscriptions,
} from '../../../contracts/subscriptions';
import { getErrorMessage } from '../../services/http';
import { useCurrentUser } from '../../services/session-queries';
import { FormMessage } from '../../ui/form-parts';
import { notify } from '../../ui/notify';
import { EmptyMessage, ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { SubscriptionPeriodsTable } from '../../ui/subscription-periods-table';
import { SubscriptionStateBadge } from '../../ui/subscription-state-badge';
import { useOwnSubscription, usePlans, useRefreshSellerSession, useRequestRenewal } from './api';

const PERIODS_PER_PAGE = 6;
const NOTE_MAX = 500;

const price = (plan: { priceMinor: number; currency: string }) =>
  formatMoney(plan.priceMinor / 100, plan.currency);

const requestPalette: Record<RenewalStatus, string> = {
  pending: 'yellow',
  approved: 'green',
  rejected: 'red',
};
const requestLabel: Record<RenewalStatus, string> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** The headline: where the subscription stands and what the seller should do. */
function StateAlert({ current }: { current: CurrentSubscription }) {
  const until = current.endsAt ? formatDate(current.endsAt) : null;
  const content: Record<
    CurrentSubscription['state'],
    [status: 'success' | 'warning' | 'error' | 'info', string, string]
  > = {
    Active: ['success', 'Your subscription is active', `It renews on ${until}.`],
    'Expiring soon': [
      'warning',
      'Your subscription ends soon',
      `It ends on ${until} (${plural(current.daysLeft ?? 0, 'day')} left). Request a renewal below.`,
    ],
    Expired: [
      'error',
      'Your subscription has ended',
      `It ended on ${until}. Request a renewal below before your store is blocked.`,
    ],
    Blocked: [
      'error',
      'Your subscription is blocked',
      'Your store is hidden from buyers and the back-office is closed until the subscription is renewed. Request a renewal below.',
    ],
    Free: [
      'info',
      'Your store is on a free plan',
      'The marketplace waived the subscription fee: there is nothing to renew.',
    ],
    'No subscription': ['info', 'You have no subscription yet', 'Choose a plan below to start selling.'],
  };
  const [status, title, description] = content[current.state];
  return (
    <Alert.Root status={status}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{description}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

function CurrentPlanCard({ current }: { current: CurrentSubscription }) {
  return (
    <Card.Root data-tour="current-plan">
      <Card.Header>
        <Flex justify="space-between" align="center" gap="2">
          <Heading size="md">Current plan</Heading>
          <SubscriptionStateBadge state={current.state} />
        </Flex>
      </Card.Header>
      <Card.Body>
        <DataList.Root orientation="horizontal">
          <DataList.Item>
            <DataList.ItemLabel>Plan</DataList.ItemLabel>
            <DataList.ItemValue>
              {current.plan
                ? `${current.plan.name} · ${price(current.plan)} for ${current.plan.periodDays} days`
                : '—'}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Period</DataList.ItemLabel>
            <DataList.ItemValue>
              {current.startsAt && current.endsAt
                ? `${formatDate(current.startsAt)} – ${formatDate(current.endsAt)}`
                : '—'}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{current.daysLeft ? 'Renewal date' : 'Ended on'}</DataList.ItemLabel>
            <DataList.ItemValue>
              {current.endsAt ? formatDate(current.endsAt) : '—'}
              {current.daysLeft ? ` (${current.daysLeft} days left)` : ''}
            </DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      </Card.Body>
    </Card.Root>
  );
}

function PendingRequest({ request }: { request: RenewalRequest }) {
  return (
    <Stack gap="3" role="status" aria-label="Renewal request">
      <HStack justify="space-between">
        <Text fontWeight="semibold">
          {request.plan.name} · {price(request.plan)}
        </Text>
        <Badge colorPalette={requestPalette.pending}>{requestLabel.pending}</Badge>
      </HStack>
      <Text color="fg.muted" fontSize="sm">
        Requested on {formatDate(request.requestedAt)}. The marketplace team will confirm your payment and
        approve the renewal; this page updates by itself once they have.
      </Text>
      {request.note ? (
        <Text fontSize="sm" whiteSpace="pre-wrap">
          Your note: {request.note}
        </Text>
      ) : null}
    </Stack>
  );
}

function RenewalForm({ lastDecided }: { lastDecided: RenewalRequest | null }) {
  const plans = usePlans();
  const renew = useRequestRenewal();
  const [planId, setPlanId] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [missingPlan, setMissingPlan] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!planId) {
      setMissingPlan(true);
      return;
    }
    renew.mutate(
      { planId, note: note.trim() || undefined },
      {
        onSuccess: (result) => {
          setNote('');
          notify({
            type: 'success',
            title: 'Renewal requested',
            description: result.payment.kind === 'manual' ? result.payment.instructions : undefined,
          });
          if (result.payment.kind === 'redirect') window.location.assign(result.payment.url);
        },
      },
    );
  };

  if (plans.isPending) return <LoadingState rows={2} label="Loading plans…" />;
  if (plans.isError)
    return <ErrorState message={getErrorMessage(plans.error)} onRetry={() => plans.refetch()} />;
  if (plans.data.length === 0) return <EmptyMessage title="No plans are offered right now" />;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="4">
        {lastDecided?.status === 'rejected' ? (
          <Alert.Root status="warning">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Your last request was not approved</Alert.Title>
              {lastDecided.decisionNote ? (
                <Alert.Description whiteSpace="pre-wrap">{lastDecided.decisionNote}</Alert.Description>
              ) : null}
            </Alert.Content>
          </Alert.Root>
        ) : null}
        <Field.Root invalid={missingPlan} required>
          <RadioCard.Root
            value={planId}
            onValueChange={(details) => {
              setPlanId(details.value);
              setMissingPlan(false);
            }}
            colorPalette="brand"
            name="plan"
          >
            <RadioCard.Label>Plan</RadioCard.Label>
            <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
              {plans.data.map((plan) => (
                <RadioCard.Item key={plan.id} value={plan.id}>
                  <RadioCard.ItemHiddenInput />
                  <RadioCard.ItemControl>
                    <RadioCard.ItemContent>
                      <RadioCard.ItemText>{plan.name}</RadioCard.ItemText>
                      <RadioCard.ItemDescription>
                        {price(plan)} for {plan.periodDays} days
                      </RadioCard.ItemDescription>
                    </RadioCard.ItemContent>
                    <RadioCard.ItemIndicator />
                  </RadioCard.ItemControl>
                </RadioCard.Item>
              ))}
            </SimpleGrid>
          </RadioCard.Root>
          <Field.ErrorText>Choose a plan</Field.ErrorText>
        </Field.Root>
        <Field.Root>
          <Field.Label>Note for the marketplace team</Field.Label>
          <Textarea
            name="note"
            rows={3}
            maxLength={NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder="e.g. the reference of your bank transfer"
          />
          <Field.HelperText>Optional, up to {NOTE_MAX} characters.</Field.HelperText>
        </Field.Root>
        <FormMessage status="error">{renew.isError ? getErrorMessage(renew.error) : null}</FormMessage>
        <Button type="submit" colorPalette="brand" alignSelf="flex-start" loading={renew.isPending}>
          Request renewal
        </Button>
      </Stack>
    </form>
  );
}

function RenewalCard({ data }: { data: SellerSubscriptions }) {
  const lastDecided = data.recentRequests.find((request) => request.status !== 'pending') ?? null;
  return (
    <Card.Root data-tour="renewal">
      <Card.Header>
        <Heading size="md">
          {data.pendingRequest ? 'Your renewal request' : 'Renew your subscription'}
        </Heading>
      </Card.Header>
      <Card.Body>
        {data.pendingRequest ? (
          <PendingRequest request={data.pendingRequest} />
        ) : data.seller.isFree ? (
          <Text color="fg.muted">Your store does not pay a subscription fee.</Text>
        ) : (
          <RenewalForm lastDecided={lastDecided} />
        )}
      </Card.Body>
    </Card.Root>
  );
}

function PeriodsTable({
  data,
  skip,
  onPage,
}: {
  data: SellerSubscriptions;
  skip: number;
  onPage: (skip: number) => void;
}) {
  if (data.periodCount === 0) {
    return (
      <EmptyMessage
        title="No subscription periods yet"
        description="Your periods appear here once a plan starts."
      />
    );
  }
  return (
    <Stack gap="3">
      <SubscriptionPeriodsTable periods={data.periods} />
      {data.periodCount > PERIODS_PER_PAGE ? (
        <HStack justify="space-between">
          <Button
            size="xs"
            variant="outline"
            disabled={skip === 0}
            onClick={() => onPage(Math.max(0, skip - PERIODS_PER_PAGE))}
          >
            Newer
          </Button>
          <Text fontSize="xs" color="fg.muted">
            {skip + 1}–{Math.min(skip + PERIODS_PER_PAGE, data.periodCount)} of {data.periodCount}
          </Text>
          <Button
            size="xs"
            variant="outline"
            disabled={skip + PERIODS_PER_PAGE >= data.periodCount}
            onClick={() => onPage(skip + PERIODS_PER_PAGE)}
          >
            Older
          </Button>
        </HStack>
      ) : null}
    </Stack>
  );
}

function RequestsTable({ requests }: { requests: RenewalRequest[] }) {
  if (requests.length === 0) return <EmptyMessage title="No renewal requests yet" />;
  return (
    <Table.Root size="sm">
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeader>Requested</Table.ColumnHeader>
          <Table.ColumnHeader>Plan</Table.ColumnHeader>
          <Table.ColumnHeader>Status</Table.ColumnHeader>
          <Table.ColumnHeader>Answer</Table.ColumnHeader>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {requests.map((request) => (
          <Table.Row key={request.id}>
            <Table.Cell>{formatDate(request.requestedAt)}</Table.Cell>
            <Table.Cell>{request.plan.name}</Table.Cell>
            <Table.Cell>
              <Badge colorPalette={requestPalette[request.status]}>{requestLabel[request.status]}</Badge>
            </Table.Cell>
            <Table.Cell whiteSpace="pre-wrap">{request.decisionNote ?? '—'}</Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  );
}

/**
 * When the server says the seller is no longer blocked but the cached current user still says so (or the
 * other way round), the session is read again: the landing rule on `/` and the menu follow at once.
 */
function useFollowBlockedState(data: SellerSubscriptions | undefined) {
  const user = useCurrentUser();
  const refresh = useRefreshSellerSession();
  const refreshing = useRef(false);
  const cachedBlocked = user.data?.seller?.blocked;
  const serverBlocked = data?.seller.blocked;
  useEffect(() => {
    if (serverBlocked === undefined || cachedBlocked === undefined || serverBlocked === cachedBlocked) return;
    if (refreshing.current) return;
    refreshing.current = true;
    refresh().finally(() => {
      refreshing.current = false;
    });
  }, [serverBlocked, cachedBlocked, refresh]);
}

/**
 * The seller's subscription (SPEC §4: where a blocked seller lands): its state, plan and dates, the
 * history of periods, and a renewal request an admin approves. No payment is faked: the payment
 * provider today is the marketplace team confirming it by hand.
 */
export default function PaymentSubscriptionPage() {
  const [skip, setSkip] = useState(0);
  const subscription = useOwnSubscription({ skip, limit: PERIODS_PER_PAGE });
  useFollowBlockedState(subscription.data);
  const previousPending = useRef<string | null>(null);
  const [justApproved, setJustApproved] = useState(false);
  const data = subscription.data;

  // A request that was pending a moment ago and is approved now: tell the seller they are back in.
  useEffect(() => {
    if (!data) return;
    const pendingId = data.pendingRequest?.id ?? null;
    if (previousPending.current && !pendingId) {
      const decided = data.recentRequests.find((request) => request.id === previousPending.current);
      if (decided?.status === 'approved') setJustApproved(true);
    }
    previousPending.current = pendingId;
  }, [data]);

  return (
    <>
      <PageHeader
        title="My Subscription"
        description="Your plan, its renewal date and your renewal requests."
      />
      {subscription.isPending ? (
        <LoadingState />
      ) : subscription.isError ? (
        <ErrorState message={getErrorMessage(subscription.error)} onRetry={() => subscription.refetch()} />
      ) : (
        <Stack gap="6">
          {justApproved ? (
            <Alert.Root status="success" role="status">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Your renewal was approved</Alert.Title>
                <Alert.Description>
                  Welcome back: your store and the back-office are open again.
                </Alert.Description>
              </Alert.Content>
              <Button asChild size="sm" colorPalette="brand" alignSelf="center">
                <RouterLink href="/sellers/general-dashboard">Go to your dashboard</RouterLink>
              </Button>
            </Alert.Root>
          ) : (
            <StateAlert current={subscription.data.current} />
          )}
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" alignItems="start">
            <CurrentPlanCard current={subscription.data.current} />
            <RenewalCard data={subscription.data} />
          </SimpleGrid>
          <SimpleGrid
            columns={{ base: 1, lg: 2 }}
            gap="4"
            alignItems="start"
            data-tour="subscription-history"
          >
            <Card.Root>
              <Card.Header>
                <Heading size="md">Subscription periods</Heading>
              </Card.Header>
              <Card.Body>
                <PeriodsTable data={subscription.data} skip={skip} onPage={setSkip} />
              </Card.Body>
            </Card.Root>
            <Card.Root>
              <Card.Header>
                <Heading size="md">Recent renewal requests</Heading>
              </Card.Header>
              <Card.Body>
                <RequestsTable requests={subscription.data.recentRequests} />
              </Card.Body>
            </Card.Root>
          </SimpleGrid>
        </Stack>
      )}
    </>
  );
}

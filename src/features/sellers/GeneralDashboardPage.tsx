import {
  Alert,
  Badge,
  Button,
  Card,
  DataList,
  Flex,
  Heading,
  Image,
  SimpleGrid,
  Stack,
  Stat,
  Text,
} from '@chakra-ui/react';
import { ShieldCheck } from 'lucide-react';
import { Link as RouterLink } from 'wouter';
import { productStatusLabels } from '../../../contracts/catalog';
import { formatMoney } from '../../../contracts/domain/currency';
import { formatDate, formatNumber, plural } from '../../../contracts/domain/format';
import {
  type CustomerQueryStatus,
  customerQueryStatuses,
  customerQueryStatusLabels,
  type ProductStatus,
  productStatuses,
  type SellerDashboard,
} from '../../../contracts/seller-dashboard';
import { SELLER_BLOCKED_CODE } from '../../../contracts/subscriptions';
import { ApiError, getErrorMessage } from '../../services/http';
import { BarChart } from '../../ui/bar-chart';
import { ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { SubscriptionStateBadge } from '../../ui/subscription-state-badge';
import { useSellerDashboard } from './api';
import { VerificationCard } from './VerificationCard';

const SUBSCRIPTION_PAGE = '/sellers/payment-seller-subscriptions';

const productColors: Record<ProductStatus, string> = {
  draft: 'gray.solid',
  in_review: 'orange.solid',
  approved: 'blue.solid',
  live: 'green.solid',
  rejected: 'red.solid',
  inactive: 'gray.muted',
};
const queryColors: Record<CustomerQueryStatus, string> = {
  new: 'purple.solid',
  open: 'orange.solid',
  waiting: 'blue.solid',
  resolved: 'green.solid',
  closed: 'gray.solid',
};

function StatCard({ label, value, help }: { label: string; value: number | string; help?: string }) {
  return (
    <Card.Root>
      <Card.Body>
        <Stat.Root>
          <Stat.Label>{label}</Stat.Label>
          <Stat.ValueText>{typeof value === 'number' ? formatNumber(value) : value}</Stat.ValueText>
          {/* A <dl> holds only <dt>/<dd>: the help is a second <dd> of the figure. */}
          {help ? <Stat.HelpText as="dd">{help}</Stat.HelpText> : null}
        </Stat.Root>
      </Card.Body>
    </Card.Root>
  );
}

function Check({ label, done }: { label: string; done: boolean }) {
  return (
    <Flex
      justify="space-between"
      align="center"
      py="2"
      borderBottomWidth="1px"
      _last={{ borderBottomWidth: 0 }}
    >
      <Text>{label}</Text>
      <Badge colorPalette={done ? 'green' : 'orange'}>{done ? 'Done' : 'Pending'}</Badge>
    </Flex>
  );
}

/** What the seller should do about their subscription, when anything. */
function SubscriptionNotice({ subscription }: { subscription: SellerDashboard['subscription'] }) {
  const { state, endsAt, daysLeft } = subscription;
  if (state !== 'Expiring soon' && state !== 'Expired' && state !== 'No subscription') return null;
  const text =
    state === 'Expiring soon'
      ? `Your subscription ends in ${plural(daysLeft ?? 0, 'day')}${endsAt ? `, on ${formatDate(endsAt)}` : ''}. Renew it to keep selling without a break.`
      : state === 'Expired'
        ? `Your subscription ended${endsAt ? ` on ${formatDate(endsAt)}` : ''}. Renew it before your store is blocked.`
        : 'You have no subscription yet. Choose a plan to start selling.';
  return (
    <Alert.Root status={state === 'Expiring soon' ? 'warning' : 'error'} mb="6">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>
          {state === 'No subscription' ? 'No subscription' : `Subscription ${state.toLowerCase()}`}
        </Alert.Title>
        <Alert.Description>{text}</Alert.Description>
      </Alert.Content>
      <Button asChild size="sm" colorPalette="brand" alignSelf="center">
        <RouterLink href={SUBSCRIPTION_PAGE}>Renew now</RouterLink>
      </Button>
    </Alert.Root>
  );
}

function SubscriptionCard({ subscription }: { subscription: SellerDashboard['subscription'] }) {
  const { state, plan, endsAt, daysLeft } = subscription;
  return (
    <Card.Root>
      <Card.Header>
        <Flex justify="space-between" align="center" gap="2">
          <Heading size="md">Subscription</Heading>
          <SubscriptionStateBadge state={state} />
        </Flex>
      </Card.Header>
      <Card.Body gap="4">
        <DataList.Root orientation="horizontal">
          <DataList.Item>
            <DataList.ItemLabel>Plan</DataList.ItemLabel>
            <DataList.ItemValue>
              {plan ? `${plan.name} · ${formatMoney(plan.priceMinor / 100, plan.currency)}` : '—'}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>
              {state === 'Expired' || state === 'Blocked' ? 'Ended on' : 'Renewal date'}
            </DataList.ItemLabel>
            <DataList.ItemValue>{endsAt ? formatDate(endsAt) : '—'}</DataList.ItemValue>
          </DataList.Item>
          {daysLeft !== null && daysLeft > 0 ? (
            <DataList.Item>
              <DataList.ItemLabel>Days left</DataList.ItemLabel>
              <DataList.ItemValue>{daysLeft}</DataList.ItemValue>
            </DataList.Item>
          ) : null}
        </DataList.Root>
        <Button asChild variant="outline" size="sm" alignSelf="flex-start">
          <RouterLink href={SUBSCRIPTION_PAGE}>Manage subscription</RouterLink>
        </Button>
      </Card.Body>
    </Card.Root>
  );
}

/** A blocked seller's dashboard is closed by the server (403 SELLER_BLOCKED): say why and where to go. */
function BlockedNotice() {
  return (
    <>
      <PageHeader title="General Dashboard" />
      <Alert.Root status="error" maxW="2xl">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>Your subscription is blocked</Alert.Title>
          <Alert.Description>
            Renew it to see your store's figures and use the back-office again.
          </Alert.Description>
        </Alert.Content>
        <Button asChild size="sm" colorPalette="brand" alignSelf="center">
          <RouterLink href={SUBSCRIPTION_PAGE}>Renew subscription</RouterLink>
        </Button>
      </Alert.Root>
    </>
  );
}

/**
 * The seller's own landing page: their verification while they are not active (with the KYC upload),
 * their store's figures, counted live by the server, and the subscription.
 */
export default function GeneralDashboardPage() {
  const dashboard = useSellerDashboard();
  if (dashboard.isPending) return <LoadingState />;
  if (dashboard.isError) {
    if (dashboard.error instanceof ApiError && dashboard.error.code === SELLER_BLOCKED_CODE)
      return <BlockedNotice />;
    return <ErrorState message={getErrorMessage(dashboard.error)} onRetry={() => dashboard.refetch()} />;
  }
  const seller = dashboard.data;
  const { products, queries, chats, subscription } = seller;
  return (
    <>
      <PageHeader
        title={seller.sellerName}
        description={`Seller code ${seller.sellerCode}`}
        actions={
          seller.status === 'Active' ? (
            <Badge colorPalette="green" size="lg" alignSelf={{ md: 'center' }}>
              <ShieldCheck aria-hidden /> Verified
            </Badge>
          ) : null
        }
      />
      {/* Until the seller is active, what to do about it comes before everything else. */}
      <VerificationCard seller={seller} />
      <SubscriptionNotice subscription={subscription} />
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4" mb="6" data-tour="store-figures">
        <StatCard
          label="Live products"
          value={products.byStatus.live}
          help={`of ${formatNumber(products.total)} in your catalogue`}
        />
        <StatCard
          label="Awaiting review"
          value={products.byStatus.in_review}
          help={
            products.byStatus.rejected
              ? `${formatNumber(products.byStatus.rejected)} rejected`
              : 'products pending approval'
          }
        />
        <StatCard
          label="Open queries"
          value={queries.unresolved}
          help={`${plural(queries.total, 'customer query', 'customer queries')} in all`}
        />
        <StatCard
          label="Open chats"
          value={chats.open}
          help={`${plural(chats.unreadMessages, 'unread message')}${chats.connectRequests ? `, ${formatNumber(chats.connectRequests)} asking for you` : ''}`}
        />
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" mb="6" data-tour="status-charts">
        <Card.Root>
          <Card.Header>
            <Heading size="md">Products by status</Heading>
          </Card.Header>
          <Card.Body>
            <BarChart
              label="Products by status"
              data={productStatuses.map((status) => ({
                label: productStatusLabels[status],
                value: products.byStatus[status],
                color: productColors[status],
              }))}
            />
          </Card.Body>
        </Card.Root>
        <Card.Root>
          <Card.Header>
            <Heading size="md">Customer queries</Heading>
          </Card.Header>
          <Card.Body>
            <BarChart
              label="Customer queries by status"
              data={customerQueryStatuses.map((status) => ({
                label: customerQueryStatusLabels[status],
                value: queries.byStatus[status],
                color: queryColors[status],
              }))}
            />
          </Card.Body>
        </Card.Root>
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="4" data-tour="store-details">
        <SubscriptionCard subscription={subscription} />
        <Card.Root>
          <Card.Header>
            <Heading size="md">Your store</Heading>
          </Card.Header>
          <Card.Body>
            <Stack gap="4">
              {seller.logo ? (
                <Image src={seller.logo} alt={`${seller.sellerName} logo`} boxSize="16" objectFit="contain" />
              ) : null}
              <DataList.Root orientation="horizontal">
                <DataList.Item>
                  <DataList.ItemLabel>Address</DataList.ItemLabel>
                  <DataList.ItemValue>{seller.sellerAddress || '—'}</DataList.ItemValue>
                </DataList.Item>
                <DataList.Item>
                  <DataList.ItemLabel>Member since</DataList.ItemLabel>
                  <DataList.ItemValue>{formatDate(seller.memberSince)}</DataList.ItemValue>
                </DataList.Item>
              </DataList.Root>
            </Stack>
          </Card.Body>
        </Card.Root>
        <Card.Root>
          <Card.Header>
            <Heading size="md">Account checklist</Heading>
          </Card.Header>
          <Card.Body>
            <Check label="E-mail verified" done={seller.isEmailVerified} />
            <Check label="KYC documents approved" done={seller.isKycDone} />
            <Check label="Store active" done={seller.isActive} />
          </Card.Body>
        </Card.Root>
      </SimpleGrid>
    </>
  );
}

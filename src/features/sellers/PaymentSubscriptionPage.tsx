import { Alert, Card, Heading, Text } from '@chakra-ui/react';
import { getErrorMessage } from '../../services/http';
import { ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { useSellerBlocked } from './api';

/**
 * Where a blocked seller lands (SPEC §4). It states the subscription's standing from the server; plans
 * and renewal requests join this page with the subscriptions feature. No payment is faked here.
 */
export default function PaymentSubscriptionPage() {
  const status = useSellerBlocked();
  if (status.isPending) return <LoadingState rows={2} />;
  if (status.isError)
    return <ErrorState message={getErrorMessage(status.error)} onRetry={() => status.refetch()} />;
  return (
    <>
      <PageHeader title="My Subscription" description="The standing of your seller subscription." />
      <Card.Root maxW="2xl">
        <Card.Body gap="4">
          {status.data.blocked ? (
            <Alert.Root status="error">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Your subscription is blocked</Alert.Title>
                <Alert.Description>
                  Your store is hidden from buyers until the subscription is renewed. Contact the marketplace
                  team to renew it.
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : (
            <Alert.Root status="success">
              <Alert.Indicator />
              <Alert.Title>Your subscription is active</Alert.Title>
            </Alert.Root>
          )}
          <Heading size="sm">Account</Heading>
          <Text color="fg.muted">
            {status.data.isNewSeller ? 'New seller (first subscription period)' : 'Established seller'}
          </Text>
        </Card.Body>
      </Card.Root>
    </>
  );
}

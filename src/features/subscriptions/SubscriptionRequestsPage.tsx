import { Card, Tabs } from '@chakra-ui/react';
import { useState } from 'react';
import { useSidebar } from '../../services/session-queries';
import { PageHeader } from '../../ui/page-states';
import { RenewalRequestsTab } from './RenewalRequestsTab';
import { SellerSubscriptionDrawer } from './SellerSubscriptionDrawer';
import { SellerSubscriptionsTab } from './SellerSubscriptionsTab';

const PAGE = '/subscriptions/subscriptions-request';

/**
 * Subscription requests (admins decide, staff look): renewal requests waiting for a decision, the
 * decided ones, and every seller's subscription with its state. The buttons follow the user's
 * permissions; the server checks them again on every call.
 */
export default function SubscriptionRequestsPage() {
  const sidebar = useSidebar();
  const canApprove = sidebar.data?.permissions[PAGE]?.includes('approve') ?? false;
  const [sellerId, setSellerId] = useState<string | null>(null);
  return (
    <>
      <PageHeader
        title="Subscription Requests"
        description={
          canApprove
            ? 'Approve renewals once the payment is in, reject them with a reason, and block or unblock sellers.'
            : "Sellers' renewal requests and subscriptions."
        }
      />
      <Card.Root data-tour="subscription-list">
        <Card.Body>
          <Tabs.Root defaultValue="pending" colorPalette="brand" lazyMount unmountOnExit>
            <Tabs.List>
              <Tabs.Trigger value="pending">Pending requests</Tabs.Trigger>
              <Tabs.Trigger value="decided">Decided</Tabs.Trigger>
              <Tabs.Trigger value="sellers" data-tour="block-subscription">
                Seller subscriptions
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="pending">
              <RenewalRequestsTab mode="pending" canApprove={canApprove} onOpenSeller={setSellerId} />
            </Tabs.Content>
            <Tabs.Content value="decided">
              <RenewalRequestsTab mode="decided" canApprove={canApprove} onOpenSeller={setSellerId} />
            </Tabs.Content>
            <Tabs.Content value="sellers">
              <SellerSubscriptionsTab canApprove={canApprove} onOpenSeller={setSellerId} />
            </Tabs.Content>
          </Tabs.Root>
        </Card.Body>
      </Card.Root>
      <SellerSubscriptionDrawer sellerId={sellerId} onClose={() => setSellerId(null)} />
    </>
  );
}

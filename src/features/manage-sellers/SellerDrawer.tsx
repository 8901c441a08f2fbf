import { Box, Button, CloseButton, Drawer, HStack, Portal, Stack, Tabs, Text } from '@chakra-ui/react';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link as RouterLink } from 'wouter';
import type { Seller } from '../../../contracts/sellers';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { ErrorState, LoadingState } from '../../ui/page-states';
import { SellerDocumentsPanel } from '../../ui/seller-documents-panel';
import { VideoCallButton } from '../../ui/video-call/VideoCallButton';
import { useInvalidateSellers, useSeller } from './api';
import { SellerHistoryTimeline } from './SellerHistoryTimeline';
import { SellerLifecyclePanel } from './SellerLifecyclePanel';
import { SellerLogo } from './SellerLogo';
import { SellerLogoPanel } from './SellerLogoPanel';
import { SellerProfileForm } from './SellerProfileForm';
import { SellerStatusBadges } from './SellerStatusBadges';

/** The form starts afresh when the profile itself changes, not when the status or logo does. */
const profileKey = (seller: Seller) =>
  JSON.stringify([seller.sellerName, seller.email, seller.phone, seller.sellerCode, seller.address]);

export const MANAGE_SELLERS = '/sellers/manage-sellers';
const PERMISSIONS_PAGE = '/permission/UserPermission';

/** One seller in a side panel (`?seller=<id>`): status and lifecycle, logo, profile, documents, history. */
export function SellerDrawer({ sellerId, onClose }: { sellerId: string | null; onClose: () => void }) {
  // Keep showing the last seller while the drawer slides out.
  const [shownId, setShownId] = useState(sellerId);
  if (sellerId && sellerId !== shownId) setShownId(sellerId);
  const seller = useSeller(shownId);
  const { can } = useRouteActions(MANAGE_SELLERS);
  const permissions = useRouteActions(PERMISSIONS_PAGE);
  const invalidateSellers = useInvalidateSellers();

  return (
    <Drawer.Root open={!!sellerId} onOpenChange={(event) => !event.open && onClose()} size="lg">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              {seller.data ? (
                <HStack gap="3" align="center" pe="8">
                  <SellerLogo name={seller.data.sellerName} logo={seller.data.logo} size="lg" />
                  <Stack gap="1" flex="1" minW="0">
                    <Drawer.Title truncate>{seller.data.sellerName}</Drawer.Title>
                    <HStack gap="2" wrap="wrap">
                      <Text fontFamily="mono" fontSize="xs" color="fg.muted">
                        {seller.data.sellerCode}
                      </Text>
                      <SellerStatusBadges seller={seller.data} />
                    </HStack>
                  </Stack>
                </HStack>
              ) : (
                <Drawer.Title>Seller</Drawer.Title>
              )}
            </Drawer.Header>
            <Drawer.Body>
              {seller.isPending ? (
                <LoadingState rows={6} label="Loading seller" />
              ) : seller.isError ? (
                <ErrorState message={getErrorMessage(seller.error)} onRetry={() => seller.refetch()} />
              ) : (
                <Tabs.Root defaultValue="profile" colorPalette="brand" lazyMount unmountOnExit variant="line">
                  <Tabs.List>
                    <Tabs.Trigger value="profile">Profile</Tabs.Trigger>
                    <Tabs.Trigger value="documents">Documents</Tabs.Trigger>
                    <Tabs.Trigger value="history">History</Tabs.Trigger>
                  </Tabs.List>
                  <Tabs.Content value="profile">
                    <Stack gap="4">
                      <SellerLifecyclePanel
                        seller={seller.data}
                        canApprove={can('approve')}
                        canEdit={can('edit')}
                      />
                      <SellerLogoPanel seller={seller.data} canEdit={can('edit')} />
                      <Box>
                        <SellerProfileForm
                          key={profileKey(seller.data)}
                          seller={seller.data}
                          canEdit={can('edit')}
                        />
                      </Box>
                      {seller.data.userId ? (
                        <Box alignSelf="flex-start">
                          <VideoCallButton
                            peer={{ id: seller.data.userId, name: seller.data.sellerName, avatarUrl: null }}
                          />
                        </Box>
                      ) : null}
                      {seller.data.userId && permissions.can('view') ? (
                        <Button asChild variant="ghost" size="sm" alignSelf="flex-start">
                          <RouterLink href={`${PERMISSIONS_PAGE}?userId=${seller.data.userId}`}>
                            <ShieldCheck /> Permissions of the seller's user
                          </RouterLink>
                        </Button>
                      ) : null}
                    </Stack>
                  </Tabs.Content>
                  <Tabs.Content value="documents">
                    <SellerDocumentsPanel
                      sellerId={seller.data.id}
                      canEdit={can('edit')}
                      onUploaded={invalidateSellers}
                    />
                  </Tabs.Content>
                  <Tabs.Content value="history">
                    <SellerHistoryTimeline sellerId={seller.data.id} />
                  </Tabs.Content>
                </Tabs.Root>
              )}
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close seller details" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}

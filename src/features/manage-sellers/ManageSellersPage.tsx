import { Badge, Box, Button, Flex, HStack, Skeleton, Stack, Tabs, Text } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { SELLER_PAGE_SIZES, type SellerTabKey, sellerTabs } from '../../../contracts/sellers';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { PageSizeSelect } from '../../ui/list-controls';
import { EmptyListState, ErrorState, PageHeader } from '../../ui/page-states';
import { Pager } from '../../ui/pager';
import { SearchBox } from '../../ui/search-box';
import { useUrlView } from '../../ui/url-view';
import { useSellerList } from './api';
import { CreateSellerDialog } from './CreateSellerDialog';
import { MANAGE_SELLERS, SellerDrawer } from './SellerDrawer';
import { SellersExportMenu } from './SellersExportMenu';
import { SellerTable } from './SellerTable';
import { parseView, type SellerView, toggleSort, viewToSearch } from './url-state';

const sellersHref = (view: SellerView) => `${MANAGE_SELLERS}${viewToSearch(view)}`;

/** Admin seller management: the four tabs of SPEC §2 with their counts, a paged table, and the detail. */
export default function ManageSellersPage() {
  const { view, setView } = useUrlView(parseView, sellersHref);
  const { can } = useRouteActions(MANAGE_SELLERS);
  const [creating, setCreating] = useState(false);

  const onSearch = useCallback((q: string) => setView({ q, page: 1 }, { replace: true }), [setView]);

  const list = useSellerList({
    tab: view.tab,
    skip: (view.page - 1) * view.size,
    limit: view.size,
    sort: view.sort,
    order: view.order,
    query: view.q,
  });
  const counts = list.data?.countHash;
  const rows = list.data?.result ?? [];
  const showSkeleton = list.isPending;

  return (
    <>
      <PageHeader
        title="Manage Sellers"
        description="Verify, approve and look after the marketplace's sellers."
        actions={
          <HStack gap="2">
            {can('export') ? (
              <SellersExportMenu
                view={{ tab: view.tab, query: view.q, sort: view.sort, order: view.order }}
              />
            ) : null}
            {can('create') ? (
              <Button colorPalette="brand" onClick={() => setCreating(true)} data-tour="new-seller">
                <Plus /> New seller
              </Button>
            ) : null}
          </HStack>
        }
      />
      <Tabs.Root
        value={view.tab}
        onValueChange={(event) => setView({ tab: event.value as SellerTabKey, page: 1 })}
        colorPalette="brand"
        variant="line"
      >
        <Tabs.List overflowX="auto" data-tour="seller-tab-list">
          {sellerTabs.map((tab) => (
            // A phone shows the tabs in a row it scrolls sideways: they keep their width, never squeezed
            // under their own text (tests/e2e/phone-width.spec.ts).
            <Tabs.Trigger key={tab.key} value={tab.key} whiteSpace="nowrap" flexShrink={0}>
              {tab.label}
              {counts ? (
                <Badge
                  size="sm"
                  variant={tab.key === view.tab ? 'solid' : 'subtle'}
                  data-testid={`count-${tab.key}`}
                >
                  {counts[tab.countKey]}
                </Badge>
              ) : list.isPending ? (
                <Skeleton height="4" width="6" />
              ) : null}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {/* The chosen tab's panel (the tab's aria-controls points at it): the toolbar and the list. */}
        <Tabs.Content value={view.tab} pt="0">
          <Flex
            gap="3"
            my="4"
            direction={{ base: 'column', md: 'row' }}
            justify="space-between"
            align={{ md: 'center' }}
          >
            <SearchBox
              value={view.q}
              onSearch={onSearch}
              label="Search sellers"
              placeholder="Search by name, code, e-mail or phone"
              data-tour="seller-search"
            />
            <HStack gap="2">
              <Text fontSize="sm" color="fg.muted" whiteSpace="nowrap">
                Rows per page
              </Text>
              <PageSizeSelect
                sizes={SELLER_PAGE_SIZES}
                value={view.size}
                width="20"
                suffix=""
                onChange={(size) => setView({ size, page: 1 })}
              />
            </HStack>
          </Flex>
          {/* The list, or why it is empty: what the page guide points at. */}
          <Box data-tour="seller-table">
            {list.isError ? (
              <ErrorState message={getErrorMessage(list.error)} onRetry={() => list.refetch()} />
            ) : !showSkeleton && rows.length === 0 ? (
              <EmptyListState
                title={view.q ? `No sellers match “${view.q}”` : 'No sellers in this tab'}
                description={
                  view.q
                    ? 'Try another name, code, e-mail or phone, or look in another tab.'
                    : 'Sellers appear here as they move through verification and KYC.'
                }
                pastTheEnd={view.page > 1}
                onFirstPage={() => setView({ page: 1 })}
              />
            ) : (
              <Stack gap="0" opacity={list.isPlaceholderData ? 0.6 : 1} transition="opacity 0.15s">
                <SellerTable
                  rows={rows}
                  loading={showSkeleton}
                  stale={list.isPlaceholderData}
                  skeletonRows={Math.min(view.size, 8)}
                  view={view}
                  hrefOf={(seller) => `${MANAGE_SELLERS}${viewToSearch({ ...view, seller: seller.id })}`}
                  onSort={(field) => setView({ ...toggleSort(view, field), page: 1 })}
                />
                {list.data ? (
                  <Pager
                    skip={(view.page - 1) * view.size}
                    limit={view.size}
                    count={list.data.count}
                    onSkipChange={(skip) => setView({ page: Math.floor(skip / view.size) + 1 })}
                    label="Seller pages"
                  />
                ) : null}
              </Stack>
            )}
          </Box>
        </Tabs.Content>
      </Tabs.Root>
      <CreateSellerDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(seller) => {
          setCreating(false);
          // A new seller is Pending Verification: show that tab with the seller open.
          setView({ tab: 'pending-verification', page: 1, q: '', seller: seller.id });
        }}
      />
      <SellerDrawer sellerId={view.seller} onClose={() => setView({ seller: null })} />
    </>
  );
}

import { Badge, Button, Card, Input, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Link as RouterLink } from 'wouter';
import { CUSTOMER_PAGE_SIZE } from '../../../contracts/customers';
import { getErrorMessage } from '../../services/http';
import { useRouteActions } from '../../services/route-permissions';
import { useCurrentUser } from '../../services/session-queries';
import { EmptyMessage, ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { PagedTable } from '../../ui/paged-table';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { useCustomers } from './api';

const EDIT_PAGE = '/sellers/seller-customers/customer-edit';

/**
 * The marketplace's customers. Admins and staff see all of them with the store each came through; a
 * seller sees only their own store's customers (the server decides, this page only shows the answer).
 */
export default function CustomersPage() {
  const user = useCurrentUser();
  const editPage = useRouteActions(EDIT_PAGE);
  const [search, setSearch] = useState('');
  const [skip, setSkip] = useState(0);
  const query = useDebouncedValue(search.trim());
  const customers = useCustomers({ query, skip, limit: CUSTOMER_PAGE_SIZE });
  const isSeller = user.data?.isSeller ?? false;
  const canOpen = editPage.can('view');

  return (
    <>
      <PageHeader
        title="Customers"
        description={
          isSeller
            ? 'People who registered through your store.'
            : 'Everyone who buys on the marketplace, and the store they registered through.'
        }
      />
      <Card.Root data-tour="customer-table">
        <Card.Body>
          <Input
            data-tour="customer-search"
            mb="4"
            placeholder="Search by name, e-mail or phone"
            aria-label="Search customers"
            maxLength={100}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setSkip(0);
            }}
          />
          {customers.isPending ? (
            <LoadingState rows={6} label="Loading customers" />
          ) : customers.isError ? (
            <ErrorState message={getErrorMessage(customers.error)} onRetry={() => customers.refetch()} />
          ) : customers.data.rows.length === 0 ? (
            query ? (
              <EmptyMessage
                title="No customers match"
                description={`Nobody's name, e-mail or phone contains “${query}”.`}
              />
            ) : (
              <EmptyMessage
                title="No customers yet"
                description={
                  isSeller
                    ? 'Customers who register through your store appear here.'
                    : 'Customers appear here once they register.'
                }
              />
            )
          ) : (
            <PagedTable
              label="Customers"
              pagerLabel="Customer pages"
              skip={skip}
              limit={CUSTOMER_PAGE_SIZE}
              count={customers.data.count}
              onSkipChange={setSkip}
              stale={customers.isPlaceholderData}
              busy={customers.isFetching}
              columns={
                <>
                  <Table.ColumnHeader>Name</Table.ColumnHeader>
                  <Table.ColumnHeader>E-mail</Table.ColumnHeader>
                  <Table.ColumnHeader>Phone</Table.ColumnHeader>
                  {isSeller ? null : <Table.ColumnHeader>Store</Table.ColumnHeader>}
                  <Table.ColumnHeader>Status</Table.ColumnHeader>
                  {canOpen ? <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader> : null}
                </>
              }
            >
              {customers.data.rows.map((customer) => (
                <Table.Row key={customer.id} data-customer-id={customer.id}>
                  <Table.Cell fontWeight="medium">{customer.name}</Table.Cell>
                  <Table.Cell>{customer.email}</Table.Cell>
                  <Table.Cell>{customer.phone || <Text color="fg.subtle">–</Text>}</Table.Cell>
                  {isSeller ? null : (
                    <Table.Cell>
                      {customer.sellerName ?? <Text color="fg.muted">Marketplace</Text>}
                    </Table.Cell>
                  )}
                  <Table.Cell>
                    <Badge colorPalette={customer.isActive ? 'green' : 'gray'}>
                      {customer.isActive ? 'Active' : 'Inactive'}
                    </Badge>
                  </Table.Cell>
                  {canOpen ? (
                    <Table.Cell textAlign="end">
                      <Button asChild size="xs" variant="outline">
                        <RouterLink
                          href={`${EDIT_PAGE}?customerId=${customer.id}`}
                          aria-label={`${editPage.can('edit') ? 'Edit' : 'View'} ${customer.name}`}
                        >
                          {editPage.can('edit') ? 'Edit' : 'View'}
                        </RouterLink>
                      </Button>
                    </Table.Cell>
                  ) : null}
                </Table.Row>
              ))}
            </PagedTable>
          )}
        </Card.Body>
      </Card.Root>
    </>
  );
}

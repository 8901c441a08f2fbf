import { Badge, Card, DataList, Flex, Heading, Image, SimpleGrid, Text } from '@chakra-ui/react';
import { getErrorMessage } from '../../services/http';
import { ErrorState, LoadingState, PageHeader } from '../../ui/page-states';
import { useSellerDashboard } from './api';

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

/** The seller's own landing page: their store and where their account stands. */
export default function GeneralDashboardPage() {
  const dashboard = useSellerDashboard();
  if (dashboard.isPending) return <LoadingState />;
  if (dashboard.isError)
    return <ErrorState message={getErrorMessage(dashboard.error)} onRetry={() => dashboard.refetch()} />;
  const seller = dashboard.data;
  return (
    <>
      <PageHeader title={seller.sellerName} description={`Seller code ${seller.sellerCode}`} />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
        <Card.Root>
          <Card.Header>
            <Heading size="md">Your store</Heading>
          </Card.Header>
          <Card.Body>
            <Flex gap="4" align="flex-start">
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
                  <DataList.ItemValue>{new Date(seller.memberSince).toLocaleDateString()}</DataList.ItemValue>
                </DataList.Item>
                <DataList.Item>
                  <DataList.ItemLabel>Subscription</DataList.ItemLabel>
                  <DataList.ItemValue>
                    <Badge colorPalette={seller.blocked ? 'red' : 'green'}>
                      {seller.blocked ? 'Blocked' : 'Active'}
                    </Badge>
                  </DataList.ItemValue>
                </DataList.Item>
              </DataList.Root>
            </Flex>
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

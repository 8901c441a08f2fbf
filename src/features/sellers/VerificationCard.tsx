import { Alert, Badge, Button, Card, Flex, Heading, List, Stack, Text } from '@chakra-ui/react';
import { sellerDocumentKindLabels } from '../../../contracts/seller-admin';
import type { SellerDashboard } from '../../../contracts/seller-dashboard';
import { statusColor } from '../../lib/status-color';
import { SellerDocumentsPanel } from '../../ui/seller-documents-panel';
import { useResumeShop } from './api';
import { kycPapers, verificationGuide } from './verification';

/** Shown only while the seller is not active: where they stand, what to do, and the upload for KYC. */
export function VerificationCard({ seller }: { seller: SellerDashboard }) {
  const guide = verificationGuide(seller);
  const resume = useResumeShop();
  if (!guide) return null;
  return (
    <Card.Root as="section" aria-labelledby="verification-heading" mb="6" borderColor="border.emphasized">
      <Card.Header>
        <Flex justify="space-between" align="center" gap="2">
          <Heading size="md" id="verification-heading">
            Verification
          </Heading>
          <Badge colorPalette={statusColor(seller.status)}>{seller.status}</Badge>
        </Flex>
      </Card.Header>
      <Card.Body gap="4">
        {guide.rejection ? (
          // The reason is the admin's own text: rendered as text, never as markup.
          <Alert.Root status="error" role="alert" variant="surface">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{`KYC was rejected: ${guide.rejection}`}</Alert.Title>
              <Alert.Description>{guide.description}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        ) : (
          <Alert.Root status={guide.tone}>
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{guide.title}</Alert.Title>
              <Alert.Description>{guide.description}</Alert.Description>
            </Alert.Content>
            {guide.step === 'resume-shop' ? (
              <Button
                size="sm"
                colorPalette="brand"
                alignSelf="center"
                loading={resume.isPending}
                onClick={() => resume.mutate()}
              >
                Resume my shop
              </Button>
            ) : null}
          </Alert.Root>
        )}
        {guide.showDocuments ? (
          <Stack gap="4">
            <Stack gap="2">
              <Text fontWeight="medium">Upload these documents (PDF, JPEG or PNG):</Text>
              <List.Root ps="5" gap="1" aria-label="KYC documents to upload">
                {kycPapers.map((paper) => (
                  <List.Item key={paper.kind}>
                    <Text as="span" fontWeight="medium">
                      {sellerDocumentKindLabels[paper.kind]}
                    </Text>
                    {`: ${paper.what}`}
                  </List.Item>
                ))}
              </List.Root>
            </Stack>
            <Heading size="sm" as="h3">
              Your KYC documents
            </Heading>
            <SellerDocumentsPanel
              sellerId={seller.sellerId}
              canEdit
              emptyDescription="The papers you upload appear here, newest first."
            />
          </Stack>
        ) : null}
      </Card.Body>
    </Card.Root>
  );
}

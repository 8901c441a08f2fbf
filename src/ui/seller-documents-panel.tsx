import { Button, Card, Field, Heading, HStack, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { formatDateTime } from '../../contracts/domain/format';
import {
  type SellerDocument,
  type SellerDocumentKind,
  sellerDocumentKindLabels,
  sellerDocumentKinds,
} from '../../contracts/seller-admin';
import { formatBytes } from '../lib/file-limits';
import { getErrorMessage } from '../services/http';
import { downloadDocument, useSellerDocuments, useUploadDocument } from '../services/seller-documents';
import { FileUploadButton } from './file-upload-button';
import { FormMessage } from './form-parts';
import { notify } from './notify';
import { EmptyMessage, ErrorState, LoadingState } from './page-states';

const kindLabel = (kind: string) => sellerDocumentKindLabels[kind as SellerDocumentKind] ?? kind;

function DownloadButton({ document }: { document: SellerDocument }) {
  const [pending, setPending] = useState(false);
  return (
    <Button
      size="xs"
      variant="ghost"
      loading={pending}
      aria-label={`Download ${document.fileName}`}
      onClick={() => {
        setPending(true);
        downloadDocument(document)
          .catch((error: unknown) => notify({ type: 'error', title: getErrorMessage(error) }))
          .finally(() => setPending(false));
      }}
    >
      <Download /> Download
    </Button>
  );
}

export interface SellerDocumentsPanelProps {
  sellerId: string;
  /** Whether the upload form is offered (the server checks again). */
  canEdit: boolean;
  /** The kind the upload form starts with. */
  initialKind?: SellerDocumentKind;
  /** What else to refresh after an upload (the documents list refreshes itself). */
  onUploaded?: (document: SellerDocument) => unknown;
  /** The empty state's wording, for whoever is looking. */
  emptyDescription?: string;
}

/**
 * KYC papers: the list (newest first) with downloads, and an upload for those who may edit. Used by
 * admins in Manage Sellers and by a seller on their own dashboard.
 */
export function SellerDocumentsPanel({
  sellerId,
  canEdit,
  initialKind = 'identity',
  onUploaded,
  emptyDescription = 'KYC papers the seller or an admin uploads appear here.',
}: SellerDocumentsPanelProps) {
  const documents = useSellerDocuments(sellerId);
  const upload = useUploadDocument({ onUploaded });
  const [kind, setKind] = useState<SellerDocumentKind>(initialKind);
  const [problem, setProblem] = useState<string | null>(null);

  const send = (file: File) => {
    setProblem(null);
    upload.mutate(
      { sellerId, kind, file },
      {
        onSuccess: (document) =>
          notify({ type: 'success', title: 'Document uploaded', description: document.fileName }),
        onError: (error) => setProblem(getErrorMessage(error)),
      },
    );
  };

  return (
    <Stack gap="4">
      {canEdit ? (
        <Card.Root variant="outline">
          <Card.Body gap="3">
            <Heading size="sm" as="h3">
              Upload a document
            </Heading>
            <HStack gap="3" align="flex-end" wrap="wrap">
              <Field.Root w="auto" minW="48">
                <Field.Label>Kind</Field.Label>
                <NativeSelect.Root size="sm">
                  <NativeSelect.Field
                    name="kind"
                    value={kind}
                    onChange={(e) => setKind(e.target.value as SellerDocumentKind)}
                  >
                    {sellerDocumentKinds.map((option) => (
                      <option key={option} value={option}>
                        {sellerDocumentKindLabels[option]}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
              <FileUploadButton
                kind="document"
                inputLabel="Document file"
                testId="document-input"
                onFile={send}
                onRejected={setProblem}
                size="sm"
                colorPalette="brand"
                loading={upload.isPending}
              >
                Choose file
              </FileUploadButton>
            </HStack>
            <Text fontSize="xs" color="fg.muted">
              PDF, JPEG or PNG, up to 5 MB.
            </Text>
            <FormMessage status="error">{problem}</FormMessage>
          </Card.Body>
        </Card.Root>
      ) : null}
      {documents.isPending ? (
        <LoadingState rows={3} label="Loading documents" />
      ) : documents.isError ? (
        <ErrorState message={getErrorMessage(documents.error)} onRetry={() => documents.refetch()} />
      ) : documents.data.result.length === 0 ? (
        <EmptyMessage title="No documents yet" description={emptyDescription} />
      ) : (
        <Table.Root size="sm" aria-label="Documents">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Document</Table.ColumnHeader>
              <Table.ColumnHeader>Kind</Table.ColumnHeader>
              <Table.ColumnHeader>Uploaded</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end" />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {documents.data.result.map((document) => (
              <Table.Row key={document.id}>
                <Table.Cell>
                  <Text truncate maxW="56">
                    {document.fileName}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {formatBytes(document.size)}
                  </Text>
                </Table.Cell>
                <Table.Cell>{kindLabel(document.kind)}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">{formatDateTime(document.uploadedAt)}</Table.Cell>
                <Table.Cell textAlign="end">
                  <DownloadButton document={document} />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Stack>
  );
}

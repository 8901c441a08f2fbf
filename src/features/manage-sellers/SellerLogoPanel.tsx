import { Card, Heading, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { Seller } from '../../../contracts/sellers';
import { getErrorMessage } from '../../services/http';
import { FileUploadButton } from '../../ui/file-upload-button';
import { FormMessage } from '../../ui/form-parts';
import { useUploadLogo } from './api';
import { SellerLogo } from './SellerLogo';

type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading' | 'done'; percent: number; fileName: string }
  | { phase: 'error'; message: string };

/** The current logo and a new one, with the real upload progress (axios onUploadProgress). */
export function SellerLogoPanel({ seller, canEdit }: { seller: Seller; canEdit: boolean }) {
  const upload = useUploadLogo();
  const [state, setState] = useState<UploadState>({ phase: 'idle' });

  const send = (file: File) => {
    setState({ phase: 'uploading', percent: 0, fileName: file.name });
    upload.mutate(
      {
        sellerId: seller.id,
        file,
        onProgress: (fraction) =>
          setState((current) =>
            current.phase === 'uploading' ? { ...current, percent: Math.round(fraction * 100) } : current,
          ),
      },
      {
        onSuccess: () => setState({ phase: 'done', percent: 100, fileName: file.name }),
        onError: (error) => setState({ phase: 'error', message: getErrorMessage(error) }),
      },
    );
  };

  return (
    <Card.Root variant="outline">
      <Card.Body gap="4">
        <HStack gap="4" align="center">
          <SellerLogo name={seller.sellerName} logo={seller.logo} size="xl" />
          <Stack gap="1" flex="1">
            <Heading size="sm">Logo</Heading>
            <Text color="fg.muted" fontSize="sm">
              {seller.logo ? 'Shown wherever the seller appears.' : 'No logo yet.'} PNG, JPEG or WebP, up to 2
              MB.
            </Text>
          </Stack>
          {canEdit ? (
            <FileUploadButton
              kind="logo"
              inputLabel="Logo file"
              testId="logo-input"
              onFile={send}
              onRejected={(message) => setState({ phase: 'error', message })}
              size="sm"
              variant="outline"
              loading={upload.isPending}
              loadingText="Uploading"
            >
              Upload logo
            </FileUploadButton>
          ) : null}
        </HStack>
        {state.phase === 'uploading' || state.phase === 'done' ? (
          <Progress.Root
            value={state.percent}
            size="sm"
            colorPalette={state.phase === 'done' ? 'green' : 'brand'}
          >
            <HStack justify="space-between" mb="1">
              <Progress.Label fontSize="sm">
                {state.phase === 'done' ? `Uploaded ${state.fileName}` : `Uploading ${state.fileName}…`}
              </Progress.Label>
              <Progress.ValueText fontSize="sm" />
            </HStack>
            <Progress.Track aria-label="Logo upload progress">
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        ) : null}
        <FormMessage status="error">{state.phase === 'error' ? state.message : null}</FormMessage>
      </Card.Body>
    </Card.Root>
  );
}

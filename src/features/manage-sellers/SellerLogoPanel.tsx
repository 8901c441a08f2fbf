import { Alert, Button, Card, Heading, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import type { Seller } from '../../../contracts/sellers';
import { checkFile, LOGO_ACCEPT } from '../../lib/file-limits';
import { getErrorMessage } from '../../services/http';
import { useUploadLogo } from './api';
import { SellerLogo } from './SellerLogo';

type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading' | 'done'; percent: number; fileName: string }
  | { phase: 'error'; message: string };

/** The current logo and a new one, with the real upload progress (axios onUploadProgress). */
export function SellerLogoPanel({ seller, canEdit }: { seller: Seller; canEdit: boolean }) {
  const upload = useUploadLogo();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<UploadState>({ phase: 'idle' });

  const send = (file: File) => {
    const problem = checkFile(file, 'logo');
    if (problem) {
      setState({ phase: 'error', message: problem });
      return;
    }
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
            <>
              <input
                ref={input}
                type="file"
                accept={LOGO_ACCEPT}
                hidden
                aria-label="Logo file"
                data-testid="logo-input"
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  event.target.value = '';
                  if (file) send(file);
                }}
              />
              <Button
                size="sm"
                variant="outline"
                loading={upload.isPending}
                loadingText="Uploading"
                onClick={() => input.current?.click()}
              >
                <Upload /> Upload logo
              </Button>
            </>
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
        {state.phase === 'error' ? (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{state.message}</Alert.Title>
          </Alert.Root>
        ) : null}
      </Card.Body>
    </Card.Root>
  );
}

// The company logo: the current one, and a new one uploaded with its real progress. The upload answers
// the stored path, which goes into the form's draft; the section's Save stores it (audited, versioned).
import { Box, HStack, Image, Progress, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { getErrorMessage } from '../../../services/http';
import { uploadWithProgress } from '../../../services/upload-with-progress';
import { FileUploadButton } from '../../../ui/file-upload-button';
import { FormMessage } from '../../../ui/form-parts';

type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading' | 'done'; percent: number; fileName: string }
  | { phase: 'error'; message: string };

export const COMPANY_LOGO_URL = '/api/v1/settings/company/logo';

export function CompanyLogoUpload({
  id,
  value,
  disabled,
  onChange,
}: {
  id: string;
  value: string | null;
  disabled: boolean;
  onChange: (path: string) => void;
}) {
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const send = async (file: File) => {
    setState({ phase: 'uploading', percent: 0, fileName: file.name });
    try {
      const { path } = await uploadWithProgress<{ path: string }>(
        COMPANY_LOGO_URL,
        file,
        {},
        {
          silent: true,
          onProgress: (loaded, total) =>
            setState((current) =>
              current.phase === 'uploading'
                ? { ...current, percent: Math.round((loaded / Math.max(total, 1)) * 100) }
                : current,
            ),
        },
      );
      setState({ phase: 'done', percent: 100, fileName: file.name });
      onChange(path);
    } catch (error) {
      setState({ phase: 'error', message: getErrorMessage(error) });
    }
  };
  return (
    <Stack gap="3" id={id}>
      <HStack gap="4">
        <Box borderWidth="1px" borderRadius="md" p="2" minW="24" minH="16" display="grid" placeItems="center">
          {value ? (
            <Image src={value} alt="Company logo" maxH="16" maxW="40" objectFit="contain" />
          ) : (
            <Text fontSize="sm" color="fg.muted">
              No logo
            </Text>
          )}
        </Box>
        {disabled ? null : (
          <Stack gap="1">
            <FileUploadButton
              kind="logo"
              inputLabel="Company logo file"
              testId="company-logo-input"
              onFile={(file) => void send(file)}
              onRejected={(message) => setState({ phase: 'error', message })}
              size="sm"
              variant="outline"
              loading={state.phase === 'uploading'}
              loadingText="Uploading"
            >
              Upload logo
            </FileUploadButton>
            <Text fontSize="xs" color="fg.muted">
              PNG, JPEG or WebP, up to 2 MB. Printed on invoices. Save to keep it.
            </Text>
          </Stack>
        )}
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
          <Progress.Track aria-label="Company logo upload progress">
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      ) : null}
      <FormMessage status="error">{state.phase === 'error' ? state.message : null}</FormMessage>
    </Stack>
  );
}

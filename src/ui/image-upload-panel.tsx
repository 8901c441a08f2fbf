// One image upload beside the current image: choose a file (checked in the browser first), the upload's
// real progress, then its outcome; a failure is shown here, not toasted. What is uploaded where, and what
// happens with the answer, is the caller's `upload`.
import { Heading, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useState } from 'react';
import { getErrorMessage } from '../services/http';
import { FileUploadButton } from './file-upload-button';
import { FormMessage } from './form-parts';

type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading' | 'done'; percent: number; fileName: string }
  | { phase: 'error'; message: string };

/** The bar's words while the file uploads and once it is stored. */
export type ProgressText = (phase: 'uploading' | 'done', fileName: string) => string;

const fileProgressText: ProgressText = (phase, fileName) =>
  phase === 'done' ? `Uploaded ${fileName}` : `Uploading ${fileName}…`;

export function ImageUploadPanel({
  id,
  image,
  title,
  hint,
  canUpload,
  buttonText,
  inputLabel,
  inputTestId,
  progressLabel,
  progressTestId,
  progressText = fileProgressText,
  check,
  upload,
}: {
  id?: string;
  /** The current image (or its stand-in), shown left of the button. */
  image: ReactNode;
  title?: string;
  /** Small print under the button: what may be uploaded, what happens to it. */
  hint?: string | null;
  /** Without it the panel shows the image only. */
  canUpload: boolean;
  buttonText: string;
  /** The accessible name and test id of the hidden file input (how tests hand it a file). */
  inputLabel: string;
  inputTestId: string;
  /** The progress bar's accessible name. */
  progressLabel: string;
  progressTestId?: string;
  progressText?: ProgressText;
  /** Replaces the default size check of a logo (see FileUploadButton). */
  check?: (file: File) => string | null;
  /** Sends the file, reporting the fraction sent (0 to 1); rejects with the error to show. */
  upload: (file: File, onProgress: (fraction: number) => void) => Promise<unknown>;
}) {
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  const send = async (file: File) => {
    setState({ phase: 'uploading', percent: 0, fileName: file.name });
    try {
      await upload(file, (fraction) =>
        setState((current) =>
          current.phase === 'uploading' ? { ...current, percent: Math.round(fraction * 100) } : current,
        ),
      );
      setState({ phase: 'done', percent: 100, fileName: file.name });
    } catch (error) {
      setState({ phase: 'error', message: getErrorMessage(error) });
    }
  };
  return (
    <Stack gap="3" id={id}>
      <HStack gap="4">
        {image}
        <Stack gap="1">
          {title ? <Heading size="sm">{title}</Heading> : null}
          {canUpload ? (
            <FileUploadButton
              kind="logo"
              inputLabel={inputLabel}
              testId={inputTestId}
              check={check}
              onFile={(file) => void send(file)}
              onRejected={(message) => setState({ phase: 'error', message })}
              size="sm"
              variant="outline"
              loading={state.phase === 'uploading'}
              loadingText="Uploading"
            >
              {buttonText}
            </FileUploadButton>
          ) : null}
          {hint ? (
            <Text fontSize="xs" color="fg.muted">
              {hint}
            </Text>
          ) : null}
        </Stack>
      </HStack>
      {state.phase === 'uploading' || state.phase === 'done' ? (
        <Progress.Root
          value={state.percent}
          size="sm"
          colorPalette={state.phase === 'done' ? 'green' : 'brand'}
        >
          <HStack justify="space-between" mb="1">
            <Progress.Label fontSize="sm">{progressText(state.phase, state.fileName)}</Progress.Label>
            <Progress.ValueText fontSize="sm" />
          </HStack>
          <Progress.Track aria-label={progressLabel} data-testid={progressTestId}>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
      ) : null}
      <FormMessage status="error">{state.phase === 'error' ? state.message : null}</FormMessage>
    </Stack>
  );
}

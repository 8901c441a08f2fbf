import { Button, Field, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { FileUp } from 'lucide-react';
import { type ReactNode, useRef } from 'react';
import { formatBytes } from '../../../lib/file-limits';
import { SHEET_ACCEPT } from '../../../lib/sheet-file';

/**
 * A required sheet field: a hidden input (how tests hand it a file, by its label and test id) behind a
 * button, and the chosen file's name and size.
 */
export function SheetFileField({
  label,
  inputLabel,
  testId,
  helper,
  file,
  onFile,
  error,
  disabled = false,
}: {
  label: string;
  inputLabel: string;
  testId: string;
  helper: ReactNode;
  file: File | null;
  onFile: (file: File) => void;
  error?: string;
  disabled?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Field.Root required invalid={Boolean(error)}>
      <Field.Label>
        {label} <Field.RequiredIndicator />
      </Field.Label>
      <input
        ref={input}
        type="file"
        hidden
        accept={SHEET_ACCEPT}
        aria-label={inputLabel}
        data-testid={testId}
        onChange={(event) => {
          const picked = event.target.files?.[0];
          // Cleared, so picking the same file again still fires.
          event.target.value = '';
          if (picked) onFile(picked);
        }}
      />
      <HStack gap="3" wrap="wrap">
        <Button size="sm" variant="outline" onClick={() => input.current?.click()} disabled={disabled}>
          <FileUp /> {file ? 'Choose another file' : 'Choose a file'}
        </Button>
        {file ? (
          <Text fontSize="sm" data-testid="chosen-sheet">
            {file.name} · {formatBytes(file.size)}
          </Text>
        ) : null}
      </HStack>
      <Field.HelperText>{helper}</Field.HelperText>
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** How much of a file has gone out: the sentence (with its percentage) over a bar. */
export function UploadProgress({
  text,
  percent,
  live = false,
}: {
  text: string;
  percent: number;
  live?: boolean;
}) {
  return (
    <Stack gap="1" aria-live={live ? 'polite' : undefined}>
      <Text fontSize="sm">{text}</Text>
      <Progress.Root value={percent} size="sm" colorPalette="brand">
        <Progress.Track aria-label="Upload progress">
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
    </Stack>
  );
}

import { Button, type ButtonProps } from '@chakra-ui/react';
import { Upload } from 'lucide-react';
import { type ReactNode, useRef } from 'react';
import { checkFile, DOCUMENT_ACCEPT, LOGO_ACCEPT } from '../lib/file-limits';

/**
 * A button that opens the file picker for a logo or a document. The picked file is checked in the
 * browser first (size, emptiness): a refusal goes to `onRejected` without a request, an acceptable file
 * to `onFile`; `check` replaces that check (e.g. a stricter list of types). The hidden input keeps its
 * label and test id, which is how tests hand it a file; it is cleared after each pick so that picking
 * the same file again still fires.
 */
export function FileUploadButton({
  kind,
  inputLabel,
  testId,
  check = (file) => checkFile(file, kind),
  onFile,
  onRejected,
  children,
  ...button
}: {
  kind: 'logo' | 'document';
  inputLabel: string;
  testId: string;
  check?: (file: File) => string | null;
  onFile: (file: File) => void;
  onRejected: (message: string) => void;
  children: ReactNode;
} & Pick<ButtonProps, 'size' | 'variant' | 'colorPalette' | 'loading' | 'loadingText'>) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={kind === 'logo' ? LOGO_ACCEPT : DOCUMENT_ACCEPT}
        hidden
        aria-label={inputLabel}
        data-testid={testId}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (!file) return;
          const problem = check(file);
          if (problem) onRejected(problem);
          else onFile(file);
        }}
      />
      <Button {...button} onClick={() => input.current?.click()}>
        <Upload /> {children}
      </Button>
    </>
  );
}

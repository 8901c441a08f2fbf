import { Button, type ButtonProps } from '@chakra-ui/react';
import { type ReactNode, useState } from 'react';
import { downloadWithToken } from '../services/downloads';
import { getErrorMessage } from '../services/http';
import { notify } from './notify';

/**
 * A file behind the access token (an invoice's PDF, a packing slip): a plain link would carry no token,
 * so the button fetches it with the http client and hands it to the browser as a download.
 */
export function DownloadButton({
  path,
  fileName,
  children,
  ...props
}: { path: string; fileName: string; children: ReactNode } & Omit<ButtonProps, 'onClick' | 'children'>) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="xs"
      variant="outline"
      {...props}
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadWithToken(path, fileName);
        } catch (error) {
          notify({ type: 'error', title: 'The download failed', description: getErrorMessage(error) });
        } finally {
          setBusy(false);
        }
      }}
    >
      {children}
    </Button>
  );
}

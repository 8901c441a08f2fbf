// What the browser checks before sending a file, to answer at once; the server decides by content.
import { DOCUMENT_MAX_BYTES, LOGO_MAX_BYTES } from '../../contracts/seller-admin';

export const LOGO_ACCEPT = 'image/png,image/jpeg,image/webp';
export const DOCUMENT_ACCEPT = 'application/pdf,image/jpeg,image/png,.pdf,.jpg,.jpeg,.png';

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A message when the file is clearly not acceptable, else null. */
export function checkFile(file: File, kind: 'logo' | 'document'): string | null {
  const max = kind === 'logo' ? LOGO_MAX_BYTES : DOCUMENT_MAX_BYTES;
  if (file.size === 0) return 'The file is empty.';
  if (file.size > max) return `The file is larger than ${megabytes(max)}.`;
  return null;
}

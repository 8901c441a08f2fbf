// Files behind the access token (exports, sample sheets, uploaded documents): a plain link would carry
// no token, so they are fetched with the http client (the bearer token and its silent refresh apply)
// and handed to the browser as a download. One implementation for every feature that downloads.
import { ApiError, http } from './http';

/** The file name of a `Content-Disposition` header (RFC 6266, `filename*` first). */
export function fileNameFromDisposition(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"([^"]+)"|filename\s*=\s*([^;\s]+)/.exec(header);
  return plain?.[1] ?? plain?.[2] ?? null;
}

/** A failed blob request carries its JSON error body as a Blob: read the server's message out of it. */
export async function downloadErrorMessage(error: unknown): Promise<string> {
  if (error instanceof ApiError) {
    if (error.data instanceof Blob) {
      try {
        const body = JSON.parse(await error.data.text()) as { message?: unknown };
        if (typeof body.message === 'string' && body.message) return body.message;
      } catch {
        // not JSON: use the generic wording below
      }
    }
    return error.message;
  }
  return error instanceof Error && error.message ? error.message : 'The download failed.';
}

/** Hands a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Give the browser time to start reading the blob before it is freed.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Downloads `path` with the token and saves it, named by the server (else `fallbackName`). Answers the
 * name; rejects with the server's message.
 */
export async function downloadWithToken(path: string, fallbackName: string): Promise<string> {
  try {
    const response = await http.get(path, { responseType: 'blob', silent: true });
    const name = fileNameFromDisposition(response.headers['content-disposition']) ?? fallbackName;
    saveBlob(response.data as Blob, name);
    return name;
  } catch (error) {
    throw new Error(await downloadErrorMessage(error));
  }
}

/**
 * Downloads a file a task wrote (`/api/v1/exports/{taskId}/download`) and saves it, named by the server,
 * else by its task id. Rejects with the server's message.
 */
export const downloadTaskFile = (path: string): Promise<string> =>
  downloadWithToken(path, path.split('/').at(-2) ?? 'download');

// Uploads a file with real progress: a multipart POST on the shared HTTP client (http.ts), whose
// browser adapter is XMLHttpRequest and so reports upload progress (fetch does not). Everything else
// is the client's: the default params, the bearer token (never to third parties), the no-token
// cancellation, one silent refresh and retry on a 401, the task handler for a `taskStatus` answer,
// and failures as ApiError with the server's `{ message }`, toasted unless `silent`.
import { http } from './http';

export interface UploadOptions {
  /** Bytes sent so far and in all (the whole form, so a little more than the file). */
  onProgress?: (loaded: number, total: number) => void;
  /** Aborts the upload; the promise then rejects with a cancelled ApiError (nothing to show). */
  signal?: AbortSignal;
  /** Do not toast a failure: the caller shows it (e.g. beside the upload). */
  silent?: boolean;
  /** The form field that carries the file (default `file`). */
  fieldName?: string;
}

/**
 * POSTs `file` (and `fields`, sent first so the server reads them before the file) as
 * multipart/form-data to `url`, reporting progress; resolves with the parsed JSON answer.
 */
export async function uploadWithProgress<T>(
  url: string,
  file: Blob,
  fields: Record<string, string> = {},
  options: UploadOptions = {},
): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(options.fieldName ?? 'file', file);
  const { onProgress } = options;
  const response = await http.post<T>(url, form, {
    signal: options.signal,
    silent: options.silent,
    // axios reports progress a few times a second and once more when the body is sent.
    onUploadProgress: onProgress && (({ loaded, total }) => onProgress(loaded, total ?? loaded)),
  });
  return response.data;
}

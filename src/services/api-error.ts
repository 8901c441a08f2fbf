// The error every API call of the SPA rejects with, and the one way to word any failure for the user.
// Free of axios, so the entry chunk can use it before the HTTP client (http.ts) has loaded.

export interface ApiErrorInit {
  message: string;
  /** HTTP status; 0 when there was no response. */
  status: number;
  code: string;
  /** True when the request never went out or was cancelled by the app: nothing to show the user. */
  cancelled?: boolean;
  data?: unknown;
  cause?: unknown;
}

/** What every request of `http` rejects with. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly cancelled: boolean;
  readonly data: unknown;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.cancelled = init.cancelled ?? false;
    this.data = init.data;
  }
}

/** The message to show for any failure (an ApiError, an axios error, a validation error, anything). */
export function getErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error && typeof error === 'object' && 'issues' in error && Array.isArray(error.issues)) {
    const first: unknown = error.issues[0];
    if (first && typeof first === 'object' && 'message' in first && typeof first.message === 'string')
      return first.message;
  }
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'An error occurred';
}

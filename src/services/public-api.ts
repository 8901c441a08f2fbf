// The public pages' requests (the enquiry form, the chat widget): no sign-in, loaded inside storefronts.
// Plain `fetch`, not the app's axios client: these pages need neither tokens nor refreshes, and their
// chunks stay small. Failures reject with ApiError, worded for a customer; answers are `unknown` until
// the caller's hand-written shape checks (classic zod would pull the contracts' values in).
import { ApiError } from './api-error';

export interface PublicApiWords {
  /** When the request never reached the server ("Could not reach the shop…"). */
  unreachable: string;
  /** When the server answered 429 without a message of its own. */
  tooMany?: string;
}

const SOMETHING_WENT_WRONG = 'Something went wrong. Please try again.';

/** A JSON request function for one public page: GET with no body, POST with a JSON one. */
export function publicApi(words: PublicApiWords) {
  return async function request(
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    /** A page's own proof (an auction bidder's token). */
    headers: Record<string, string> = {},
  ): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          ...(body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (cause) {
      throw new ApiError({ message: words.unreachable, status: 0, code: 'NETWORK_ERROR', cause });
    }
    const data: unknown = await response.json().catch(() => null);
    if (response.ok) return data;
    const message =
      isRecord(data) && typeof data.message === 'string' && data.message
        ? data.message
        : response.status === 429 && words.tooMany
          ? words.tooMany
          : SOMETHING_WENT_WRONG;
    const code = isRecord(data) && typeof data.code === 'string' ? data.code : `HTTP_${response.status}`;
    throw new ApiError({ message, status: response.status, code, data });
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** For a shape check that failed: the answer is not what the page can show. */
export function unexpectedAnswer(data: unknown): never {
  throw new ApiError({
    message: 'Unexpected answer from the server',
    status: 0,
    code: 'INVALID_RESPONSE',
    data,
  });
}

// The public mail-link endpoints. "helper" requests go out without an access token (SPEC §5).
import type {
  CollectResponseBody,
  ResponseLinkQuery,
  ResponseOptions,
  UnsubscribeBody,
} from '../../../contracts/mail-links';
import { http } from '../../services/http';

const BASE = '/api/v1/helperQuery/method';

export async function unsubscribeEmail(body: UnsubscribeBody): Promise<{ message: string }> {
  return (await http.post<{ message: string }>(`${BASE}/unsubscribeEmailUser`, body, { silent: true })).data;
}

export async function collectResponse(body: CollectResponseBody): Promise<{ message: string }> {
  return (await http.post<{ message: string }>(`${BASE}/collectResponse`, body, { silent: true })).data;
}

/** The campaign's answers (the only ones recorded) and the recipient's current one. */
export async function responseOptions(link: ResponseLinkQuery): Promise<ResponseOptions> {
  return (await http.get<ResponseOptions>(`${BASE}/responseOptions`, { params: link, silent: true })).data;
}

/** The signed parameters a mail link carries; null when one the page needs is missing. */
export function linkParams(search: string, needed: readonly string[]): Record<string, string> | null {
  const params = Object.fromEntries(new URLSearchParams(search));
  return needed.every((name) => params[name]) ? params : null;
}

export interface PageTexts {
  text: string;
  storefrontUrl: string | null;
  termsUrl: string | null;
}

/** Settings → Content's text for the page (plain text; empty: the page's own wording) and its links. */
export async function pageTexts(page: 'unsubscribe' | 'response'): Promise<PageTexts> {
  const language = typeof navigator === 'undefined' ? undefined : navigator.language?.slice(0, 2);
  const params = language && /^[a-z]{2}$/i.test(language) ? { page, language } : { page };
  return (await http.get<PageTexts>(`${BASE}/pageTexts`, { params, silent: true })).data;
}

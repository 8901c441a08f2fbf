import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { safeEqual } from '../../lib/secrets';
import { getOrCreateSetting } from '../../lib/settings';

type Purpose = 'unsubscribe' | 'response';

/** Where mail clients POST a one-click unsubscribe (routes.ts). */
export const ONE_CLICK_PATH = '/api/v1/helperQuery/method/oneClickUnsubscribe';

/**
 * Signed links for e-mail recipients who have no account. The token is an HMAC of the purpose, the
 * address and the campaign under a server secret: a link works only for the address it was sent to,
 * and cannot be turned into an unsubscribe or an answer for anyone else.
 */
export interface MailLinks {
  unsubscribeUrl(email: string): string;
  /** The RFC 8058 List-Unsubscribe URL: a mail client POSTs `List-Unsubscribe=One-Click` to it. */
  oneClickUnsubscribeUrl(email: string): string;
  /** `response` preselects an answer (one-click buttons in a mail); the recipient can still change it. */
  responseUrl(email: string, campaign: string, response?: string): string;
  verify(purpose: Purpose, token: string, email: string, campaign?: string): boolean;
}

function sign(secret: string, purpose: Purpose, email: string, campaign = ''): string {
  return createHmac('sha256', secret)
    .update(`${purpose}\n${email.trim().toLowerCase()}\n${campaign}`)
    .digest('base64url');
}

export function createMailLinks(secret: string, publicUrl: string): MailLinks {
  const url = (path: string, params: Record<string, string>) =>
    `${publicUrl}${path}?${new URLSearchParams(params).toString()}`;
  return {
    unsubscribeUrl: (email) => url('/unsubscribe', { email, token: sign(secret, 'unsubscribe', email) }),
    // The same proof as the page's link: whoever may follow one may follow the other.
    oneClickUnsubscribeUrl: (email) =>
      url(ONE_CLICK_PATH, { email, token: sign(secret, 'unsubscribe', email) }),
    responseUrl: (email, campaign, response) =>
      url('/responseCollection', {
        email,
        campaign,
        token: sign(secret, 'response', email, campaign),
        ...(response ? { response } : {}),
      }),
    verify: (purpose, token, email, campaign) => safeEqual(token, sign(secret, purpose, email, campaign)),
  };
}

/**
 * The links of a test mail (a campaign sent to its author): they open the same pages, which say that
 * the link works and that nothing changes. A signed link would unsubscribe the author, or count their
 * answer among the campaign's responses.
 */
export function createTestMailLinks(publicUrl: string): MailLinks {
  const url = (path: string, params: Record<string, string> = {}) =>
    `${publicUrl}${path}?${new URLSearchParams({ test: '1', ...params }).toString()}`;
  return {
    unsubscribeUrl: () => url('/unsubscribe'),
    oneClickUnsubscribeUrl: () => url('/unsubscribe'),
    responseUrl: (_email, _campaign, response) => url('/responseCollection', response ? { response } : {}),
    verify: () => false,
  };
}

/** MAIL_LINK_SECRET when set; otherwise one generated on first start and kept in the settings table. */
export async function mailLinkSecret(db: Db, configured: string | undefined): Promise<string> {
  return (
    configured ??
    (await getOrCreateSetting(db, 'mail.linkSecret', () => randomBytes(48).toString('base64url')))
  );
}

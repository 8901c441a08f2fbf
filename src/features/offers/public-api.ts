// The customer's offer page's calls (no account: the signed link is the proof). Plain fetch and types
// only from the contract, as the other public pages do, so the page's chunk stays small.
import type { PublicOffer, PublicResponseResult } from '../../../contracts/offers';
import { isRecord, publicApi, unexpectedAnswer } from '../../services/public-api';

const request = publicApi({
  unreachable: 'Could not reach the shop. Check your connection and try again.',
  tooMany: 'Too many attempts. Please wait a minute and try again.',
});

const BASE = '/api/v1/offers/public';

export async function loadPublicOffer(token: string): Promise<PublicOffer> {
  const data = await request('GET', `${BASE}/${encodeURIComponent(token)}`);
  if (!isRecord(data) || !isRecord(data.offer) || typeof data.version !== 'number') unexpectedAnswer(data);
  return data as unknown as PublicOffer;
}

export async function answerOffer(
  token: string,
  decision: 'accept' | 'decline',
  body: { typedName: string; comment: string },
): Promise<PublicResponseResult> {
  const data = await request('POST', `${BASE}/${encodeURIComponent(token)}/${decision}`, body);
  if (!isRecord(data) || typeof data.decision !== 'string') unexpectedAnswer(data);
  return data as unknown as PublicResponseResult;
}

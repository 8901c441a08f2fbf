// The public auction page's calls (no account: the signed link, then the bidder's token). Plain fetch
// and types only from the contract, as the other public pages do, so the page's chunk stays small.
import type { BidderSession, BidResult, LiveSnapshot, PublicAuction } from '../../../contracts/auctions';
import type { OrderAddress } from '../../../contracts/orders';
import { isRecord, publicApi, unexpectedAnswer } from '../../services/public-api';

const request = publicApi({
  unreachable: 'Could not reach the auction. Check your connection and try again.',
  tooMany: 'Too many attempts. Please wait a minute and try again.',
});

const base = (token: string) => `/api/v1/auctions/public/${encodeURIComponent(token)}`;
const bidderHeader = (session: BidderSession) => ({ 'x-bidder-token': session.bidderToken });

export async function loadPublicAuction(token: string): Promise<PublicAuction> {
  const data = await request('GET', base(token));
  if (!isRecord(data) || !isRecord(data.snapshot) || typeof data.title !== 'string') unexpectedAnswer(data);
  return data as unknown as PublicAuction;
}

export async function loadLiveSnapshot(token: string): Promise<LiveSnapshot> {
  const data = await request('GET', `${base(token)}/live`);
  if (!isRecord(data) || !isRecord(data.state)) unexpectedAnswer(data);
  return data as unknown as LiveSnapshot;
}

export async function registerToBid(token: string, body: { name: string; email: string }) {
  const data = await request('POST', `${base(token)}/register`, body);
  if (!isRecord(data) || typeof data.registrationId !== 'string') unexpectedAnswer(data);
  return data as { registrationId: string; message: string };
}

export async function confirmCode(token: string, body: { registrationId: string; code: string }) {
  const data = await request('POST', `${base(token)}/confirm`, body);
  if (!isRecord(data) || typeof data.bidderToken !== 'string') unexpectedAnswer(data);
  return data as unknown as BidderSession;
}

export async function placePublicBid(
  token: string,
  session: BidderSession,
  body: { maxMinor: number; currency: string },
): Promise<BidResult> {
  const data = await request('POST', `${base(token)}/bids`, body, bidderHeader(session));
  if (!isRecord(data) || !isRecord(data.state)) unexpectedAnswer(data);
  return data as unknown as BidResult;
}

export async function claimWin(token: string, session: BidderSession, shippingAddress: OrderAddress) {
  const data = await request('POST', `${base(token)}/claim`, { shippingAddress }, bidderHeader(session));
  if (!isRecord(data) || typeof data.message !== 'string') unexpectedAnswer(data);
  return data as { orderNumber: number; message: string };
}

/** MQTT_WS_URL when the site runs its own broker (null: /mqtt on this origin). */
export async function brokerAddress(): Promise<string | null> {
  const data = await request('GET', '/api/v1/globalConfigs/runtime').catch(() => null);
  return isRecord(data) && typeof data.mqttUrl === 'string' ? data.mqttUrl : null;
}

/** Where this browser keeps its bidder token for an auction. */
const sessionKey = (auctionId: string) => `mp.auction.bidder.${auctionId}`;

export function storedBidder(auctionId: string): BidderSession | null {
  try {
    const value = JSON.parse(localStorage.getItem(sessionKey(auctionId)) ?? 'null') as unknown;
    return isRecord(value) && typeof value.bidderToken === 'string'
      ? (value as unknown as BidderSession)
      : null;
  } catch {
    return null;
  }
}

export function storeBidder(auctionId: string, session: BidderSession | null): void {
  try {
    if (session) localStorage.setItem(sessionKey(auctionId), JSON.stringify(session));
    else localStorage.removeItem(sessionKey(auctionId));
  } catch {
    // Private browsing without storage: the session lasts as long as the page.
  }
}

// Offers (issue 30; ANCHORS §8): the list, a request's page, the draft priced on the server, sending a
// frozen version by a signed link, the customer's answer through that link, and expiry. A seller sees
// only their own shop's offers (another's answer 404). Money: integer minor units.
import { createHash, createHmac } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { priceOffer } from '../../../contracts/domain/offer-pricing';
import { type OfferStatus, offerStatuses } from '../../../contracts/domain/offer-status';
import {
  defaultValidUntil,
  isWithinValidity,
  validityEnd,
  validityProblem,
} from '../../../contracts/domain/validity-day';
import type {
  OfferChoices,
  OfferDetail,
  OfferDraftBody,
  OfferList,
  OfferListItem,
  OfferListQuery,
  OfferPricing,
  OfferTabs,
  PublicOffer,
  PublicResponseBody,
  PublicResponseResult,
} from '../../../contracts/offers';
import { offerPageLink } from '../../../contracts/offers';
import type { Db, Tx } from '../../db/client';
import {
  auditEntries,
  offerResponses,
  offerStatusCounts,
  offers,
  offerVersions,
  products,
  sellers,
  users,
} from '../../db/schema';
import { type Actor, NO_ACTOR, recordAudit } from '../../lib/audit';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { safeEqual } from '../../lib/secrets';
import { countUpToCap, sellerNames, tabbedTotal } from '../../lib/tabbed-list';
import { chargeableKgOf, shippingCharge, shippingRulesOf } from '../settings-company/shipping-quote';
import { offerReference } from './requests';

export interface Viewer {
  userId: string;
  sellerId: string | null;
  isSeller: boolean;
}

export const notFound = () => new HttpError(404, 'There is no such offer.', 'OFFER_NOT_FOUND');
type OfferRow = typeof offers.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function visible(viewer: Viewer): SQL | undefined {
  return viewer.isSeller
    ? eq(offers.sellerId, viewer.sellerId ?? '00000000-0000-0000-0000-000000000000')
    : undefined;
}

export async function findVisible(db: Db | Tx, viewer: Viewer, id: string, lock = false): Promise<OfferRow> {
  const query = db
    .select()
    .from(offers)
    .where(and(eq(offers.id, id), visible(viewer)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound();
  return row;
}

function listItem(row: OfferRow, sellerName: string | null): OfferListItem {
  return {
    id: row.id,
    number: row.number,
    sellerId: row.sellerId,
    sellerName,
    customerName: row.customerName,
    email: row.email,
    status: row.status as OfferStatus,
    currentVersion: row.currentVersion,
    currency: row.currency,
    totalMinor: row.totalMinor,
    expiresAt: iso(row.expiresAt),
    toConvert: row.toConvert,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function readTabs(db: Db, viewer: Viewer, sellerId?: string): Promise<OfferTabs> {
  const seller = viewer.isSeller ? viewer.sellerId : sellerId;
  const rows = await db
    .select({ status: offerStatusCounts.status, n: sql<number>`sum(${offerStatusCounts.offers})::integer` })
    .from(offerStatusCounts)
    .where(seller ? eq(offerStatusCounts.sellerKey, seller) : undefined)
    .groupBy(offerStatusCounts.status);
  const tabs = Object.fromEntries(offerStatuses.map((s) => [s, 0])) as OfferTabs;
  for (const row of rows) if (row.status in tabs) tabs[row.status as OfferStatus] = Number(row.n);
  return tabs;
}

export async function listOffers(db: Db, viewer: Viewer, query: OfferListQuery): Promise<OfferList> {
  const conditions: (SQL | undefined)[] = [visible(viewer)];
  if (query.sellerId && !viewer.isSeller) conditions.push(eq(offers.sellerId, query.sellerId));
  if (query.status) conditions.push(eq(offers.status, query.status));
  if (query.currency) conditions.push(eq(offers.currency, query.currency));
  if (query.from) conditions.push(gte(offers.createdAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to)
    conditions.push(lt(offers.createdAt, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86_400_000)));
  const search = query.query.trim();
  if (search) {
    const number = /^(?:OFR-)?(\d{1,15})$/i.exec(search);
    const text = sql`lower(${offers.customerName} || ' ' || ${offers.email} || ' ' || ${offers.message}) LIKE ${containsPattern(search.toLowerCase())}`;
    conditions.push(number ? or(text, eq(offers.number, Number(number[1]))) : text);
  }
  const where = and(...conditions);
  // With only the seller and status narrowing the list, its total is a tab count (the maintained counters);
  // any other filter counts matches, but no further than the cap: nothing counts a whole table per request.
  const onlyTabs = !query.currency && !query.from && !query.to && !search;
  const [rows, counted, tabs] = await Promise.all([
    db
      .select()
      .from(offers)
      .where(where)
      .orderBy(desc(offers.createdAt), desc(offers.id))
      .offset(query.skip)
      .limit(query.limit),
    onlyTabs ? null : countUpToCap(db, offers, where),
    readTabs(db, viewer, query.sellerId),
  ]);
  const names = await sellerNames(db, [...new Set(rows.map((r) => r.sellerId))]);
  return {
    result: rows.map((r) => listItem(r, names.get(r.sellerId) ?? null)),
    ...tabbedTotal(counted, tabs, query.status),
    tabs,
  };
}

// ---------------------------------------------------------------------------------------------------
// Detail

type OfferApp = Pick<FastifyInstance, 'db' | 'settings'>;

/** The shipping address's country when it is written as a code ("de" → "DE"); names are not guessed. */
export function addressCountry(row: Pick<OfferRow, 'shippingAddress'>): string | null {
  const country = row.shippingAddress?.country?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(country) ? country : null;
}

async function choicesFor(app: OfferApp, row: OfferRow, now = new Date()): Promise<OfferChoices> {
  const settings = await app.settings.effective(row.sellerId);
  return {
    currencies: settings.localization.currencies,
    defaultCurrency: settings.localization.defaultCurrency,
    taxOptions: settings.company.taxOptions,
    shippingCountry: addressCountry(row),
    timeZone: settings.localization.timeZone,
    defaultValidUntil: defaultValidUntil(
      now,
      settings.localization.timeZone,
      settings.company.offerValidityDays,
    ),
  };
}

export async function offerDetail(app: OfferApp, viewer: Viewer, id: string): Promise<OfferDetail> {
  const db = app.db;
  const row = await findVisible(db, viewer, id);
  const [names, versions, responses, history, choices] = await Promise.all([
    sellerNames(db, [row.sellerId]),
    db.select().from(offerVersions).where(eq(offerVersions.offerId, id)).orderBy(asc(offerVersions.version)),
    db
      .select()
      .from(offerResponses)
      .where(eq(offerResponses.offerId, id))
      .orderBy(asc(offerResponses.version)),
    db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.subjectType, 'offer'), eq(auditEntries.subjectId, id)))
      .orderBy(desc(auditEntries.seq))
      .limit(200),
    choicesFor(app, row),
  ]);
  const last = versions.at(-1);
  return {
    ...listItem(row, names.get(row.sellerId) ?? null),
    phone: row.phone,
    message: row.message,
    shippingAddress: row.shippingAddress ?? null,
    requestedItems: row.requestedItems.map((item) => ({
      productId: String(item.productId ?? ''),
      name: String(item.name ?? ''),
      quantity: Number(item.quantity ?? 0),
      note: String(item.note ?? ''),
    })),
    contactId: row.contactId,
    customerId: row.customerId,
    queryId: row.queryId,
    orderId: row.orderId,
    draft: (row.draft as OfferPricing | null) ?? null,
    lastSent: (last?.snapshot as { offer?: OfferPricing } | undefined)?.offer ?? null,
    versions: versions.map((v) => ({
      version: v.version,
      currency: v.currency,
      totalMinor: v.totalMinor,
      validUntil: v.validUntil,
      expiresAt: v.expiresAt.toISOString(),
      sentAt: v.sentAt.toISOString(),
      sentByName: v.sentByName,
      openedAt: iso(v.openedAt),
      snapshotSha256: v.snapshotSha256,
    })),
    responses: responses.map((r) => ({
      version: r.version,
      decision: r.decision as 'accepted' | 'declined',
      typedName: r.typedName,
      comment: r.comment,
      ip: r.ip,
      userAgent: r.userAgent,
      snapshotSha256: r.snapshotSha256,
      createdAt: r.createdAt.toISOString(),
    })),
    history: history.map((h) => ({
      at: h.createdAt.toISOString(),
      actorName: h.actorName,
      action: h.action,
      note: h.note ?? '',
    })),
    canSend:
      row.draft !== null &&
      ((row.draft as OfferPricing).pricingErrors?.length ?? 0) === 0 &&
      row.status !== 'accepted',
    choices,
  };
}

// ---------------------------------------------------------------------------------------------------
// Draft

async function shippingFor(
  app: FastifyInstance,
  row: OfferRow,
  body: OfferDraftBody,
): Promise<{ amountMinor: number } | { error: string }> {
  if (!body.shippingCountry) return { amountMinor: 0 };
  const ids = [...new Set(body.lines.map((l) => l.productId).filter((id): id is string => !!id))];
  const found = ids.length
    ? await app.db
        .select({
          id: products.id,
          weight: products.weight,
          weightUnit: products.weightUnit,
          dimensions: products.dimensions,
        })
        .from(products)
        .where(and(inArray(products.id, ids), eq(products.sellerId, row.sellerId)))
    : [];
  if (found.length !== ids.length)
    throw new HttpError(400, 'Choose products of this shop.', 'PRODUCT_NOT_OF_SELLER');
  const byId = new Map(found.map((p) => [p.id, p]));
  try {
    const rules = await shippingRulesOf(app, row.sellerId);
    const chargeableKg = chargeableKgOf(
      body.lines.flatMap((line) => {
        const product = line.productId ? byId.get(line.productId) : undefined;
        return product ? [{ ...product, quantity: line.quantity }] : [];
      }),
      rules.volumetricDivisor,
    );
    return shippingCharge(rules, { country: body.shippingCountry, chargeableKg }, body.currency);
  } catch (error) {
    return { error: `Shipping could not be quoted: ${(error as Error).message}` };
  }
}

export async function saveDraft(
  app: FastifyInstance,
  viewer: Viewer,
  actor: Actor,
  id: string,
  body: OfferDraftBody,
  now = new Date(),
): Promise<OfferDetail> {
  const row = await findVisible(app.db, viewer, id);
  if (row.status === 'accepted')
    throw new HttpError(409, 'This offer was accepted; it cannot be revised.', 'OFFER_ACCEPTED');
  const settings = await app.settings.effective(row.sellerId);
  if (!settings.localization.currencies.includes(body.currency)) {
    throw new HttpError(
      400,
      `${body.currency} is not a currency this marketplace offers.`,
      'CURRENCY_NOT_OFFERED',
    );
  }
  const timeZone = settings.localization.timeZone;
  const validUntil = body.validUntil ?? defaultValidUntil(now, timeZone, settings.company.offerValidityDays);
  const problem = validityProblem(validUntil, now, timeZone);
  if (problem) throw new HttpError(400, problem, 'VALIDITY_DAY');
  // Taxes and shipping follow where the goods go: the country chosen, else the customer's address's.
  const shippingCountry = body.shippingCountry ?? addressCountry(row);
  const shipping = await shippingFor(app, row, { ...body, shippingCountry });
  let pricing: OfferPricing;
  try {
    pricing = priceOffer({
      lines: body.lines,
      currency: body.currency,
      shippingCountry,
      taxOptions: settings.company.taxOptions,
      validUntil,
      notes: body.notes,
      shipping,
    });
  } catch (error) {
    throw new HttpError(400, `The offer could not be priced: ${(error as Error).message}`, 'PRICING_ERROR');
  }
  await app.db.transaction(async (tx) => {
    await tx
      .update(offers)
      .set({ draft: pricing as unknown as Record<string, unknown>, updatedAt: now })
      .where(eq(offers.id, id));
    await recordAudit(tx, {
      subject: { type: 'offer', id },
      actor,
      action: 'draft',
      note: `Draft saved (version ${row.currentVersion + 1})`,
    });
  });
  return offerDetail(app, viewer, id);
}

// ---------------------------------------------------------------------------------------------------
// Signed links: HMAC-SHA256 of (offer, version, expiry) under the mail-link secret.

export interface OfferLinks {
  token(offerId: string, version: number, expiresAt: Date): string;
  /** The customer's page of the version: PUBLIC_URL/offer/{token}. */
  url(offerId: string, version: number, expiresAt: Date): string;
  /** The parts of a well-formed, correctly signed token; null otherwise. */
  read(token: string): { offerId: string; version: number; expiresAtMs: number } | null;
}

export function createOfferLinks(secret: string, publicUrl: string): OfferLinks {
  const sign = (offerId: string, version: number, exp: number) =>
    createHmac('sha256', secret).update(`offer\n${offerId}\n${version}\n${exp}`).digest('base64url');
  const token = (offerId: string, version: number, expiresAt: Date) =>
    `${offerId}.${version}.${expiresAt.getTime()}.${sign(offerId, version, expiresAt.getTime())}`;
  return {
    token,
    url: (offerId, version, expiresAt) => `${publicUrl}/offer/${token(offerId, version, expiresAt)}`,
    read(token) {
      const match = /^([0-9a-f-]{36})\.(\d{1,9})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return null;
      const [, offerId, version, exp, signature] = match;
      if (!safeEqual(signature!, sign(offerId!, Number(version), Number(exp)))) return null;
      return { offerId: offerId!, version: Number(version), expiresAtMs: Number(exp) };
    },
  };
}

/** Canonical JSON: keys sorted at every depth, so equal snapshots hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function sendOffer(
  app: FastifyInstance,
  links: OfferLinks,
  viewer: Viewer,
  actor: Actor,
  id: string,
  now = new Date(),
): Promise<OfferDetail> {
  const sent = await app.db.transaction(async (tx) => {
    const row = await findVisible(tx, viewer, id, true);
    if (row.status === 'accepted')
      throw new HttpError(409, 'This offer was accepted; it cannot be revised.', 'OFFER_ACCEPTED');
    const draft = row.draft as OfferPricing | null;
    if (!draft) throw new HttpError(409, 'Save a draft before sending the offer.', 'NO_DRAFT');
    if (draft.pricingErrors.length) {
      throw new HttpError(409, `The offer cannot be sent: ${draft.pricingErrors.join(' ')}`, 'PRICING_ERROR');
    }
    const settings = await app.settings.effective(row.sellerId);
    const timeZone = settings.localization.timeZone;
    const problem = validityProblem(draft.validUntil, now, timeZone);
    if (problem) throw new HttpError(409, problem, 'VALIDITY_DAY');
    const expiresAt = validityEnd(draft.validUntil, timeZone);
    const version = row.currentVersion + 1;
    const [seller] = await tx
      .select({ name: sellers.sellerName })
      .from(sellers)
      .where(eq(sellers.id, row.sellerId));
    const snapshot = {
      number: row.number,
      reference: offerReference(row.number),
      version,
      seller: { id: row.sellerId, name: seller?.name ?? '' },
      customer: {
        name: row.customerName,
        email: row.email,
        phone: row.phone,
        shippingAddress: row.shippingAddress ?? null,
      },
      offer: draft,
      timeZone,
      expiresAt: expiresAt.toISOString(),
    };
    const hash = sha256(canonicalJson(snapshot));
    await tx.insert(offerVersions).values({
      offerId: id,
      version,
      snapshot,
      snapshotSha256: hash,
      currency: draft.currency,
      totalMinor: draft.totals.totalMinor,
      validUntil: draft.validUntil,
      expiresAt,
      sentBy: actor.id,
      sentByName: actor.name,
      sentAt: now,
    });
    await tx
      .update(offers)
      .set({
        status: 'offered',
        currentVersion: version,
        currency: draft.currency,
        totalMinor: draft.totals.totalMinor,
        expiresAt,
        reminderSentAt: null,
        updatedAt: now,
      })
      .where(eq(offers.id, id));
    await recordAudit(tx, {
      subject: { type: 'offer', id },
      actor,
      action: 'sent',
      note: `Version ${version} sent to ${row.email}, valid until ${draft.validUntil}`,
    });
    return { row, version, expiresAt, draft, sellerName: seller?.name ?? '' };
  });
  const url = links.url(id, sent.version, sent.expiresAt);
  await app.mailer.send({
    to: sent.row.email,
    subject: `Your offer ${offerReference(sent.row.number)} from ${sent.sellerName}`,
    text: `Hello ${sent.row.customerName},\n\n${sent.sellerName} sent you an offer (version ${sent.version}), valid until ${sent.draft.validUntil}.\nOpen it to accept or decline:\n\n${url}\n`,
  });
  return offerDetail(app, viewer, id);
}

// ---------------------------------------------------------------------------------------------------
// The public link

const invalidLink = () =>
  new HttpError(
    404,
    'This offer link is not valid. Use the link from your latest offer e-mail.',
    'OFFER_LINK_INVALID',
  );

async function versionOfToken(db: Db | Tx, links: OfferLinks, token: string) {
  const parts = links.read(token);
  if (!parts) throw invalidLink();
  const [version] = await db
    .select()
    .from(offerVersions)
    .where(and(eq(offerVersions.offerId, parts.offerId), eq(offerVersions.version, parts.version)));
  if (!version || version.expiresAt.getTime() !== parts.expiresAtMs) throw invalidLink();
  return version;
}

function expiredText(validUntil: string) {
  return `This offer expired on ${validUntil}. Ask the shop for a new one.`;
}

export async function publicOffer(
  app: FastifyInstance,
  links: OfferLinks,
  token: string,
  now = new Date(),
): Promise<PublicOffer> {
  const version = await versionOfToken(app.db, links, token);
  const [row] = await app.db.select().from(offers).where(eq(offers.id, version.offerId));
  if (!row) throw invalidLink();
  if (!version.openedAt) {
    const opened = await app.db
      .update(offerVersions)
      .set({ openedAt: now })
      .where(
        and(
          eq(offerVersions.offerId, version.offerId),
          eq(offerVersions.version, version.version),
          sql`${offerVersions.openedAt} IS NULL`,
        ),
      )
      .returning({ version: offerVersions.version });
    if (opened.length) {
      await recordAudit(app.db, {
        subject: { type: 'offer', id: row.id },
        actor: NO_ACTOR,
        action: 'opened',
        note: `The customer opened version ${version.version}`,
      });
      await notifySeller(
        app,
        row,
        `Offer ${offerReference(row.number)} opened`,
        `${row.customerName} opened version ${version.version}.`,
      );
    }
  }
  const [response] = await app.db
    .select()
    .from(offerResponses)
    .where(and(eq(offerResponses.offerId, row.id), eq(offerResponses.version, version.version)));
  const superseded = row.currentVersion > version.version;
  let newerToken: string | null = null;
  if (superseded) {
    const [newest] = await app.db
      .select({ version: offerVersions.version, expiresAt: offerVersions.expiresAt })
      .from(offerVersions)
      .where(and(eq(offerVersions.offerId, row.id), eq(offerVersions.version, row.currentVersion)));
    if (newest) newerToken = links.token(row.id, newest.version, newest.expiresAt);
  }
  const snapshot = version.snapshot as { offer: OfferPricing; seller: { name: string } };
  let reason: string | null = null;
  if (response)
    reason = `You ${response.decision} this offer on ${response.createdAt.toISOString().slice(0, 10)}.`;
  else if (superseded) reason = `A newer version (${row.currentVersion}) of this offer was sent to you.`;
  else if (!isWithinValidity(version.expiresAt, now)) reason = expiredText(version.validUntil);
  else if (row.status !== 'offered') reason = 'This offer can no longer be answered.';
  return {
    number: row.number,
    version: version.version,
    sellerName: snapshot.seller.name,
    customerName: row.customerName,
    status: superseded ? 'offered' : (row.status as OfferStatus),
    offer: snapshot.offer,
    expiresAt: version.expiresAt.toISOString(),
    sentAt: version.sentAt.toISOString(),
    newerVersion: superseded ? row.currentVersion : null,
    newerToken,
    canRespond: reason === null,
    reason,
    response: response
      ? {
          decision: response.decision as 'accepted' | 'declined',
          typedName: response.typedName,
          createdAt: response.createdAt.toISOString(),
        }
      : null,
  };
}

async function notifySeller(app: FastifyInstance, row: OfferRow, title: string, body: string) {
  const sellerUsers = await app.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.sellerId, row.sellerId));
  for (const user of sellerUsers) {
    await app.notifications
      .notify(user.id, { type: 'offer', title, body, link: offerPageLink(row.id) })
      .catch((error) => app.log.warn({ err: error }, 'offer notification failed'));
  }
}

export async function respondToOffer(
  app: FastifyInstance,
  links: OfferLinks,
  token: string,
  decision: 'accepted' | 'declined',
  body: PublicResponseBody,
  evidence: { ip: string; userAgent: string },
  now = new Date(),
): Promise<PublicResponseResult> {
  const result = await app.db.transaction(async (tx) => {
    const version = await versionOfToken(tx, links, token);
    const [row] = await tx.select().from(offers).where(eq(offers.id, version.offerId)).for('update');
    if (!row) throw invalidLink();
    const [earlier] = await tx
      .select()
      .from(offerResponses)
      .where(and(eq(offerResponses.offerId, row.id), eq(offerResponses.version, version.version)));
    if (earlier) {
      return {
        row,
        recorded: false,
        answer: {
          decision: earlier.decision as 'accepted' | 'declined',
          version: earlier.version,
          typedName: earlier.typedName,
          createdAt: earlier.createdAt.toISOString(),
          recorded: false,
        },
      };
    }
    if (row.currentVersion > version.version) {
      throw new HttpError(
        409,
        `A newer version (${row.currentVersion}) of this offer was sent to you; answer that one.`,
        'OFFER_SUPERSEDED',
      );
    }
    if (!isWithinValidity(version.expiresAt, now))
      throw new HttpError(409, expiredText(version.validUntil), 'OFFER_EXPIRED');
    if (row.status !== 'offered')
      throw new HttpError(409, 'This offer can no longer be answered.', 'OFFER_CLOSED');
    await tx.insert(offerResponses).values({
      offerId: row.id,
      version: version.version,
      decision,
      typedName: body.typedName,
      comment: body.comment,
      ip: evidence.ip,
      userAgent: evidence.userAgent.slice(0, 500),
      snapshotSha256: version.snapshotSha256,
      createdAt: now,
    });
    await tx
      .update(offers)
      .set({ status: decision, toConvert: decision === 'accepted', updatedAt: now })
      .where(eq(offers.id, row.id));
    await recordAudit(tx, {
      subject: { type: 'offer', id: row.id },
      actor: { id: null, name: body.typedName },
      action: decision,
      note: `Version ${version.version} ${decision} by ${body.typedName} (SHA-256 ${version.snapshotSha256.slice(0, 12)}…)`,
    });
    return {
      row,
      recorded: true,
      answer: {
        decision,
        version: version.version,
        typedName: body.typedName,
        createdAt: now.toISOString(),
        recorded: true,
      },
    };
  });
  if (result.recorded) {
    await notifySeller(
      app,
      result.row,
      `Offer ${offerReference(result.row.number)} ${decision}`,
      `${result.answer.typedName} ${decision} version ${result.answer.version}.`,
    );
  }
  return result.answer;
}

// ---------------------------------------------------------------------------------------------------
// Expiry and reminders

/**
 * Marks offered offers past their end as expired (the status counts follow by trigger), and mails a
 * reminder company.offerReminderDays before the end, once per version (reminderSentAt).
 */
export async function runOfferExpiry(app: FastifyInstance, links: OfferLinks, now = new Date()) {
  const expired = await app.db
    .update(offers)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(offers.status, 'offered'), lte(offers.expiresAt, now)))
    .returning({ id: offers.id, version: offers.currentVersion });
  if (expired.length) {
    const { recordAuditEntries } = await import('../../lib/audit');
    await recordAuditEntries(
      app.db,
      expired.map((e) => ({
        subject: { type: 'offer' as const, id: e.id },
        actor: NO_ACTOR,
        action: 'expired',
        note: `Version ${e.version} expired`,
      })),
    );
  }
  // Reminder candidates: offered, not reminded, ending within the longest reminder window (60 days).
  const candidates = await app.db
    .select()
    .from(offers)
    .where(
      and(
        eq(offers.status, 'offered'),
        sql`${offers.reminderSentAt} IS NULL`,
        lte(offers.expiresAt, new Date(now.getTime() + 61 * 86_400_000)),
      ),
    )
    // The soonest ends first: with more than a batch waiting, no reminder comes after its offer ended.
    .orderBy(asc(offers.expiresAt))
    .limit(500);
  let reminded = 0;
  for (const row of candidates) {
    const settings = await app.settings.effective(row.sellerId);
    const days = settings.company.offerReminderDays;
    if (days <= 0 || !row.expiresAt) continue;
    if (row.expiresAt.getTime() - now.getTime() > days * 86_400_000) continue;
    const claimed = await app.db
      .update(offers)
      .set({ reminderSentAt: now })
      .where(and(eq(offers.id, row.id), sql`${offers.reminderSentAt} IS NULL`, eq(offers.status, 'offered')))
      .returning({ id: offers.id });
    if (!claimed.length) continue;
    const url = links.url(row.id, row.currentVersion, row.expiresAt);
    await app.mailer.send({
      to: row.email,
      subject: `Reminder: your offer ${offerReference(row.number)} ends soon`,
      text: `Hello ${row.customerName},\n\nyour offer ${offerReference(row.number)} is valid until ${row.expiresAt.toISOString().slice(0, 10)} (shop time zone ${settings.localization.timeZone}).\n\n${url}\n`,
    });
    reminded++;
  }
  return { expired: expired.length, reminded };
}

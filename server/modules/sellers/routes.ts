import fastifyMultipart from '@fastify/multipart';
import { and, asc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditPageSchema, auditQuerySchema } from '../../../contracts/audit';
import {
  createSellerBodySchema,
  DOCUMENT_MAX_BYTES,
  fillerSellersQuerySchema,
  fillerSellersSchema,
  markSellerFreeBodySchema,
  markSellerFreeQuerySchema,
  nextSellerCodeSchema,
  sellerDetailSchema,
  updateSellerBodySchema,
  updateSellerStatusBodySchema,
  updateStatusBySellerBodySchema,
} from '../../../contracts/seller-admin';
import { sellerSchema } from '../../../contracts/sellers';
import { type FieldChange, sellers } from '../../db/schema';
import { diffFields, readAuditPage, recordAudit } from '../../lib/audit';
import { resourceErrors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { isUniqueViolation } from '../../lib/pg-errors';
import { STATE_CHANGING_GET_NOTE, stateChangingGet } from '../../lib/state-changing-get';
import { actorOf } from '../users/actor';
import { manage, SELLER_SELF } from './access';
import { sellerDocumentRoutes } from './document-routes';
import { sellerStatus, toSellerDto } from './dto';
import { sellerSelfTransition, type Transition, transition } from './lifecycle';
import { sellerLogoRoutes } from './logo-routes';
import {
  asDuplicateError,
  assertUnique,
  findSeller,
  nextSellerCode,
  type SellerRow,
  sellerNotFound,
  sellerUserId,
  updateSeller,
} from './repository';

export const sellerIdParams = z.object({ id: z.string().uuid('id must be a seller id') });
export const sellerErrors = resourceErrors;

const editableFields = ['sellerName', 'email', 'phone', 'sellerCode', 'address'] as const;
/** A generated code can collide with one created at the same moment; trying again picks the next. */
const CODE_ATTEMPTS = 3;

/**
 * Seller management (/sellers/manage-sellers): create, read, edit, lifecycle, free marking, history,
 * documents and logo; and the seller's own pause/resume switch. List and search live in their own module.
 * Every change and its history entry are written in one transaction.
 */
export async function sellerRoutes(app: FastifyInstance) {
  // Multipart only here (documents and logo); the limits are the largest any route allows, and each
  // upload route narrows them.
  await app.register(fastifyMultipart, { limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1 } });
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/createNewSeller',
    {
      config: manage('create'),
      schema: {
        tags: ['sellers'],
        summary: 'Create a seller; new sellers start in Pending Verification',
        body: createSellerBodySchema,
        response: { 201: sellerSchema, ...sellerErrors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      for (let attempt = 1; ; attempt++) {
        try {
          const created = await app.db.transaction(async (tx) => {
            await assertUnique(tx, { email: body.email, sellerCode: body.sellerCode });
            const sellerCode = body.sellerCode ?? (await nextSellerCode(tx));
            const [row] = await tx
              .insert(sellers)
              .values({
                sellerName: body.sellerName,
                email: body.email,
                phone: body.phone,
                sellerCode,
                address: body.address ?? null,
                isActive: false,
                isEmailVerified: false,
                isKycDone: false,
                isNewSeller: true,
              })
              .returning();
            const seller = row as SellerRow;
            await recordAudit(tx, {
              subject: { type: 'seller', id: seller.id },
              actor: await actorOf(tx, request),
              action: 'created',
              changes: [{ field: 'status', before: null, after: sellerStatus(seller) }],
            });
            return seller;
          });
          return reply.status(201).send(toSellerDto(created));
        } catch (error) {
          const generatedCodeCollided =
            !body.sellerCode && isUniqueViolation(error, 'sellers_code_uq') && attempt < CODE_ATTEMPTS;
          if (!generatedCodeCollided) throw asDuplicateError(error, body);
        }
      }
    },
  );

  api.get(
    '/nextSellerCode',
    {
      config: manage('create'),
      schema: {
        tags: ['sellers'],
        summary: 'The code createNewSeller gives a seller created now without one (a hint for the form)',
        response: { 200: nextSellerCodeSchema, ...sellerErrors },
      },
    },
    async () => ({ sellerCode: await nextSellerCode(app.db) }),
  );

  api.get(
    '/getSellersById/:id',
    {
      config: manage('view'),
      schema: {
        tags: ['sellers'],
        summary: 'One seller, with the user account that signs in for it',
        params: sellerIdParams,
        response: { 200: sellerDetailSchema, ...sellerErrors },
      },
    },
    async (request) => {
      const seller = await findSeller(app.db, request.params.id);
      return { ...toSellerDto(seller), userId: await sellerUserId(app.db, seller.id) };
    },
  );

  api.put(
    '/updateSeller/:id',
    {
      config: manage('edit'),
      schema: {
        tags: ['sellers'],
        summary: "Edit a seller's name, e-mail, phone, code or address",
        params: sellerIdParams,
        body: updateSellerBodySchema,
        response: { 200: sellerSchema, ...sellerErrors },
      },
    },
    async (request) => {
      const body = request.body;
      // Only the fields sent; `address: null` clears the address.
      const patch = Object.fromEntries(
        editableFields.filter((field) => body[field] !== undefined).map((field) => [field, body[field]]),
      ) as Partial<Pick<SellerRow, (typeof editableFields)[number]>>;
      try {
        const updated = await app.db.transaction(async (tx) => {
          const before = await findSeller(tx, request.params.id, { forUpdate: true });
          const changes = diffFields(before, patch, editableFields);
          if (changes.length === 0) return before;
          await assertUnique(
            tx,
            {
              email: changes.some((c) => c.field === 'email') ? patch.email : undefined,
              sellerCode: changes.some((c) => c.field === 'sellerCode') ? patch.sellerCode : undefined,
            },
            before.id,
          );
          const after = await updateSeller(tx, before.id, patch);
          await recordAudit(tx, {
            subject: { type: 'seller', id: before.id },
            actor: await actorOf(tx, request),
            action: 'updated',
            changes,
          });
          return after;
        });
        return toSellerDto(updated);
      } catch (error) {
        throw asDuplicateError(error, body);
      }
    },
  );

  /** Applies a lifecycle transition to a locked seller row and records it; 409 when not allowed. */
  const changeStatus = async (
    sellerId: string,
    request: Parameters<typeof actorOf>[1],
    decide: (seller: SellerRow) => Transition,
    note: string | null,
  ) =>
    app.db.transaction(async (tx) => {
      const before = await findSeller(tx, sellerId, { forUpdate: true });
      const outcome = decide(before);
      if (!outcome.ok) throw outcome.error;
      const after = await updateSeller(tx, before.id, outcome.flags);
      const changes: FieldChange[] = [
        { field: 'status', before: sellerStatus(before), after: outcome.to },
        ...diffFields(before, outcome.flags, [
          'isActive',
          'isEmailVerified',
          'isKycDone',
          'kycRejectionReason',
        ]),
      ];
      await recordAudit(tx, {
        subject: { type: 'seller', id: before.id },
        actor: await actorOf(tx, request),
        action: 'status',
        changes,
        note,
      });
      return toSellerDto(after);
    });

  api.put(
    '/updateSellerStatusById/:id',
    {
      config: manage('approve'),
      schema: {
        tags: ['sellers'],
        summary: 'Move a seller through the lifecycle (verify e-mail, approve/reject KYC, (de)activate)',
        params: sellerIdParams,
        body: updateSellerStatusBodySchema,
        response: { 200: sellerSchema, ...sellerErrors },
      },
    },
    async (request) => {
      const { action, reason } = request.body;
      return changeStatus(
        request.params.id,
        request,
        (seller) => transition(sellerStatus(seller), seller, action, reason),
        reason || null,
      );
    },
  );

  api.put(
    '/updateStatusBySeller',
    {
      config: { permission: { route: SELLER_SELF, action: 'view' } },
      schema: {
        tags: ['sellers'],
        summary: 'The signed-in seller pauses (deactivate) or resumes (activate) their own shop',
        body: updateStatusBySellerBodySchema,
        response: { 200: sellerSchema, ...sellerErrors },
      },
    },
    async (request) => {
      const sellerId = request.user.sellerId;
      if (!sellerId) throw new HttpError(403, 'This is for seller accounts.', 'NOT_A_SELLER');
      const { action, reason } = request.body;
      return changeStatus(
        sellerId,
        request,
        (seller) => sellerSelfTransition(sellerStatus(seller), seller, action),
        reason || (action === 'deactivate' ? 'Paused by the seller' : 'Resumed by the seller'),
      );
    },
  );

  /** Marks a seller free of the subscription fee (which also unblocks them), or not. */
  const markSellerFree = async (request: FastifyRequest, id: string, isFree: boolean) => {
    const updated = await app.db.transaction(async (tx) => {
      const before = await findSeller(tx, id, { forUpdate: true });
      // A free seller owes nothing, so nothing can keep them blocked. Taking "free" away does not
      // block anyone by itself: the subscription rules decide that when the period ends.
      const patch = isFree ? { isFree, blocked: false } : { isFree };
      const changes = diffFields(before, patch, ['isFree', 'blocked']);
      if (changes.length === 0) return before;
      const after = await updateSeller(tx, before.id, patch);
      await recordAudit(tx, {
        subject: { type: 'seller', id: before.id },
        actor: await actorOf(tx, request),
        action: 'free',
        changes,
        note: isFree ? 'Marked free of the subscription fee' : 'Subscription fee applies again',
      });
      return after;
    });
    return toSellerDto(updated);
  };

  api.put(
    '/markSellerFree/:id',
    {
      config: manage('edit'),
      schema: {
        tags: ['sellers'],
        summary: 'Mark a seller free of the subscription fee (which also unblocks them), or not',
        params: sellerIdParams,
        body: markSellerFreeBodySchema,
        response: { 200: sellerSchema, ...sellerErrors },
      },
    },
    async (request) => markSellerFree(request, request.params.id, request.body.isFree),
  );

  // SPEC §7's method, with `isFree` in the query.
  api.get(
    '/markSellerFree/:id',
    {
      ...stateChangingGet,
      config: manage('edit'),
      schema: {
        tags: ['sellers'],
        summary: 'Mark a seller free of the subscription fee, or not (SPEC §7: GET, isFree=true|false)',
        description: STATE_CHANGING_GET_NOTE,
        params: sellerIdParams,
        querystring: markSellerFreeQuerySchema,
        response: { 200: sellerSchema, ...sellerErrors },
      },
    },
    async (request) => markSellerFree(request, request.params.id, request.query.isFree),
  );

  api.get(
    '/getFillerProductSellers',
    {
      config: manage('view'),
      schema: {
        tags: ['sellers'],
        summary: 'Active sellers for pickers: id, code and name, optionally matching a query',
        querystring: fillerSellersQuerySchema,
        response: { 200: fillerSellersSchema, ...sellerErrors },
      },
    },
    async (request) => {
      const { query, limit } = request.query;
      const filters: SQL[] = [eq(sellers.isActive, true)];
      if (query) {
        const pattern = containsPattern(query);
        filters.push(or(ilike(sellers.sellerName, pattern), ilike(sellers.sellerCode, pattern)) as SQL);
      }
      const result = await app.db
        .select({ id: sellers.id, sellerCode: sellers.sellerCode, sellerName: sellers.sellerName })
        .from(sellers)
        .where(and(...filters))
        .orderBy(asc(sellers.sellerName), asc(sellers.id))
        .limit(limit);
      return { result };
    },
  );

  api.get(
    '/getUpdateHistory/:id',
    {
      config: manage('view'),
      schema: {
        tags: ['sellers'],
        summary: "A seller's changes, newest first: who, when, each field before → after",
        params: sellerIdParams,
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...sellerErrors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const [exists] = await app.db.select({ id: sellers.id }).from(sellers).where(eq(sellers.id, id));
      if (!exists) throw sellerNotFound();
      return readAuditPage(app.db, { type: 'seller', id }, request.query);
    },
  );

  // Documents and logos are stored and served through app.storage.
  await app.register(sellerDocumentRoutes);
  await app.register(sellerLogoRoutes);
}

// The stock API (issue 31) under /api/v1/stock: a product's stock with its latest moves, adjustments
// with a reason, the low-stock threshold, and the consistency check for admins. A product's stock
// answers to its details page's permission (view to read, edit to change); a seller reaches only their
// own products (another's answer 404). The consistency check needs the orders' edit permission and is
// refused to sellers: it reads every shop's stock.
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ORDERS_ROUTE } from '../../../contracts/orders';
import {
  productStockSchema,
  stockAdjustmentBodySchema,
  stockConsistencySchema,
  stockThresholdBodySchema,
} from '../../../contracts/stock';
import type { Db, Tx } from '../../db/client';
import { products, stockItems, stockMoves } from '../../db/schema';
import { resourceErrors as errors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { permissionOn, viewerOf } from '../../lib/route-viewer';
import { actorOf } from '../users/actor';
import { tellLowStock } from './low-stock';
import { adjustStock, countStock, ensureStockItems, stockMismatches } from './stock';

const PRODUCT_PAGE = '/product/staging-products';
const onProduct = permissionOn(PRODUCT_PAGE);
const onOrders = permissionOn(ORDERS_ROUTE);
const tags = ['stock'];
const params = z.object({ productId: z.uuid('There is no such product.') });
const MOVES_SHOWN = 50;

const notFound = () => new HttpError(404, 'There is no such product.', 'PRODUCT_NOT_FOUND');

/** The product, if the viewer may see it (a seller: their own), its stock row made if missing. */
async function visibleProduct(db: Db | Tx, request: FastifyRequest, productId: string) {
  const viewer = viewerOf(request);
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(
      and(eq(products.id, productId), viewer.sellerId ? eq(products.sellerId, viewer.sellerId) : undefined),
    );
  if (!row) throw notFound();
  await ensureStockItems(db, [productId]);
}

async function productStock(db: Db, productId: string) {
  const [item] = await db.select().from(stockItems).where(eq(stockItems.productId, productId));
  if (!item) throw notFound();
  const moves = await db
    .select()
    .from(stockMoves)
    .where(eq(stockMoves.productId, productId))
    .orderBy(desc(stockMoves.id))
    .limit(MOVES_SHOWN);
  return {
    productId,
    onHand: item.onHand,
    reserved: item.reserved,
    available: item.onHand - item.reserved,
    lowStockThreshold: item.lowStockThreshold,
    moves: moves.map((move) => ({
      id: move.id,
      onHandDelta: move.onHandDelta,
      reservedDelta: move.reservedDelta,
      reason: move.reason,
      note: move.note,
      holder: move.holder,
      actorName: move.actorName,
      createdAt: move.createdAt.toISOString(),
    })),
  };
}

export async function stockRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const notify = (userId: string, input: Parameters<typeof app.notifications.notify>[1]) =>
    app.notifications.notify(userId, input);

  api.get(
    '/consistency',
    {
      config: onOrders('edit'),
      schema: {
        tags,
        summary: 'Whether every product’s reserved figure equals its live reservations',
        response: { 200: stockConsistencySchema, ...errors },
      },
    },
    async (request) => {
      if (viewerOf(request).isSeller)
        throw new HttpError(403, 'Only admins and staff check every shop’s stock.', 'FORBIDDEN');
      const mismatches = await stockMismatches(app.db);
      return { ok: mismatches.length === 0, checkedAt: new Date().toISOString(), mismatches };
    },
  );

  api.get(
    '/:productId',
    {
      config: onProduct('view'),
      schema: {
        tags,
        summary: 'A product’s stock: on hand, reserved, available, threshold and the latest moves',
        params,
        response: { 200: productStockSchema, ...errors },
      },
    },
    async (request) => {
      await visibleProduct(app.db, request, request.params.productId);
      return productStock(app.db, request.params.productId);
    },
  );

  api.post(
    '/:productId/adjustments',
    {
      config: onProduct('edit'),
      schema: {
        tags,
        summary: 'Change on hand by a number of units, or to a counted figure, with a reason',
        params,
        body: stockAdjustmentBodySchema,
        response: { 200: productStockSchema, ...errors },
      },
    },
    async (request) => {
      const { productId } = request.params;
      const body = request.body;
      await app.db.transaction(async (tx) => {
        await visibleProduct(tx, request, productId);
        const actor = await actorOf(tx, request);
        if (body.counted !== undefined)
          await countStock(tx, productId, body.counted, { note: body.note, actor, reason: body.reason });
        else await adjustStock(tx, productId, body.delta ?? 0, body.reason, { note: body.note, actor });
      });
      await tellLowStock(app.db, [productId], notify);
      return productStock(app.db, productId);
    },
  );

  api.put(
    '/:productId/threshold',
    {
      config: onProduct('edit'),
      schema: {
        tags,
        summary: 'Set the low-stock threshold (0: never tell)',
        params,
        body: stockThresholdBodySchema,
        response: { 200: productStockSchema, ...errors },
      },
    },
    async (request) => {
      const { productId } = request.params;
      await visibleProduct(app.db, request, productId);
      await app.db
        .update(stockItems)
        .set({ lowStockThreshold: request.body.threshold, updatedAt: new Date() })
        .where(eq(stockItems.productId, productId));
      await tellLowStock(app.db, [productId], notify);
      return productStock(app.db, productId);
    },
  );
}

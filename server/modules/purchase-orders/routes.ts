// The purchase-orders API (issue 31) under /api/v1/purchaseOrders, and the suppliers under
// /api/v1/suppliers. Purchase Orders' permission guards the list (view), sending, receiving, cancelling
// and the suppliers (edit); Create Purchase Order's create makes one; one purchase order and its PDF are
// its page's view ('/orders/purchase-order'). Purchase orders are the marketplace's: sellers have none.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CREATE_PURCHASE_ORDER_ROUTE,
  createPurchaseOrderBodySchema,
  PURCHASE_ORDER_PAGE,
  PURCHASE_ORDERS_ROUTE,
  purchaseOrderDetailSchema,
  purchaseOrderListQuerySchema,
  purchaseOrderListSchema,
  receiptBodySchema,
  supplierBodySchema,
  supplierListQuerySchema,
  supplierListSchema,
  supplierSchema,
} from '../../../contracts/purchase-orders';
import { resourceErrors as errors } from '../../lib/error-responses';
import { contentDisposition } from '../../lib/file-responses';
import { permissionOn } from '../../lib/route-viewer';
import { tellLowStock } from '../stock/low-stock';
import { actorOf } from '../users/actor';
import { mailPurchaseOrder, purchaseOrderPdf } from './document';
import {
  cancelPurchaseOrder,
  createPurchaseOrder,
  listPurchaseOrders,
  markSent,
  purchaseOrderDetail,
  receiveGoods,
} from './service';
import { createSupplier, listSuppliers, updateSupplier } from './suppliers';

const onList = permissionOn(PURCHASE_ORDERS_ROUTE);
const onPage = permissionOn(PURCHASE_ORDER_PAGE);
const tags = ['purchase orders'];
const idParams = z.object({ id: z.uuid('There is no such purchase order.') });

export async function purchaseOrderRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/',
    {
      config: onList('view'),
      schema: {
        tags,
        summary: 'A page of purchase orders, with the status tab counts',
        querystring: purchaseOrderListQuerySchema,
        response: { 200: purchaseOrderListSchema, ...errors },
      },
    },
    async (request) => listPurchaseOrders(app.db, request.query),
  );

  api.post(
    '/',
    {
      config: permissionOn(CREATE_PURCHASE_ORDER_ROUTE)('create'),
      schema: {
        tags,
        summary: 'A draft purchase order to a supplier for one shop’s products',
        body: createPurchaseOrderBodySchema,
        response: { 201: purchaseOrderDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const id = await createPurchaseOrder(app, await actorOf(app.db, request), request.body);
      reply.code(201);
      return purchaseOrderDetail(app.db, id);
    },
  );

  api.get(
    '/:id',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'A purchase order: lines with what arrived, receipts and history',
        params: idParams,
        response: { 200: purchaseOrderDetailSchema, ...errors },
      },
    },
    async (request) => purchaseOrderDetail(app.db, request.params.id),
  );

  api.get(
    '/:id/pdf',
    { config: onPage('view'), schema: { tags, summary: 'The purchase order as a PDF', params: idParams } },
    async (request, reply) => {
      const { pdf, reference } = await purchaseOrderPdf(app, request.params.id);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', contentDisposition('inline', `${reference}.pdf`))
        .send(pdf);
    },
  );

  const change = <Body>(
    path: string,
    summary: string,
    body: z.ZodType<Body>,
    run: (actor: Awaited<ReturnType<typeof actorOf>>, id: string, body: Body) => Promise<unknown>,
  ) =>
    api.post(
      path,
      {
        config: onList('edit'),
        schema: {
          tags,
          summary,
          params: idParams,
          body,
          response: { 200: purchaseOrderDetailSchema, ...errors },
        },
      },
      async (request) => {
        await run(await actorOf(app.db, request), request.params.id, request.body as Body);
        return purchaseOrderDetail(app.db, request.params.id);
      },
    );

  change('/:id/send', 'Send it: the supplier is mailed its PDF', z.object({}), async (actor, id) => {
    await markSent(app, actor, id);
    await mailPurchaseOrder(app, id);
  });
  change(
    '/:id/receipts',
    'Take a delivery in: the stock rises',
    receiptBodySchema,
    async (actor, id, body) => {
      const { productIds } = await receiveGoods(app, actor, id, body);
      await tellLowStock(app.db, productIds, (userId, input) => app.notifications.notify(userId, input));
    },
  );
  change(
    '/:id/cancel',
    'Cancel it while nothing has arrived',
    z.object({ reason: z.string().trim().min(1, 'Say why.').max(500) }),
    (actor, id, body) => cancelPurchaseOrder(app, actor, id, body.reason),
  );
}

export async function supplierRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const supplierParams = z.object({ id: z.uuid('There is no such supplier.') });
  api.get(
    '/',
    {
      config: onList('view'),
      schema: {
        tags: ['suppliers'],
        summary: 'The suppliers, by name',
        querystring: supplierListQuerySchema,
        response: { 200: supplierListSchema, ...errors },
      },
    },
    async (request) => listSuppliers(app.db, request.query),
  );
  api.post(
    '/',
    {
      config: onList('edit'),
      schema: {
        tags: ['suppliers'],
        summary: 'Add a supplier',
        body: supplierBodySchema,
        response: { 201: supplierSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createSupplier(app.db, await actorOf(app.db, request), request.body);
    },
  );
  api.put(
    '/:id',
    {
      config: onList('edit'),
      schema: {
        tags: ['suppliers'],
        summary: 'Change a supplier (its tolerance applies to purchase orders made from now on)',
        params: supplierParams,
        body: supplierBodySchema,
        response: { 200: supplierSchema, ...errors },
      },
    },
    async (request) =>
      updateSupplier(app.db, await actorOf(app.db, request), request.params.id, request.body),
  );
}

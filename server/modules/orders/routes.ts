// The orders API (issue 31) under /api/v1/orders. The list needs the Manage Orders permission
// ('/orders/manage-orders': view), placing an order Create Order's ('/orders/create-new-order': create),
// one order's routes its page's
// ('/orders/order': view to read, edit to pay, refund, ship, deliver, cancel and edit lines); both have
// the same defaults per role. A seller sees only their own shop's orders (another's answer 404).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import type { OfferPricing } from '../../../contracts/offers';
import {
  CREATE_ORDER_ROUTE,
  cancelBodySchema,
  createOrderBodySchema,
  editOrderBodySchema,
  ORDER_PAGE,
  ORDERS_ROUTE,
  orderDetailSchema,
  orderFromOfferBodySchema,
  orderListQuerySchema,
  orderListSchema,
  ordersExportBodySchema,
  paymentBodySchema,
  refundBodySchema,
  shipmentBodySchema,
} from '../../../contracts/orders';
import { taskAccepted } from '../../jobs/queue';
import { resourceErrors as errors } from '../../lib/error-responses';
import { contentDisposition } from '../../lib/file-responses';
import { permissionOn, viewerOf } from '../../lib/route-viewer';
import { tellLowStock } from '../stock/low-stock';
import { actorOf } from '../users/actor';
import { cancelOrder, deliverOrder, recordPayment, recordRefund, shipOrder } from './fulfilment';
import {
  ORDERS_EXPORT_KIND,
  ORDERS_EXPORT_NAME,
  type OrdersExportPayload,
  ordersExportHandler,
} from './orders-export';
import { packingSlipPdf } from './packing-slip';
import {
  createOrder,
  createOrderFromOffer,
  editOrder,
  listOrders,
  orderDetail,
  stockLinesOf,
} from './service';

const onList = permissionOn(ORDERS_ROUTE);
const onPage = permissionOn(ORDER_PAGE);
const onCreate = permissionOn(CREATE_ORDER_ROUTE);
const tags = ['orders'];
const idParams = z.object({ id: z.uuid('There is no such order.') });
const offerParams = z.object({ offerId: z.uuid('There is no such offer.') });

export async function orderRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.jobs.register(
    ORDERS_EXPORT_KIND,
    ordersExportHandler({ db: app.db, dataDir: options.dataDir, storage: app.storage }),
  );
  const lowStockAfter = (pricing: unknown) =>
    tellLowStock(
      app.db,
      stockLinesOf(pricing as OfferPricing).map((line) => line.productId),
      (userId, input) => app.notifications.notify(userId, input),
    );

  api.get(
    '/',
    {
      config: onList('view'),
      schema: {
        tags,
        summary: 'A page of orders, with the status tab counts',
        querystring: orderListQuerySchema,
        response: { 200: orderListSchema, ...errors },
      },
    },
    async (request) => listOrders(app.db, viewerOf(request), request.query),
  );

  api.post(
    '/',
    {
      config: onCreate('create'),
      schema: {
        tags,
        summary: 'Place an order by hand: the server prices it and reserves its stock',
        body: createOrderBodySchema,
        response: { 201: orderDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const row = await createOrder(app, viewer, await actorOf(app.db, request), request.body);
      await lowStockAfter(row.pricing);
      reply.code(201);
      return orderDetail(app.db, viewer, row.id);
    },
  );

  api.post(
    '/fromOffer/:offerId',
    {
      config: onCreate('create'),
      schema: {
        tags,
        summary: 'Make the order of an accepted offer: its frozen prices and taxes, linked both ways',
        params: offerParams,
        body: orderFromOfferBodySchema,
        response: { 201: orderDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const row = await createOrderFromOffer(
        app,
        viewer,
        await actorOf(app.db, request),
        request.params.offerId,
        request.body,
      );
      await lowStockAfter(row.pricing);
      reply.code(201);
      return orderDetail(app.db, viewer, row.id);
    },
  );

  api.post(
    '/export',
    {
      config: onList('export'),
      schema: {
        tags: ['orders', 'exports'],
        summary: 'Exports the orders the list selects (tab, filters, search) to CSV or XLSX',
        description:
          'Answers 202 with `taskStatus` at once. When the file is written, the owner is notified with a link to `/api/v1/exports/{taskId}/download`.',
        body: ordersExportBodySchema,
        response: { 202: taskAcceptedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const payload: OrdersExportPayload = {
        ...request.body,
        scope: viewer.isSeller ? (viewer.sellerId ?? '00000000-0000-0000-0000-000000000000') : null,
      };
      const job = await app.jobs.enqueue({
        kind: ORDERS_EXPORT_KIND,
        name: ORDERS_EXPORT_NAME,
        ownerId: request.user.id,
        payload,
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );

  api.get(
    '/:id',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'An order: lines, money, shipments, versions and history',
        params: idParams,
        response: { 200: orderDetailSchema, ...errors },
      },
    },
    async (request) => orderDetail(app.db, viewerOf(request), request.params.id),
  );

  api.get(
    '/:id/packing-slip.pdf',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'The packing slip: what is in the parcel and where it goes',
        params: idParams,
      },
    },
    async (request, reply) => {
      const { pdf, reference } = await packingSlipPdf(app, viewerOf(request), request.params.id);
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', contentDisposition('inline', `${reference}-packing-slip.pdf`))
        .send(pdf);
    },
  );

  /** One order's change: done under the order's lock, then the order as it is now. */
  const change = <Body>(
    path: string,
    summary: string,
    body: z.ZodType<Body>,
    run: (context: {
      viewer: ReturnType<typeof viewerOf>;
      actor: Awaited<ReturnType<typeof actorOf>>;
      id: string;
      body: Body;
    }) => Promise<unknown>,
    method: 'post' | 'put' = 'post',
  ) =>
    api[method](
      path,
      {
        config: onPage('edit'),
        schema: { tags, summary, params: idParams, body, response: { 200: orderDetailSchema, ...errors } },
      },
      async (request) => {
        const viewer = viewerOf(request);
        await run({
          viewer,
          actor: await actorOf(app.db, request),
          id: request.params.id,
          body: request.body as Body,
        });
        return orderDetail(app.db, viewer, request.params.id);
      },
    );

  change(
    '/:id',
    'Edit the lines: a new version, re-priced and re-taxed, its stock reserved',
    editOrderBodySchema,
    async ({ viewer, actor, id, body }) => {
      await editOrder(app, viewer, actor, id, body);
      await lowStockAfter({
        lines: body.lines.map((line) => ({ productId: line.productId, quantity: line.quantity })),
      });
    },
    'put',
  );
  change('/:id/payments', 'Record a payment', paymentBodySchema, ({ viewer, actor, id, body }) =>
    recordPayment(app, viewer, actor, id, body),
  );
  change(
    '/:id/refunds',
    'Refund part or all of what was paid, with a reason',
    refundBodySchema,
    ({ viewer, actor, id, body }) => recordRefund(app, viewer, actor, id, body),
  );
  change(
    '/:id/shipments',
    'Ship the order: its stock leaves, the customer is mailed',
    shipmentBodySchema,
    ({ viewer, actor, id, body }) => shipOrder(app, viewer, actor, id, body),
  );
  change('/:id/delivered', 'Mark a shipped order delivered', z.object({}), ({ viewer, actor, id }) =>
    deliverOrder(app, viewer, actor, id),
  );
  change(
    '/:id/cancel',
    'Cancel the order: its stock is released',
    cancelBodySchema,
    ({ viewer, actor, id, body }) => cancelOrder(app, viewer, actor, id, body.reason),
  );
}

// The invoices API (issue 31) under /api/v1/invoices. Manage Invoices' permission guards the list and
// the changes ('/invoices/manage-invoices': view to list, edit to issue, record payments, cancel and
// mail, delete to delete a draft, export for the register); making a draft needs Create Invoice's create;
// reading one invoice and its files its page's view ('/invoices/invoice'). The Marketing section's list
// (`/marketing/manage-invoices`) has its own read of the same list, guarded by that page's view.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CREATE_INVOICE_ROUTE,
  createInvoiceBodySchema,
  INVOICE_PAGE,
  INVOICES_ROUTE,
  invoiceDetailSchema,
  invoiceListQuerySchema,
  invoiceListSchema,
  invoiceMailBodySchema,
  invoicePaymentBodySchema,
  invoiceReasonBodySchema,
  invoiceRegisterBodySchema,
  MARKETING_INVOICES_ROUTE,
} from '../../../contracts/invoices';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import { taskAccepted } from '../../jobs/queue';
import { gstInvoiceJson } from '../../lib/documents/gst-inv01';
import { resourceErrors as errors } from '../../lib/error-responses';
import { contentDisposition } from '../../lib/file-responses';
import { HttpError } from '../../lib/http-error';
import { permissionOn, viewerOf } from '../../lib/route-viewer';
import { actorOf } from '../users/actor';
import { draftByHand, draftFromOrder, draftFromSubscription } from './drafts';
import { downloadName, invoicePdf, invoiceXml, renderable, storeInvoiceFiles } from './files';
import {
  cancelInvoice,
  createDraft,
  deleteDraft,
  issueInvoice,
  markPaymentFailed,
  recordInvoicePayment,
} from './issue';
import { mailInvoice } from './mail';
import { startOverdueSweep } from './overdue';
import { documentOf, findInvoice, invoiceDetail, listInvoices } from './read';
import {
  INVOICE_REGISTER_KIND,
  INVOICE_REGISTER_NAME,
  invoiceRegisterHandler,
  type RegisterPayload,
} from './register-export';

const onList = permissionOn(INVOICES_ROUTE);
const onCreate = permissionOn(CREATE_INVOICE_ROUTE);
const onPage = permissionOn(INVOICE_PAGE);
const tags = ['invoices'];
const idParams = z.object({ id: z.uuid('There is no such invoice.') });

export async function invoiceRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  app.jobs.register(
    INVOICE_REGISTER_KIND,
    invoiceRegisterHandler({ db: app.db, dataDir: options.dataDir, storage: app.storage }),
  );
  startOverdueSweep(app);

  api.get(
    '/',
    {
      config: onList('view'),
      schema: {
        tags,
        summary: 'A page of invoices and credit notes, with the status tab counts',
        querystring: invoiceListQuerySchema,
        response: { 200: invoiceListSchema, ...errors },
      },
    },
    async (request) => listInvoices(app.db, viewerOf(request), request.query),
  );

  api.get(
    '/marketing',
    {
      config: permissionOn(MARKETING_INVOICES_ROUTE)('view'),
      schema: {
        tags,
        summary: 'The same list, for the Marketing section’s Invoices page',
        querystring: invoiceListQuerySchema,
        response: { 200: invoiceListSchema, ...errors },
      },
    },
    async (request) => listInvoices(app.db, viewerOf(request), request.query),
  );

  api.post(
    '/',
    {
      config: onCreate('create'),
      schema: {
        tags,
        summary: 'A draft invoice: from an order, from a subscription period, or typed by hand',
        body: createInvoiceBodySchema,
        response: { 201: invoiceDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const body = request.body;
      const scope = viewer.isSeller ? (viewer.sellerId ?? undefined) : undefined;
      if (viewer.isSeller && body.source !== 'order')
        throw new HttpError(403, 'Sellers invoice their own orders only.', 'FORBIDDEN');
      const draft =
        body.source === 'order'
          ? await draftFromOrder(app, body.orderId, scope)
          : body.source === 'subscription'
            ? await draftFromSubscription(app, body.subscriptionId)
            : await draftByHand(app, body);
      const id = await createDraft(app, await actorOf(app.db, request), draft);
      reply.code(201);
      return invoiceDetail(app.db, viewer, id);
    },
  );

  api.get(
    '/:id',
    {
      config: onPage('view'),
      schema: {
        tags,
        summary: 'An invoice or credit note: parties, lines, taxes, money and history',
        params: idParams,
        response: { 200: invoiceDetailSchema, ...errors },
      },
    },
    async (request) => invoiceDetail(app.db, viewerOf(request), request.params.id),
  );

  api.delete(
    '/:id',
    {
      config: onList('delete'),
      schema: {
        tags,
        summary: 'Delete a draft (it has no number, so no gap is left)',
        params: idParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteDraft(app, viewerOf(request), await actorOf(app.db, request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  /** An issued invoice's change, then the invoice as it is now. */
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
  ) =>
    api.post(
      path,
      {
        config: onList('edit'),
        schema: { tags, summary, params: idParams, body, response: { 200: invoiceDetailSchema, ...errors } },
      },
      async (request) => {
        const viewer = viewerOf(request);
        await run({
          viewer,
          actor: await actorOf(app.db, request),
          id: request.params.id,
          body: request.body as Body,
        });
        return invoiceDetail(app.db, viewer, request.params.id);
      },
    );

  change(
    '/:id/issue',
    'Issue the draft: its number, the frozen document, the PDF/A-3 with its e-invoice XML',
    z.object({}),
    async ({ viewer, actor, id }) => {
      const issued = await issueInvoice(app, viewer, actor, id);
      await storeInvoiceFiles(app, issued).catch((error: unknown) =>
        app.log.warn({ err: error, invoice: id }, 'invoice files not stored yet; the first read stores them'),
      );
    },
  );
  change('/:id/payments', 'Record money received', invoicePaymentBodySchema, ({ viewer, actor, id, body }) =>
    recordInvoicePayment(app, viewer, actor, id, body),
  );
  change('/:id/failed', 'Mark its payment failed', invoiceReasonBodySchema, ({ viewer, actor, id, body }) =>
    markPaymentFailed(app, viewer, actor, id, body.reason),
  );
  change(
    '/:id/cancel',
    'Cancel an unpaid invoice with a credit note for all of it',
    invoiceReasonBodySchema,
    async ({ viewer, actor, id, body }) => {
      const note = await cancelInvoice(app, viewer, actor, id, body.reason);
      await storeInvoiceFiles(app, note).catch(() => undefined);
    },
  );
  change('/:id/mail', 'Mail the PDF to the buyer', invoiceMailBodySchema, ({ viewer, actor, id, body }) =>
    mailInvoice(app, viewer, actor, id, body.to),
  );

  const download = (extension: 'pdf' | 'xml' | 'json', summary: string) =>
    api.get(
      `/:id/${extension === 'json' ? 'gst.json' : extension}`,
      { config: onPage('view'), schema: { tags, summary, params: idParams } },
      async (request, reply) => {
        const row = await findInvoice(app.db, viewerOf(request), request.params.id);
        reply.header('cache-control', 'private, no-store');
        if (extension === 'pdf') {
          const pdf = await invoicePdf(app, row);
          return reply
            .type('application/pdf')
            .header('content-disposition', contentDisposition('inline', downloadName(row, 'pdf')))
            .send(pdf);
        }
        if (extension === 'xml')
          return reply
            .type('application/xml; charset=utf-8')
            .header('content-disposition', contentDisposition('attachment', downloadName(row, 'xml')))
            .send(await invoiceXml(app, row));
        if (!row.number)
          throw new HttpError(409, 'Issue it first: a draft has no number.', 'INVOICE_NOT_ISSUED');
        const document = await renderable(app.storage, documentOf(row));
        // Goods leaving India are exports (without payment of tax); otherwise a B2B supply.
        const supplyType = document.buyer.country === 'IN' ? 'B2B' : 'EXPWOP';
        const { json, problems } = gstInvoiceJson(document, { supplyType });
        if (problems.length)
          throw new HttpError(
            409,
            `The GST e-invoice cannot be made: ${problems.join(' ')}`,
            'GST_NOT_READY',
          );
        return reply
          .type('application/json; charset=utf-8')
          .header('content-disposition', contentDisposition('attachment', downloadName(row, 'gst.json')))
          .send(JSON.stringify(json, null, 2));
      },
    );
  download('pdf', 'The issued PDF (PDF/A-3 with the EN 16931 CII XML attached)');
  download('xml', 'The EN 16931 CII XML (Factur-X / ZUGFeRD profile EN 16931)');
  download('json', 'The Indian GST e-invoice JSON (INV-01), ready for registration through a GSP');

  api.post(
    '/register',
    {
      config: onList('export'),
      schema: {
        tags: ['invoices', 'exports'],
        summary: 'The invoice register of a period with its tax summary per rate, as CSV or XLSX',
        description:
          'Answers 202 with `taskStatus` at once. When the file is written, the owner is notified with a link to `/api/v1/exports/{taskId}/download`.',
        body: invoiceRegisterBodySchema,
        response: { 202: taskAcceptedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const payload: RegisterPayload = {
        ...request.body,
        sellerId: viewer.isSeller ? (viewer.sellerId ?? undefined) : request.body.sellerId,
      };
      const job = await app.jobs.enqueue({
        kind: INVOICE_REGISTER_KIND,
        name: INVOICE_REGISTER_NAME,
        ownerId: request.user.id,
        payload,
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );
}

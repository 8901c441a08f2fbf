// The Contacts API (issue 17), under /api/v1/contacts. Every route names the Contacts permission it
// needs (contracts/routes.ts `/marketing/contacts`): view to read, create / edit / delete for contacts,
// import for lead sheets, edit for the company types list. Sellers have none of them.
//
// Subscription: a staff member may unsubscribe a contact (it goes on the suppression list, like the link
// in a mail); resubscribing is always refused with the reason (repository.ts staffResubscribe).
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CONTACTS_ROUTE,
  companyTypeBodySchema,
  companyTypeListSchema,
  companyTypeSchema,
  contactListQuerySchema,
  contactListSchema,
  contactSchema,
  contactsExportBodySchema,
  contactTimelineSchema,
  createContactBodySchema,
  leadErrorSheetBodySchema,
  leadImportListQuerySchema,
  leadImportListSchema,
  leadImportSchema,
  leadImportUploadSchema,
  leadRowsQuerySchema,
  leadRowsSchema,
  startLeadImportBodySchema,
  timelineQuerySchema,
  unsubscribeBodySchema,
  updateContactBodySchema,
  versionBodySchema,
} from '../../../contracts/contacts';
import { exportDownloadPath } from '../../../contracts/exports';
import { taskAcceptedSchema } from '../../../contracts/notifications';
import type { RouteAction } from '../../../contracts/routes';
import { taskAccepted } from '../../jobs/queue';
import { compiledResponse } from '../../lib/compiled-serializer';
import { resourceErrors as errors } from '../../lib/error-responses';
import { SHEET_LIMITS } from '../../lib/sheets';
import { queryFieldListSchema } from '../products/query-fields';
import { actorOf } from '../users/actor';
import { loadContactFields } from './audience';
import { createCompanyType, deleteCompanyType, listCompanyTypes, updateCompanyType } from './company-types';
import {
  CONTACTS_EXPORT_KIND,
  CONTACTS_EXPORT_NAME,
  contactsExportHandler,
  contactsExportPayload,
} from './contacts-export';
import {
  discardLeadImport,
  findLeadImport,
  LEAD_ERRORS_KIND,
  LEAD_ERRORS_NAME,
  leadErrorSheetHandler,
  leadImportRowsPage,
  listLeadImports,
  startLeadImport,
  toLeadImport,
  uploadLeadSheet,
} from './lead-imports';
import { LEAD_IMPORT_KIND, leadImportHandler } from './lead-job';
import { listContacts } from './list';
import {
  createContact,
  deleteContact,
  readContact,
  staffResubscribe,
  staffUnsubscribe,
  updateContact,
} from './repository';
import { contactTimeline } from './timeline';

const contactsPermission = (action: RouteAction) => ({ permission: { route: CONTACTS_ROUTE, action } });
const tags = ['contacts'];
const idParams = z.object({ id: z.string().uuid('There is no such contact.') });
const typeParams = z.object({ id: z.string().uuid('There is no such company type.') });
const importParams = z.object({ id: z.string().uuid('There is no such lead import.') });

export async function contactRoutes(app: FastifyInstance, options: { dataDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { dataDir } = options;
  await app.register(fastifyMultipart, { limits: { fileSize: SHEET_LIMITS.maxBytes, files: 1 } });
  app.jobs.register(LEAD_IMPORT_KIND, leadImportHandler({ db: app.db, storage: app.storage }));
  app.jobs.register(LEAD_ERRORS_KIND, leadErrorSheetHandler({ db: app.db, dataDir, storage: app.storage }));
  app.jobs.register(
    CONTACTS_EXPORT_KIND,
    contactsExportHandler({ db: app.db, dataDir, storage: app.storage }),
  );

  // ── Contacts ──────────────────────────────────────────────────────────────────────────────────────

  api.get(
    '/',
    {
      config: contactsPermission('view'),
      schema: {
        tags,
        summary: 'A page of contacts: the filters as one query tree (JSON), a search, an order',
        querystring: contactListQuerySchema,
        response: { 200: compiledResponse(contactListSchema), ...errors },
      },
    },
    async (request) => listContacts(app.db, request.query),
  );

  api.get(
    '/queryFields',
    {
      config: contactsPermission('view'),
      schema: {
        tags,
        summary: 'The fields a contact filter may use, with their options (countries, company types…)',
        response: { 200: queryFieldListSchema, ...errors },
      },
    },
    async () => ({ result: await loadContactFields(app.db) }),
  );

  api.post(
    '/export',
    {
      config: contactsPermission('export'),
      schema: {
        tags,
        summary: 'Exports the contacts the filters select, in the list’s order, to CSV or XLSX (a task)',
        description: `Answers 202 with \`taskStatus\` at once; the owner is notified with a link to ${exportDownloadPath('{taskId}')}.`,
        body: contactsExportBodySchema,
        response: { 202: taskAcceptedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const job = await app.jobs.enqueue({
        kind: CONTACTS_EXPORT_KIND,
        name: CONTACTS_EXPORT_NAME,
        ownerId: request.user.id,
        // Checked now: a filter that is no valid query is refused before a job starts.
        payload: contactsExportPayload(request.body),
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );

  api.post(
    '/',
    {
      config: contactsPermission('create'),
      schema: {
        tags,
        summary: 'Adds a contact by hand (source: manual)',
        body: createContactBodySchema,
        response: { 201: contactSchema, ...errors },
      },
    },
    async (request, reply) => {
      const id = await createContact(app.db, await actorOf(app.db, request), request.body);
      return reply.code(201).send(await readContact(app.db, id));
    },
  );

  api.get(
    '/:id',
    {
      config: contactsPermission('view'),
      schema: { tags, summary: 'One contact', params: idParams, response: { 200: contactSchema, ...errors } },
    },
    async (request) => readContact(app.db, request.params.id),
  );

  api.put(
    '/:id',
    {
      config: contactsPermission('edit'),
      schema: {
        tags,
        summary: 'Edits a contact (the version read must be current); the changes go on its timeline',
        params: idParams,
        body: updateContactBodySchema,
        response: { 200: contactSchema, ...errors },
      },
    },
    async (request) => {
      await updateContact(app.db, await actorOf(app.db, request), request.params.id, request.body);
      return readContact(app.db, request.params.id);
    },
  );

  api.post(
    '/:id/delete',
    {
      config: contactsPermission('delete'),
      schema: {
        tags,
        summary: 'Deletes a contact and its timeline (its chats and queries stay, unlinked)',
        params: idParams,
        body: versionBodySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteContact(app.db, request.params.id, request.body.version);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/:id/unsubscribe',
    {
      config: contactsPermission('edit'),
      schema: {
        tags,
        summary: 'A staff member unsubscribes the contact (its address joins the suppression list)',
        params: idParams,
        body: unsubscribeBodySchema,
        response: { 200: contactSchema, ...errors },
      },
    },
    async (request) => {
      await staffUnsubscribe(app.db, await actorOf(app.db, request), request.params.id, request.body.version);
      return readContact(app.db, request.params.id);
    },
  );

  api.post(
    '/:id/resubscribe',
    {
      config: contactsPermission('edit'),
      schema: {
        tags,
        summary: 'Always refused (409 with the reason): only the person can take back an unsubscribe',
        params: idParams,
        body: unsubscribeBodySchema,
        response: { ...errors },
      },
    },
    async (request) => staffResubscribe(app.db, request.params.id),
  );

  api.get(
    '/:id/history',
    {
      config: contactsPermission('view'),
      schema: {
        tags,
        summary: 'Everything that happened to the contact, newest first: changes, mails, chats, queries',
        params: idParams,
        querystring: timelineQuerySchema,
        response: { 200: contactTimelineSchema, ...errors },
      },
    },
    async (request) => contactTimeline(app.db, request.params.id, request.query),
  );

  // ── Company types ─────────────────────────────────────────────────────────────────────────────────

  api.get(
    '/companyTypes',
    {
      config: contactsPermission('view'),
      schema: { tags, summary: 'The company types', response: { 200: companyTypeListSchema, ...errors } },
    },
    async () => ({ result: await listCompanyTypes(app.db) }),
  );

  api.post(
    '/companyTypes',
    {
      config: contactsPermission('edit'),
      schema: {
        tags,
        summary: 'Adds a company type (names are unique, case ignored)',
        body: companyTypeBodySchema,
        response: { 201: companyTypeSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await createCompanyType(app.db, request.body)),
  );

  api.put(
    '/companyTypes/:id',
    {
      config: contactsPermission('edit'),
      schema: {
        tags,
        summary: 'Renames or moves a company type',
        params: typeParams,
        body: companyTypeBodySchema,
        response: { 200: companyTypeSchema, ...errors },
      },
    },
    async (request) => updateCompanyType(app.db, request.params.id, request.body),
  );

  api.post(
    '/companyTypes/:id/delete',
    {
      config: contactsPermission('edit'),
      schema: {
        tags,
        summary: 'Deletes a company type; its contacts keep no type',
        params: typeParams,
        response: { 200: z.object({ contacts: z.number().int() }), ...errors },
      },
    },
    async (request) => deleteCompanyType(app.db, request.params.id),
  );

  // ── Lead imports ──────────────────────────────────────────────────────────────────────────────────

  api.post(
    '/leadImports',
    {
      config: contactsPermission('import'),
      schema: {
        tags,
        summary: 'Uploads a lead sheet (CSV or XLSX, multipart `file`): its headers and a suggested mapping',
        consumes: ['multipart/form-data'],
        response: { 201: leadImportUploadSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await uploadLeadSheet(
            { db: app.db, storage: app.storage, dataDir },
            request,
            await actorOf(app.db, request),
          ),
        ),
  );

  api.get(
    '/leadImports',
    {
      config: contactsPermission('import'),
      schema: {
        tags,
        summary: 'Lead imports, newest first',
        querystring: leadImportListQuerySchema,
        response: { 200: leadImportListSchema, ...errors },
      },
    },
    async (request) => listLeadImports(app.db, request.query),
  );

  api.get(
    '/leadImports/:id',
    {
      config: contactsPermission('import'),
      schema: {
        tags,
        summary: 'A lead import: mapping, state, progress and counts by outcome',
        params: importParams,
        response: { 200: leadImportSchema, ...errors },
      },
    },
    async (request) => toLeadImport(await findLeadImport(app.db, request.params.id)),
  );

  api.post(
    '/leadImports/:id/start',
    {
      config: contactsPermission('import'),
      schema: {
        tags,
        summary: 'Confirms the mapping and the duplicates policy and starts the import (a task)',
        params: importParams,
        body: startLeadImportBodySchema,
        response: { 202: taskAcceptedSchema.extend({ import: leadImportSchema }), ...errors },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await startLeadImport(app, request.user.id, request.params.id, request.body)),
  );

  api.post(
    '/leadImports/:id/discard',
    {
      config: contactsPermission('import'),
      schema: {
        tags,
        summary: 'Drops an import that was never started, with its file',
        params: importParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await discardLeadImport(app.db, app.storage, request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/leadImports/:id/rows',
    {
      config: contactsPermission('import'),
      schema: {
        tags,
        summary: 'The import’s rows by line, optionally of one outcome, with their problems',
        params: importParams,
        querystring: leadRowsQuerySchema,
        response: { 200: leadRowsSchema, ...errors },
      },
    },
    async (request) => leadImportRowsPage(app.db, request.params.id, request.query),
  );

  api.post(
    '/leadImports/:id/errorSheet',
    {
      config: contactsPermission('import'),
      schema: {
        tags,
        summary: 'Writes the rows with errors, plus an Errors column, to CSV or XLSX (a task)',
        description: `Answers 202 with \`taskStatus\`; the finished file is at ${exportDownloadPath('{taskId}')}.`,
        params: importParams,
        body: leadErrorSheetBodySchema,
        response: { 202: taskAcceptedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const upload = await findLeadImport(app.db, request.params.id);
      const job = await app.jobs.enqueue({
        kind: LEAD_ERRORS_KIND,
        name: LEAD_ERRORS_NAME,
        ownerId: request.user.id,
        payload: { importId: upload.id, format: request.body.format ?? upload.format },
      });
      return reply.code(202).send(taskAccepted(job));
    },
  );
}

/** SPEC §7's name for a contact's timeline: `helperQuery/method/getContactHistory/{id}`. */
export async function contactHistoryAlias(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/getContactHistory/:id',
    {
      config: contactsPermission('view'),
      schema: {
        tags,
        summary: 'A contact’s timeline (the same as GET /api/v1/contacts/{id}/history)',
        params: idParams,
        querystring: timelineQuerySchema,
        response: { 200: contactTimelineSchema, ...errors },
      },
    },
    async (request) => contactTimeline(app.db, request.params.id, request.query),
  );
}

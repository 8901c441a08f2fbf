// The company logo of the settings (issue 29): the marketplace's, or a seller's own for their invoices.
// Checked and stored like a seller's logo (content-sniffed PNG, JPEG or WebP, 2 MB at most; an SVG is
// refused whatever it contains, so a script in one never reaches a page) and served from the same
// public folder. The route answers the stored path only: the page puts it into `company.logo` with the
// section's normal save, which checks the version and writes the audit trail.
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '../../../contracts/seller-admin';
import { SETTINGS_ROUTE, settingsQuerySchema } from '../../../contracts/settings';
import { uploadErrors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { extensionOf, readUploadedFile, storeFile } from '../../lib/uploads';
import { LOGOS_FOLDER, logoUrl } from '../sellers/files';
import { scopeOf } from '../settings/routes';

export const companyLogoResponseSchema = z.object({
  /** The logo's public path, to save as `company.logo`. */
  path: z.string(),
});

export async function companyLogoRoutes(app: FastifyInstance) {
  await app.register(fastifyMultipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 1 } });
  app.withTypeProvider<ZodTypeProvider>().post(
    '/company/logo',
    {
      config: { permission: { route: SETTINGS_ROUTE, action: 'edit' as const } },
      schema: {
        tags: ['settings'],
        summary:
          "Upload the company logo of the settings' scope (multipart: PNG, JPEG or WebP, 2 MB at most)",
        consumes: ['multipart/form-data'],
        querystring: settingsQuerySchema,
        response: { 201: companyLogoResponseSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      // The scope is checked before the body is read: another seller's scope is refused unread.
      const scope = await scopeOf(app, request, request.query.sellerId);
      if (!scope.canEdit) throw new HttpError(403, 'You may view these settings, not change them.');
      const file = await readUploadedFile(request, { maxBytes: LOGO_MAX_BYTES, accepted: LOGO_TYPES });
      const stored = await storeFile(
        app.storage,
        LOGOS_FOLDER,
        file.bytes,
        `.${extensionOf[file.mimeType]}`,
        file.mimeType,
      );
      return reply.code(201).send({ path: logoUrl(stored.name) });
    },
  );
}

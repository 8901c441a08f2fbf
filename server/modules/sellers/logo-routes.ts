import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '../../../contracts/seller-admin';
import { sellerSchema } from '../../../contracts/sellers';
import { recordAudit } from '../../lib/audit';
import { uploadErrors } from '../../lib/error-responses';
import { extensionOf, readUploadedFile, storeFile, withStoredFile } from '../../lib/uploads';
import { actorOf } from '../users/actor';
import { latestLogoPath } from '../users/current-user';
import { assertSellerAccess } from './access';
import { toSellerDto } from './dto';
import { LOGOS_FOLDER, logoUrl } from './files';
import { findSeller, updateSeller } from './repository';

export async function sellerLogoRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/uploadSellerLogo/:id',
    {
      schema: {
        tags: ['sellers'],
        summary: "Upload a seller's logo (multipart, one file: PNG, JPEG or WebP, 2 MB at most)",
        consumes: ['multipart/form-data'],
        params: z.object({ id: z.string().uuid('id must be a seller id') }),
        response: {
          200: sellerSchema,
          ...uploadErrors,
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      await assertSellerAccess(request, id, 'edit');
      await findSeller(app.db, id);
      const file = await readUploadedFile(request, { maxBytes: LOGO_MAX_BYTES, accepted: LOGO_TYPES });
      // Stored before the row: a store that is down answers 503 and the seller keeps its logos.
      const stored = await storeFile(
        app.storage,
        LOGOS_FOLDER,
        file.bytes,
        `.${extensionOf[file.mimeType]}`,
        file.mimeType,
      );
      const updated = await withStoredFile(app.storage, stored, () =>
        app.db.transaction(async (tx) => {
          // Locked: two uploads at once both land in sellerLogos, in order.
          const before = await findSeller(tx, id, { forUpdate: true });
          const logo = { path: logoUrl(stored.name), uploadedAt: new Date().toISOString() };
          const after = await updateSeller(tx, id, { sellerLogos: [...before.sellerLogos, logo] });
          await recordAudit(tx, {
            subject: { type: 'seller', id: id },
            actor: await actorOf(tx, request),
            action: 'logo',
            changes: [{ field: 'logo', before: latestLogoPath(before.sellerLogos), after: logo.path }],
          });
          return after;
        }),
      );
      return toSellerDto(updated);
    },
  );
}

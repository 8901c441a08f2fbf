// The record service's user calls (SPEC §7 `users/{id}`, `users/`, `users/uploadUserImage`,
// `users/UserImage`; Settings → Profile, issue 29), beside the permission calls of routes.ts under the
// same prefix. Everyone reads and changes their own record; people who manage staff
// (/staff/manage-staff) read others' and change their name and phone, with the staff page's rules; only
// admins change roles, admins' records and sellers' records.
import fastifyMultipart from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { settingsTopic } from '../../../contracts/broker-topics';
import { isCountryCode } from '../../../contracts/domain/iso-codes';
import { can } from '../../../contracts/permissions';
import type { SettingsChangedMessage } from '../../../contracts/settings';
import {
  AVATAR_MAX_BYTES,
  AVATAR_SIZE,
  AVATAR_TYPES,
  changePasswordBodySchema,
  createUserBodySchema,
  type UpdateUserBody,
  type UserRecord,
  updateUserBodySchema,
  userMessageSchema,
  userRecordSchema,
} from '../../../contracts/users';
import type { Config } from '../../config';
import type { Tx } from '../../db/client';
import { users } from '../../db/schema';
import { errorResponses, uploadErrors } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { loadSharp } from '../../lib/load-sharp';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { isUniqueViolation } from '../../lib/pg-errors';
import { readUploadedFile, storeFile, withStoredFile } from '../../lib/uploads';
import { revokeSessions } from '../auth/sessions';
import { LOGOS_FOLDER, logoUrl } from '../sellers/files';
import { STAFF_PAGE } from '../staff/routes';
import { assertNotSelfDeactivation, endAccountAccess, inviteStaffMember } from '../staff/service';
import { displayName } from './current-user';
import { normalisePhone } from './phone';

type UserRow = typeof users.$inferSelect;

const idParams = z.object({ id: z.string().uuid('id must be a user id') });
const errors = errorResponses(400, 403, 404, 409);

const notYours = () => new HttpError(403, 'You can only see and change your own profile.', 'FORBIDDEN');
const notFound = () => new HttpError(404, 'User not found', 'USER_NOT_FOUND');

export async function userRecordRoutes(
  app: FastifyInstance,
  options: { config: Pick<Config, 'publicUrl' | 'MQTT_TOPIC_PREFIX'> },
) {
  // Scoped to this plugin: the permission calls beside it take JSON only.
  await app.register(fastifyMultipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { publicUrl, MQTT_TOPIC_PREFIX: topicPrefix } = options.config;

  const localization = async () => (await app.settings.effective(null)).localization;

  const toRecord = async (row: UserRow): Promise<UserRecord> => {
    const market = await localization();
    return {
      id: row.id,
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      username: displayName(row.firstName, row.lastName, row.email),
      phone: row.phone,
      avatar: row.avatarUrl,
      role: row.role,
      sellerId: row.sellerId,
      isActive: row.isActive,
      defaultCountry: row.defaultCountry,
      defaultLanguage: row.defaultLanguage,
      defaultCurrency: row.defaultCurrency,
      marketplace: {
        defaultCountry: market.defaultCountry,
        defaultLanguage: market.defaultLanguage,
        defaultCurrency: market.defaultCurrency,
        currencies: market.currencies,
        languages: market.languages,
      },
    };
  };

  const findRow = async (id: string): Promise<UserRow | undefined> => {
    const [row] = await app.db.select().from(users).where(eq(users.id, id));
    return row;
  };

  /** Another user's record: admins and staff managers; a seller (or anyone else) gets 403, unread. */
  const readableRow = async (request: FastifyRequest, id: string): Promise<UserRow> => {
    if (id !== request.user.id) {
      const mayRead = request.user.role === 'Admin' || can(await request.permissions(), STAFF_PAGE, 'view');
      if (!mayRead) throw notYours();
    }
    const row = await findRow(id);
    if (!row) throw notFound();
    return row;
  };

  // Tells the user's other tabs to refetch their profile and request defaults.
  const announce = async (userId: string) => {
    const message: SettingsChangedMessage = {
      type: 'SETTINGS_CHANGED',
      section: 'profile',
      sellerId: null,
      userId,
    };
    try {
      await app.broker.publish(settingsTopic(topicPrefix), message, { qos: 1 });
    } catch (error) {
      // The save has committed; the other tabs refetch on their next page load.
      app.log.warn({ err: error }, 'profile change not announced to browsers');
    }
  };

  api.get(
    '/:id',
    {
      schema: {
        tags: ['users'],
        summary: "A user's record: yourself, or anyone for admins and staff managers",
        params: idParams,
        response: { 200: userRecordSchema, ...errors },
      },
    },
    async (request) => toRecord(await readableRow(request, request.params.id)),
  );

  /** What `body` may change of `target` for this requester; 403 for the rest. */
  const assertMayChange = async (request: FastifyRequest, target: UserRow, body: UpdateUserBody) => {
    const self = target.id === request.user.id;
    const changesRole = body.role !== undefined && body.role !== target.role;
    const changesStatus = body.isActive !== undefined && body.isActive !== target.isActive;
    if (self) {
      if (changesRole) throw new HttpError(403, 'You cannot change your own role.', 'FORBIDDEN');
      if (changesStatus) assertNotSelfDeactivation(request.user.id, target.id, body.isActive as boolean);
      return;
    }
    if (!can(await request.permissions(), STAFF_PAGE, 'edit')) throw notYours();
    const changesDefaults =
      body.defaultCountry !== undefined ||
      body.defaultLanguage !== undefined ||
      body.defaultCurrency !== undefined;
    if (changesDefaults) {
      throw new HttpError(403, "A user's own defaults are theirs to choose.", 'FORBIDDEN');
    }
    // The staff page's reach: staff managers change staff accounts; admins any account and roles.
    if (request.user.role !== 'Admin' && (target.role !== 'Staff' || changesRole)) {
      throw new HttpError(403, 'Only an administrator can change this account.', 'FORBIDDEN');
    }
    if (changesRole && (target.role === 'Seller' || body.role === 'Seller')) {
      throw new HttpError(
        409,
        "A seller's account belongs to their shop: its role cannot change.",
        'ROLE_LOCKED',
      );
    }
  };

  /** The row's new values, checked against the marketplace's Localization and the phone rules. */
  const changesOf = async (target: UserRow, body: UpdateUserBody): Promise<Partial<UserRow>> => {
    const market = await localization();
    const changes: Partial<UserRow> = {};
    if (body.firstName !== undefined) changes.firstName = body.firstName;
    if (body.lastName !== undefined) changes.lastName = body.lastName;
    if (body.defaultCountry !== undefined) {
      if (body.defaultCountry !== null && !isCountryCode(body.defaultCountry)) {
        throw new HttpError(400, `${body.defaultCountry} is not a country.`, 'COUNTRY_UNKNOWN');
      }
      changes.defaultCountry = body.defaultCountry;
    }
    if (body.defaultLanguage !== undefined) {
      if (body.defaultLanguage !== null && !market.languages.includes(body.defaultLanguage)) {
        throw new HttpError(
          400,
          `The marketplace does not offer the language ${body.defaultLanguage}.`,
          'LANGUAGE_NOT_OFFERED',
        );
      }
      changes.defaultLanguage = body.defaultLanguage;
    }
    if (body.defaultCurrency !== undefined) {
      if (body.defaultCurrency !== null && !market.currencies.includes(body.defaultCurrency)) {
        throw new HttpError(
          400,
          `The marketplace does not offer the currency ${body.defaultCurrency}.`,
          'CURRENCY_NOT_OFFERED',
        );
      }
      changes.defaultCurrency = body.defaultCurrency;
    }
    if (body.phone !== undefined) {
      // A national number reads in the user's own country, else the marketplace's.
      const country = changes.defaultCountry ?? target.defaultCountry ?? market.defaultCountry;
      changes.phone = normalisePhone(body.phone, country);
    }
    if (body.role !== undefined) changes.role = body.role;
    if (body.isActive !== undefined) changes.isActive = body.isActive;
    return changes;
  };

  api.put(
    '/:id',
    {
      schema: {
        tags: ['users'],
        summary: "Change a user's record: your own name, phone and defaults; staff managers more",
        params: idParams,
        body: updateUserBodySchema,
        response: { 200: userRecordSchema, ...errors },
      },
    },
    async (request) => {
      const target = await readableRow(request, request.params.id);
      await assertMayChange(request, target, request.body);
      const changes = await changesOf(target, request.body);
      const signsOut =
        (changes.isActive === false && target.isActive) ||
        (changes.role !== undefined && changes.role !== target.role);
      let updated: UserRow;
      try {
        updated = await app.db.transaction(async (tx: Tx) => {
          const [row] = await tx
            .update(users)
            .set({ ...changes, updatedAt: new Date() })
            .where(eq(users.id, target.id))
            .returning();
          if (!row) throw notFound();
          // Deactivated: signed out everywhere (the staff page's rule). A new role: access tokens carry
          // the role, so the sessions end and the next sign-in brings the new one.
          if (changes.isActive === false && target.isActive) await endAccountAccess(tx, target.id);
          else if (signsOut) await revokeSessions(tx, { userId: target.id });
          return row;
        });
      } catch (error) {
        if (isUniqueViolation(error, 'users_phone_digits_uq')) {
          throw new HttpError(409, 'Another user already has this phone number.', 'PHONE_TAKEN');
        }
        throw error;
      }
      if (signsOut) {
        app.sessions.forget(target.id);
        app.permissionCache.forget();
      }
      await announce(target.id);
      return toRecord(updated);
    },
  );

  api.post(
    '/',
    {
      config: { permission: { route: STAFF_PAGE, action: 'create' as const } },
      schema: {
        tags: ['users'],
        summary: 'Create a staff user and mail their set-password link (as the staff page invites)',
        body: createUserBodySchema,
        response: { 201: userRecordSchema, ...errorResponses(400, 403, 409) },
      },
    },
    async (request, reply) => {
      const row = await inviteStaffMember(app, publicUrl, request.body, request.user.id);
      return reply.status(201).send(await toRecord(row));
    },
  );

  // SPEC §7 names both uploadUserImage and UserImage for the same form upload with progress: both are
  // this one handler (replace the signed-in user's avatar), so either name the client uses works.
  for (const path of ['/uploadUserImage', '/UserImage']) {
    api.post(
      path,
      {
        schema: {
          tags: ['users'],
          summary: `Replace your avatar (multipart, one file: PNG, JPEG or WebP, ${AVATAR_MAX_BYTES / 1024 / 1024} MB at most; cropped to a square)`,
          consumes: ['multipart/form-data'],
          response: { 200: userRecordSchema, ...uploadErrors },
        },
      },
      async (request) => {
        const file = await readUploadedFile(request, { maxBytes: AVATAR_MAX_BYTES, accepted: AVATAR_TYPES });
        const square = await squareAvatar(file.bytes);
        const stored = await storeFile(app.storage, LOGOS_FOLDER, square, '.webp', 'image/webp');
        const before = await findRow(request.user.id);
        const updated = await withStoredFile(app.storage, stored, async () => {
          const [row] = await app.db
            .update(users)
            .set({ avatarUrl: logoUrl(stored.name), updatedAt: new Date() })
            .where(eq(users.id, request.user.id))
            .returning();
          if (!row) throw notFound();
          return row;
        });
        // The previous avatar is nobody's any more (names are never reused); a failed delete leaves an orphan.
        const previous = before?.avatarUrl;
        if (previous?.startsWith(logoUrl(''))) {
          await app.storage.delete(`${LOGOS_FOLDER}/${previous.slice(logoUrl('').length)}`).catch(() => {});
        }
        await announce(request.user.id);
        return toRecord(updated);
      },
    );
  }

  api.post(
    '/:id/password',
    {
      // Each attempt verifies and hashes with argon2 (deliberately slow): bounded per user.
      config: { rateLimit: { max: 10, timeWindow: 15 * 60_000 } },
      schema: {
        tags: ['users'],
        summary: 'Change your own password: your other sessions end, this one stays',
        params: idParams,
        body: changePasswordBodySchema,
        response: { 200: userMessageSchema, ...errors },
      },
    },
    async (request) => {
      if (request.params.id !== request.user.id) {
        throw new HttpError(403, 'You can only change your own password.', 'FORBIDDEN');
      }
      const row = await findRow(request.user.id);
      if (!row) throw notFound();
      if (!(await verifyPassword(row.passwordHash, request.body.currentPassword))) {
        throw new HttpError(400, 'Your current password is not correct.', 'WRONG_PASSWORD');
      }
      const passwordHash = await hashPassword(request.body.newPassword);
      await app.db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, row.id));
        await revokeSessions(tx, { userId: row.id, exceptSessionId: request.user.sessionId });
      });
      app.sessions.forget(row.id);
      return { message: 'Your password has been changed. Your other sessions are signed out.' };
    },
  );
}

/** The picture cropped to its centre square, AVATAR_SIZE pixels a side, re-encoded (no metadata kept). */
async function squareAvatar(bytes: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    return await sharp(bytes, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new HttpError(400, 'The picture could not be read. Choose another file.', 'IMAGE_UNREADABLE');
  }
}

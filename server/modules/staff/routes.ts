import { and, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  inviteStaffBodySchema,
  listStaffQuerySchema,
  type StaffMember,
  staffListSchema,
  staffMessageSchema,
  updateStaffStatusBodySchema,
} from '../../../contracts/staff';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { containsPattern } from '../../lib/like-pattern';
import { resetPasswordUrl } from '../auth/routes';
import { createPasswordReset, RESET_TOKEN_TTL_MS } from '../auth/service';
import { displayName } from '../users/current-user';
import { INVITE_TTL_MS, inviteMail, passwordResetMail } from './invite-mail';
import { actorName, assertNotSelfDeactivation, endAccountAccess, inviteStaffMember } from './service';

export const STAFF_PAGE = '/staff/manage-staff';
const PAGE = STAFF_PAGE;
const view = { permission: { route: PAGE, action: 'view' as const } };
const create = { permission: { route: PAGE, action: 'create' as const } };
const edit = { permission: { route: PAGE, action: 'edit' as const } };
const errors = errorResponses(400, 403, 404, 409, 429);
const idParams = z.object({ id: z.string().uuid('id must be a staff member id') });

type UserRow = typeof users.$inferSelect;

function toStaffMember(row: UserRow): StaffMember {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    username: displayName(row.firstName, row.lastName, row.email),
    email: row.email,
    phone: row.phone,
    isActive: row.isActive,
    invitePending: isInvitePending(row),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Invited and has not chosen a password yet: the account still has the invitation's throwaway hash. */
function isInvitePending(row: Pick<UserRow, 'inviteHash' | 'passwordHash'>): boolean {
  return row.inviteHash !== null && row.inviteHash === row.passwordHash;
}

async function findStaff(db: Db, id: string): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'Staff')));
  if (!row) throw new HttpError(404, 'Staff member not found', 'STAFF_NOT_FOUND');
  return row;
}

/**
 * Staff accounts (/staff/manage-staff). An invitation creates the account with a random password nobody
 * knows and mails a set-password link: the password-reset link of the auth module, valid for longer.
 * Deactivating ends every session at once; sign-in and refresh refuse inactive accounts (auth module).
 */
export async function staffRoutes(app: FastifyInstance, options: { config: Config }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { publicUrl } = options.config;

  api.get(
    '/listStaff',
    {
      config: view,
      schema: {
        tags: ['staff'],
        summary: 'Staff members, newest first, paged and searchable by name or e-mail',
        querystring: listStaffQuerySchema,
        response: { 200: staffListSchema, ...errors },
      },
    },
    async (request) => {
      const { query, status, skip, limit } = request.query;
      const filters: SQL[] = [eq(users.role, 'Staff')];
      if (status !== 'all') filters.push(eq(users.isActive, status === 'active'));
      if (query) {
        const pattern = containsPattern(query);
        filters.push(
          or(
            ilike(users.email, pattern),
            ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
          ) as SQL,
        );
      }
      const where = and(...filters);
      const [rows, [total]] = await Promise.all([
        app.db
          .select()
          .from(users)
          .where(where)
          .orderBy(desc(users.createdAt), desc(users.id))
          .limit(limit)
          .offset(skip),
        app.db.select({ value: count() }).from(users).where(where),
      ]);
      return { rows: rows.map(toStaffMember), count: total?.value ?? 0 };
    },
  );

  api.post(
    '/inviteStaff',
    {
      config: create,
      schema: {
        tags: ['staff'],
        summary: 'Create a staff account and mail its set-password link',
        body: inviteStaffBodySchema,
        response: { 201: staffMessageSchema, ...errors },
      },
    },
    async (request, reply) => {
      const row = await inviteStaffMember(app, publicUrl, request.body, request.user.id);
      const { email } = request.body;
      return reply.status(201).send({ message: `Invitation sent to ${email}.`, staff: toStaffMember(row) });
    },
  );

  api.post(
    '/resendInvite/:id',
    {
      config: create,
      schema: {
        tags: ['staff'],
        summary:
          'Mail a staff member a new password link: the invitation again while it is pending, a password reset otherwise',
        params: idParams,
        response: { 200: staffMessageSchema, ...errors },
      },
    },
    async (request) => {
      const staff = await findStaff(app.db, request.params.id);
      if (!staff.isActive) {
        throw new HttpError(
          409,
          'This account is deactivated. Reactivate it before sending a new link.',
          'ACCOUNT_INACTIVE',
        );
      }
      // A pending invitee gets the invitation again (3 days to choose a password); someone who has chosen
      // one gets a password reset (30 minutes, like the forgot-password mail).
      const pending = isInvitePending(staff);
      const reset = await createPasswordReset(
        app.db,
        staff.email,
        pending ? INVITE_TTL_MS : RESET_TOKEN_TTL_MS,
      );
      if (!reset) {
        throw new HttpError(
          429,
          'A link was sent to this address less than a minute ago. Wait a minute before sending another.',
          'TOO_MANY_REQUESTS',
        );
      }
      const sender = await actorName(app.db, request.user.id);
      const link = resetPasswordUrl(publicUrl, reset.token);
      await app.mailer.send(
        pending
          ? inviteMail({ to: staff.email, firstName: staff.firstName, invitedBy: sender, link })
          : passwordResetMail({ to: staff.email, firstName: staff.firstName, sentBy: sender, link }),
      );
      return { message: `A new link was sent to ${staff.email}.`, staff: toStaffMember(staff) };
    },
  );

  api.put(
    '/updateStaffStatus/:id',
    {
      config: edit,
      schema: {
        tags: ['staff'],
        summary: 'Deactivate or reactivate a staff account; deactivating ends its sessions',
        params: idParams,
        body: updateStaffStatusBodySchema,
        response: { 200: staffMessageSchema, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { isActive } = request.body;
      assertNotSelfDeactivation(request.user.id, id, isActive);
      const row = await app.db.transaction(async (tx) => {
        const now = new Date();
        const [updated] = await tx
          .update(users)
          .set({ isActive, updatedAt: now })
          .where(and(eq(users.id, id), eq(users.role, 'Staff')))
          .returning();
        if (!updated) throw new HttpError(404, 'Staff member not found', 'STAFF_NOT_FOUND');
        // A new set-password link can be sent after reactivation.
        if (!isActive) await endAccountAccess(tx, id);
        return updated;
      });
      if (!isActive) app.sessions.forget(id);
      const staff = toStaffMember(row);
      return {
        message: `${staff.username} ${isActive ? 'can sign in again' : 'is deactivated and signed out everywhere'}.`,
        staff,
      };
    },
  );
}

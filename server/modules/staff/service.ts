// The staff-account rules shared by the staff page (routes.ts) and the user record calls
// (server/modules/users/record-routes.ts): inviting an account and switching one off.
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { InviteStaffBody } from '../../../contracts/staff';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import { hashPassword } from '../../lib/passwords';
import { isUniqueViolation } from '../../lib/pg-errors';
import { randomToken } from '../../lib/secrets';
import { resetPasswordUrl } from '../auth/routes';
import { createPasswordReset, retireResetLinks } from '../auth/service';
import { revokeSessions } from '../auth/sessions';
import { displayName } from '../users/current-user';
import { allocateLocalNumber, withFreshNumber } from '../voice/phone-numbers';
import { INVITE_TTL_MS, inviteMail } from './invite-mail';

type UserRow = typeof users.$inferSelect;

export const emailTaken = () =>
  new HttpError(409, 'A user with this e-mail address already exists.', 'EMAIL_TAKEN');

export async function actorName(db: Db, userId: string): Promise<string> {
  const [actor] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return actor ? displayName(actor.firstName, actor.lastName, actor.email) : 'An administrator';
}

/**
 * Creates a staff account with a random password nobody knows and mails its set-password link (the
 * password-reset link of the auth module, valid for longer). 409 when the e-mail is taken.
 */
export async function inviteStaffMember(
  app: FastifyInstance,
  publicUrl: string,
  body: Required<InviteStaffBody>,
  inviterId: string,
): Promise<UserRow> {
  const { firstName, lastName, email } = body;
  const [existing] = await app.db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email));
  if (existing) throw emailTaken();
  // Nobody ever learns this password: the account is usable only once the link has set one.
  const unusableHash = await hashPassword(randomToken());
  const invitedBy = await actorName(app.db, inviterId);
  try {
    // The mail goes out inside the transaction: if it cannot be sent, no account is left behind
    // without a way in, and the admin simply tries again.
    // Every user has a phone number for voice calls; a race for the same one is tried again.
    return await withFreshNumber(() =>
      app.db.transaction(async (tx) => {
        const phone = await allocateLocalNumber(tx);
        const [created] = await tx
          .insert(users)
          .values({
            email,
            firstName,
            lastName,
            role: 'Staff',
            passwordHash: unusableHash,
            inviteHash: unusableHash,
            phone,
          })
          .returning();
        const reset = await createPasswordReset(tx, email, INVITE_TTL_MS);
        if (!created || !reset) throw new Error('invited account could not get a set-password link');
        await app.mailer.send(
          inviteMail({ to: email, firstName, invitedBy, link: resetPasswordUrl(publicUrl, reset.token) }),
        );
        return created;
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_uq')) throw emailTaken();
    throw error;
  }
}

/** Nobody switches their own account off: they could not switch it back on. */
export function assertNotSelfDeactivation(actorId: string, userId: string, isActive: boolean): void {
  if (userId === actorId && !isActive) {
    throw new HttpError(409, 'You cannot deactivate your own account.', 'SELF_DEACTIVATION');
  }
}

/**
 * A deactivated account is signed out everywhere at once (its access tokens stop on every instance
 * too), and an unused set-password link cannot be spent any more. The caller calls
 * `app.sessions.forget(userId)` after commit.
 */
export async function endAccountAccess(tx: Db | Tx, userId: string): Promise<void> {
  await revokeSessions(tx, { userId });
  await retireResetLinks(tx, userId);
}

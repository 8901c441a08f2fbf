// Who may start and take video calls (signalling.ts, presence.ts).
import { eq } from 'drizzle-orm';
import { CALL_PERMISSION } from '../../../../contracts/calls';
import type { Db } from '../../../db/client';
import { users } from '../../../db/schema';
import { isBlockedSeller } from '../../../plugins/blocked-seller';
import type { TokenUser } from '../../auth/tokens';
import { can, effectivePermissions } from '../../permissions/service';

/** Whether the user may start calls: the calls page's permission, and not a blocked seller. */
export async function mayMakeCalls(db: Db, user: TokenUser): Promise<boolean> {
  const permissions = await effectivePermissions(db, user);
  if (!can(permissions, CALL_PERMISSION.route, CALL_PERMISSION.action)) return false;
  return !(user.role === 'Seller' && user.sellerId && (await isBlockedSeller(db, user.sellerId)));
}

/** Whether the user is a seller whose subscription is blocked: they take no calls either. */
export async function isBlockedCallee(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ role: users.role, sellerId: users.sellerId })
    .from(users)
    .where(eq(users.id, userId));
  return row?.role === 'Seller' && row.sellerId !== null && (await isBlockedSeller(db, row.sellerId));
}

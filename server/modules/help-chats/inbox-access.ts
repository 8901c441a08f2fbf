// Who may read every seller's help chats: admins and staff holding `view` on /customers/help-chats.
// The broker asks when they connect, so their inbox listens to every sales-bot chat (live toasts).
import { CUSTOMER_HELP_CHATS } from '../../../contracts/help-chats';
import type { Db } from '../../db/client';
import type { TokenUser } from '../auth/tokens';
import { effectivePermissions } from '../permissions/service';

export async function readsAllChats(db: Db, user: TokenUser): Promise<boolean> {
  if (user.role === 'Seller') return false;
  const permissions = await effectivePermissions(db, user);
  return permissions[CUSTOMER_HELP_CHATS]?.includes('view') ?? false;
}

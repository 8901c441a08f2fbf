import type { ServerRole } from '../../../contracts/roles';

/**
 * Who may call whom on the back-office phone. Admins and staff may call anyone (they run the
 * marketplace and support sellers); sellers call the marketplace's people, never another seller. The
 * same rule decides which numbers a call log names: a name is told only for a number its owner could
 * have called (or been called from), so logging made-up calls maps no numbers to names.
 */
export function mayCall(caller: ServerRole, callee: ServerRole): boolean {
  return caller !== 'Seller' || callee !== 'Seller';
}

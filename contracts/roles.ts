// Plain TypeScript, no zod: the entry chunk uses these helpers. The role schema is in contracts/auth.ts.

/** Role names as the server stores and answers them (SPEC §6). */
export const serverRoles = ['Admin', 'Staff', 'Seller'] as const;
export type ServerRole = (typeof serverRoles)[number];

/** Role names as the browser keeps them in stored auth (SPEC §6). */
export type StoredRole = 'ROLE_ADMIN' | 'ROLE_STAFF' | 'ROLE_SELLER';

const toStored: Record<ServerRole, StoredRole> = {
  Admin: 'ROLE_ADMIN',
  Staff: 'ROLE_STAFF',
  Seller: 'ROLE_SELLER',
};

export function toStoredRoles(roles: readonly ServerRole[]): StoredRole[] {
  return roles.map((role) => toStored[role]);
}

/** SPEC §6: isAdmin = ROLE_ADMIN; isStaff = ROLE_STAFF; isSeller = ROLE_SELLER and not ROLE_ADMIN. */
export function roleFlags(roles: readonly StoredRole[]) {
  const isAdmin = roles.includes('ROLE_ADMIN');
  return {
    isAdmin,
    isStaff: roles.includes('ROLE_STAFF'),
    isSeller: roles.includes('ROLE_SELLER') && !isAdmin,
  };
}

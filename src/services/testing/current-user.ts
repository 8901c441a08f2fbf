import type { CurrentUser } from '../../../contracts/auth';

/** A signed-in admin as the server answers it (SPEC §3 current user), for tests; override what matters. */
export function makeCurrentUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'u-1',
    username: 'Asha Rao',
    email: 'asha@demo.local',
    userAvatar: null,
    defaultCurrency: 'INR',
    defaultCountry: 'IN',
    defaultLanguage: 'EN',
    roles: ['Admin'],
    isAdmin: true,
    isStaff: false,
    isSeller: false,
    seller: null,
    ...overrides,
  };
}

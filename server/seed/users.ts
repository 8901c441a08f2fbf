import type { ServerRole } from '../../contracts/roles';
import type { Tx } from '../db/client';
import { users } from '../db/schema';
import { hashPassword } from '../lib/passwords';
import type { DemoSellerIds } from './sellers';

export const DEMO_PASSWORD = 'Demo@12345';

export interface DemoAccount {
  email: string;
  role: ServerRole;
  firstName: string;
  lastName: string;
  description: string;
  sellerId?: string;
}

export async function seedUsers(tx: Tx, ids: DemoSellerIds) {
  const accounts: DemoAccount[] = [
    { email: 'admin@demo.local', role: 'Admin', firstName: 'Asha', lastName: 'Admin', description: 'Admin' },
    { email: 'staff@demo.local', role: 'Staff', firstName: 'Sam', lastName: 'Staff', description: 'Staff' },
    {
      email: 'seller@demo.local',
      role: 'Seller',
      firstName: 'Sunil',
      lastName: 'Seller',
      description: 'an active seller',
      sellerId: ids.demoSellerId,
    },
    {
      email: 'blocked@demo.local',
      role: 'Seller',
      firstName: 'Bela',
      lastName: 'Blocked',
      description: 'a seller whose subscription is blocked',
      sellerId: ids.blockedSellerId,
    },
    {
      email: 'kyc@demo.local',
      role: 'Seller',
      firstName: 'Kavya',
      lastName: 'Kesar',
      description: 'a seller whose KYC was rejected',
      sellerId: ids.kycSellerId,
    },
  ];
  // Each account gets its own salt: hashes are computed one by one (argon2 is deliberately slow).
  for (const [index, account] of accounts.entries()) {
    await tx.insert(users).values({
      email: account.email,
      passwordHash: await hashPassword(DEMO_PASSWORD),
      firstName: account.firstName,
      lastName: account.lastName,
      role: account.role,
      sellerId: account.sellerId ?? null,
      phone: `+91 90000 0000${index + 1}`,
    });
  }
  return accounts;
}

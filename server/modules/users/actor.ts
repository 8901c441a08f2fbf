// The signed-in user as an audit entry names them (server/lib/audit).
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import type { Actor } from '../../lib/audit';
import { displayName } from './current-user';

export async function actorOf(db: Db | Tx, request: FastifyRequest): Promise<Actor> {
  const [user] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, request.user.id));
  return {
    id: request.user.id,
    name: user ? displayName(user.firstName, user.lastName, user.email) : 'Unknown user',
  };
}

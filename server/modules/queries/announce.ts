// A new query is announced to the people who answer it (issue 30): the shop's active seller accounts,
// or for the marketplace's own queries the admins, through app.notifications — in-app (the bell and a
// toast in every open tab, over the broker's per-user topic) and by mail as the communication settings'
// 'customer-query' channel says. The inbox page refreshes when such a notification arrives, so it is
// live without a topic of its own. Whoever entered the query by hand is not told of it.
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { queryPageLink } from '../../../contracts/queries';
import { customerQueries, users } from '../../db/schema';

/** Who answers a query nobody holds: the shop's active seller accounts, or the admins for the marketplace's own. */
export async function queryAnswerers(app: FastifyInstance, sellerId: string | null): Promise<string[]> {
  const rows = await app.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.isActive, true),
        sellerId ? and(eq(users.role, 'Seller'), eq(users.sellerId, sellerId)) : eq(users.role, 'Admin'),
      ),
    );
  return rows.map((row) => row.id);
}

export async function announceNewQuery(app: FastifyInstance, id: string, enteredBy: string | null = null) {
  const [query] = await app.db.select().from(customerQueries).where(eq(customerQueries.id, id));
  if (!query) return;
  for (const userId of await queryAnswerers(app, query.sellerId)) {
    if (userId === enteredBy) continue;
    await app.notifications
      .notify(userId, {
        type: 'customer-query',
        title: `New query Q-${query.number}: ${query.subject}`.slice(0, 200),
        body: `${query.customerName} (${query.channel})`,
        link: queryPageLink(query.id),
      })
      .catch((error) => app.log.warn({ err: error, queryId: id }, 'new query notification failed'));
  }
}

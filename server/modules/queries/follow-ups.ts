// Follow-ups owned by a person, not a state (issue 30; ANCHORS §7: Zammad #1223, #5051, #2931, #340).
// The sweep reads the assignee when the follow-up falls due, so a reassignment moves the reminder; a
// resolve clears the date and a date change clears `follow_up_notified_at`, so nothing fires twice or
// after the end. Each due row is claimed by one UPDATE … RETURNING: several instances may sweep at once
// and each reminder still goes out exactly once. The notification reaches every open tab of the
// assignee through the broker, and their mail when the communication settings say so.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { unresolvedQueryStatuses } from '../../../contracts/domain/query-status';
import { queryPageLink } from '../../../contracts/queries';
import type { Db } from '../../db/client';
import { customerQueries, queryEvents, users } from '../../db/schema';
import type { NotificationInput } from '../../lib/notifications';

export interface Reminder {
  userId: string;
  input: NotificationInput;
}

/** Who hears of an unassigned query: the shop's active seller accounts, or for the marketplace's own the admins. */
async function fallbackRecipients(db: Db, sellerId: string | null): Promise<string[]> {
  const rows = await db
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

/**
 * The reminders due at `now`: follow-ups reached (claimed once) and snoozes ended (the query reopens).
 * Answers who to notify of what; the caller sends them.
 */
export async function dueReminders(db: Db, now: Date): Promise<Reminder[]> {
  const q = customerQueries;
  const unresolved = inArray(q.status, [...unresolvedQueryStatuses]);
  const claimed = await db
    .update(q)
    .set({ followUpNotifiedAt: now })
    .where(
      and(
        sql`${q.nextFollowUpAt} <= ${now.toISOString()}::timestamptz`,
        sql`${q.followUpNotifiedAt} IS NULL`,
        unresolved,
      ),
    )
    .returning({
      id: q.id,
      number: q.number,
      subject: q.subject,
      assigneeId: q.assigneeId,
      sellerId: q.sellerId,
      note: q.followUpNote,
      customerName: q.customerName,
    });
  // A snooze that ends reopens the query (waiting → open, logged as a status move for the SLA
  // clocks) and tells the assignee. SKIP LOCKED: another instance's sweep takes the other rows.
  const woken = await db.transaction(async (tx) => {
    const rows = await tx
      .select({
        id: q.id,
        number: q.number,
        subject: q.subject,
        assigneeId: q.assigneeId,
        sellerId: q.sellerId,
        status: q.status,
        customerName: q.customerName,
      })
      .from(q)
      .where(and(sql`${q.snoozedUntil} <= ${now.toISOString()}::timestamptz`, unresolved))
      .for('update', { skipLocked: true });
    if (!rows.length) return [];
    const ids = rows.map((row) => row.id);
    await tx.update(q).set({ snoozedUntil: null, lastActivityAt: now }).where(inArray(q.id, ids));
    const waiting = rows.filter((row) => row.status === 'waiting').map((row) => row.id);
    if (waiting.length) await tx.update(q).set({ status: 'open' }).where(inArray(q.id, waiting));
    await tx.insert(queryEvents).values(
      rows.flatMap((row) => [
        ...(row.status === 'waiting'
          ? [
              {
                queryId: row.id,
                kind: 'status',
                actorName: 'System',
                data: { from: 'waiting', to: 'open' },
                createdAt: now,
              },
            ]
          : []),
        {
          queryId: row.id,
          kind: 'snooze',
          actorName: 'System',
          body: 'The snooze ended.',
          data: { ended: true },
          createdAt: now,
        },
      ]),
    );
    return rows.map((row) => ({ ...row, note: '' }));
  });
  const reminders: Reminder[] = [];
  for (const [rows, what] of [
    [claimed, 'Follow-up due'],
    [woken, 'Snooze ended'],
  ] as const) {
    for (const row of rows) {
      const to = row.assigneeId ? [row.assigneeId] : await fallbackRecipients(db, row.sellerId);
      for (const userId of to) {
        reminders.push({
          userId,
          input: {
            type: 'customer-query',
            title: `${what}: Q-${row.number} ${row.subject}`.slice(0, 200),
            body: row.note ? `${row.customerName}: ${row.note}` : `Query from ${row.customerName}`,
            link: queryPageLink(row.id),
          },
        });
      }
    }
  }
  return reminders;
}

// The overdue sweep (issue 31): every hour, issued invoices past their due date become overdue, and the
// buyer is reminded with the PDF when the invoice becomes overdue and then every
// `company.invoiceReminderDays` days (0: never). Each invoice is claimed by one conditional UPDATE, so
// with several instances running the sweep one reminder goes out, not one per instance. "Today" is the
// issuer's: the due date is a day in its time zone.
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { invoices } from '../../db/schema';
import { recordAuditEntries, SYSTEM_ACTOR } from '../../lib/audit';
import { sweepWhileUp } from '../../lib/periodic-sweep';
import { issuerSettings } from './issue';
import { sendInvoiceMail } from './mail';
import { todayFor } from './numbering';

const HOUR = 3_600_000;
const BATCH = 200;

export async function runOverdueSweep(app: FastifyInstance, now = new Date()) {
  // The widest "today" anywhere (UTC+14) bounds the candidates; each issuer's own day decides.
  const latestToday = new Date(now.getTime() + 14 * HOUR).toISOString().slice(0, 10);
  const candidates = await app.db
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.kind, 'invoice'),
        lt(invoices.dueDate, latestToday),
        or(
          inArray(invoices.status, ['unpaid', 'pending']),
          // Overdue ones come back at most daily, the least recently considered first.
          and(
            eq(invoices.status, 'overdue'),
            or(isNull(invoices.remindedAt), lte(invoices.remindedAt, new Date(now.getTime() - 23 * HOUR))),
          ),
        ),
      ),
    )
    .orderBy(sql`${invoices.remindedAt} ASC NULLS FIRST`, asc(invoices.dueDate))
    .limit(BATCH);
  let overdue = 0;
  let reminded = 0;
  for (const row of candidates) {
    const settings = await issuerSettings(app, row.issuer);
    const today = todayFor(settings, now);
    if (!row.dueDate || row.dueDate >= today) continue;
    if (row.status !== 'overdue') {
      const moved = await app.db
        .update(invoices)
        .set({ status: 'overdue', updatedAt: now })
        .where(and(eq(invoices.id, row.id), inArray(invoices.status, ['unpaid', 'pending'])))
        .returning({ id: invoices.id });
      if (moved.length) {
        overdue++;
        await recordAuditEntries(app.db, [
          {
            subject: { type: 'invoice', id: row.id },
            actor: SYSTEM_ACTOR,
            action: 'overdue',
            changes: [{ field: 'Status', before: row.status, after: 'overdue' }],
          },
        ]);
      }
    }
    // remindedAt: when the invoice was last considered for a reminder (mailed or, with reminders off or
    // no address, passed over), so it waits a day before it is looked at again.
    const every = settings.company.invoiceReminderDays;
    if (every <= 0 || !row.buyerEmail) {
      await app.db.update(invoices).set({ remindedAt: now }).where(eq(invoices.id, row.id));
      continue;
    }
    const cutoff = new Date(now.getTime() - every * 24 * HOUR + HOUR);
    const claimed = await app.db
      .update(invoices)
      .set({ remindedAt: now })
      .where(
        and(
          eq(invoices.id, row.id),
          eq(invoices.status, 'overdue'),
          or(isNull(invoices.remindedAt), lte(invoices.remindedAt, cutoff)),
        ),
      )
      .returning();
    const claimedRow = claimed[0];
    if (!claimedRow) continue;
    await sendInvoiceMail(
      app,
      claimedRow,
      claimedRow.buyerEmail,
      `invoice-reminder-${row.id}-${now.toISOString().slice(0, 10)}`,
      `This is a reminder: `,
    );
    reminded++;
  }
  return { overdue, reminded };
}

export function startOverdueSweep(app: FastifyInstance) {
  sweepWhileUp(app, {
    name: 'invoice overdue sweep',
    everyMs: HOUR,
    runAtStart: true,
    run: () => runOverdueSweep(app),
    log: app.log,
  });
}

// The demo call history (issue 6): calls between the demo admin, staff and seller over the past two
// weeks, each logged on both sides (OUTGOING for the caller, INCOMING for the callee) as the local
// provider does, plus a few calls to customers' numbers nobody here owns. Mixed outcomes, durations,
// some feedback, and timelines like the API writes them. One INSERT.
import type { CallStatus, CallTimelineEntry, FeedbackData } from '../../contracts/calls';
import type { Tx } from '../db/client';
import { callLogs, users } from '../db/schema';

type Who = 'admin' | 'staff' | 'seller';
interface DemoCall {
  from: Who;
  /** A demo account, or a customer's number. */
  to: Who | string;
  status: CallStatus;
  /** Days ago the call was made (fractions for the time of day). */
  daysAgo: number;
  seconds?: number;
  /** Feedback the caller (and the callee, when `both`) gave. */
  feedback?: FeedbackData;
  both?: boolean;
}

const demoCalls: DemoCall[] = [
  {
    from: 'staff',
    to: 'seller',
    status: 'Connected',
    daysAgo: 0.1,
    seconds: 312,
    feedback: { rating: 5, text: 'Seller confirmed the restock date.' },
    both: true,
  },
  { from: 'seller', to: 'staff', status: 'Connected', daysAgo: 0.6, seconds: 95 },
  { from: 'admin', to: 'staff', status: 'Not Picked', daysAgo: 1.2 },
  {
    from: 'staff',
    to: 'admin',
    status: 'Connected',
    daysAgo: 1.3,
    seconds: 604,
    feedback: { rating: 4, text: 'Went through the refund queue.' },
  },
  { from: 'admin', to: 'seller', status: 'Rejected', daysAgo: 2.4 },
  { from: 'seller', to: 'admin', status: 'Call Ignored', daysAgo: 3.1 },
  { from: 'staff', to: 'seller', status: 'Call Cancelled', daysAgo: 4.5 },
  {
    from: 'admin',
    to: 'seller',
    status: 'Connected',
    daysAgo: 5.2,
    seconds: 1480,
    feedback: { rating: 3, text: 'Line dropped once; KYC papers discussed.' },
  },
  {
    from: 'seller',
    to: 'staff',
    status: 'Call Disconnected',
    daysAgo: 7.8,
    seconds: 41,
    feedback: { rating: 2, text: 'Call dropped mid-way.' },
  },
  { from: 'staff', to: 'admin', status: 'Connected', daysAgo: 11, seconds: 188 },
  {
    from: 'staff',
    to: '+91 98450 12345',
    status: 'Connected',
    daysAgo: 0.3,
    seconds: 236,
    feedback: { rating: 5, text: 'Customer happy with the replacement.' },
  },
  { from: 'seller', to: '+91 99001 23456', status: 'Not Picked', daysAgo: 2 },
  { from: 'admin', to: '+44 20 7946 0018', status: 'Connected', daysAgo: 6, seconds: 422 },
  { from: 'seller', to: '+91 80 4567 8901', status: 'Connected', daysAgo: 9.5, seconds: 77 },
];

const isoPlus = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000).toISOString();
const digitsOf = (phone: string) => phone.replace(/[^0-9]/g, '');
/** Calls that were answered have a start, an end and a duration. */
const answered = (status: CallStatus) => status === 'Connected' || status === 'Call Disconnected';

export async function seedCalls(tx: Tx) {
  const accounts = await tx.select({ id: users.id, email: users.email, phone: users.phone }).from(users);
  const byWho = (who: Who) => {
    const account = accounts.find((a) => a.email === `${who}@demo.local`);
    if (!account) throw new Error(`demo account ${who} missing`);
    return account;
  };
  const now = Date.now();
  const rows: (typeof callLogs.$inferInsert)[] = [];
  for (const call of demoCalls) {
    const caller = byWho(call.from);
    const callee = call.to.startsWith('+') ? null : byWho(call.to as Who);
    const createdAt = new Date(now - call.daysAgo * 86_400_000);
    const seconds = answered(call.status) ? (call.seconds ?? 60) : 0;
    const startedAt = answered(call.status) ? new Date(createdAt.getTime() + 6_000) : null;
    const endedAt = startedAt ? new Date(startedAt.getTime() + seconds * 1000) : null;
    const side = (
      ownerId: string,
      referenceType: 'INCOMING' | 'OUTGOING',
      otherPhone: string,
      peerUserId: string | null,
      feedback?: FeedbackData,
    ) => {
      const timeline: CallTimelineEntry[] = [
        {
          at: createdAt.toISOString(),
          event: 'created',
          note: `${referenceType === 'INCOMING' ? 'Incoming' : 'Outgoing'} call (${peerUserId ? 'LOCAL' : 'TWILIO'})`,
        },
        {
          at: createdAt.toISOString(),
          event: 'status',
          callStatus: answered(call.status) ? 'Not Picked' : call.status,
        },
      ];
      if (answered(call.status)) {
        timeline.push({ at: isoPlus(createdAt, 6), event: 'status', callStatus: 'Connected' });
        if (call.status !== 'Connected')
          timeline.push({ at: isoPlus(createdAt, 6 + seconds), event: 'status', callStatus: call.status });
      }
      if (feedback)
        timeline.push({
          at: isoPlus(createdAt, 30 + seconds),
          event: 'feedback',
          note: `Rated ${feedback.rating}/5: ${feedback.text}`,
        });
      const digits = digitsOf(otherPhone);
      rows.push({
        ownerId,
        phoneNumber: otherPhone.trim().startsWith('+') ? `+${digits}` : digits,
        phoneDigits: digits,
        peerUserId,
        referenceType,
        source: peerUserId ? 'LOCAL' : 'TWILIO',
        callStatus: call.status,
        startedAt,
        endedAt,
        durationSeconds: seconds,
        feedbackRating: feedback?.rating ?? null,
        feedbackText: feedback?.text ?? null,
        timeline,
        createdAt,
        updatedAt: new Date(createdAt.getTime() + (30 + seconds) * 1000),
      });
    };
    side(caller.id, 'OUTGOING', callee ? callee.phone : call.to, callee?.id ?? null, call.feedback);
    if (callee) side(callee.id, 'INCOMING', caller.phone, caller.id, call.both ? call.feedback : undefined);
  }
  await tx.insert(callLogs).values(rows);
}

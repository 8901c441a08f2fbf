// Video calls in the database (table video_calls, issue 13): each call's state, and what a call leaves
// behind when it ends — one call log per party (call history, media 'video') and, when it was missed, a
// notification for the callee — written in the same transaction as the state change.
import { and, desc, eq, getTableColumns, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { CallDetails, CallStatus } from '../../../contracts/calls';
import { CALL_HISTORY_ROUTE } from '../../../contracts/calls';
import { formatTime } from '../../../contracts/domain/format';
import type { ServerRole } from '../../../contracts/roles';
import { MISSED_VIDEO_CALL_TITLE, type VideoCallState } from '../../../contracts/video-calls';
import type { Db, Tx } from '../../db/client';
import { users, videoCalls } from '../../db/schema';
import { insertCall } from '../call-history/repository';
import { insertNotification, type NotificationRow } from '../notifications/repository';
import { displayName } from '../users/current-user';
import { ensureUserNumber } from '../voice/phone-numbers';
import { displayNumber } from '../voice/routes';

export type VideoCallRow = typeof videoCalls.$inferSelect;
/** A call as the handlers read it: with whether its ring deadline has passed, by the database's clock. */
export type VideoCall = VideoCallRow & { rangOut: boolean };

export const finalStates = ['ended', 'declined', 'busy', 'missed', 'cancelled'] as const;
export type FinalState = (typeof finalStates)[number];

export function isFinal(state: VideoCallState): state is FinalState {
  return (finalStates as readonly string[]).includes(state);
}
export function isAnswered(state: VideoCallState): boolean {
  return state === 'accepted' || state === 'connected';
}

/**
 * Live calls, spelled exactly as the partial indexes video_calls_live_caller_idx / _callee_idx are (a
 * literal list, not parameters), so the planner can use them. A ringing row past its deadline is still
 * 'ringing' here until a timer or the sweep ends it; `ringingInTime` leaves those out.
 */
const liveState = sql`${videoCalls.state} in ('ringing', 'accepted', 'connected')`;
const ringingInTime = sql`(${videoCalls.state} <> 'ringing' or ${videoCalls.ringDeadline} > now())`;

const callColumns = {
  ...getTableColumns(videoCalls),
  rangOut: sql<boolean>`(${videoCalls.ringDeadline} <= now())`.mapWith(Boolean),
};

/** One call by id (its primary key); `lock` holds its row for the rest of the transaction. */
export async function findVideoCall(db: Db | Tx, id: string, lock = false): Promise<VideoCall | undefined> {
  const query = db.select(callColumns).from(videoCalls).where(eq(videoCalls.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** The newest call ringing in time from `callerId` to `calleeId`, if any (the SPEC's `answerCall` names
 * only the caller). */
export async function ringingCallBetween(db: Db | Tx, callerId: string, calleeId: string) {
  const [row] = await db
    .select({ id: videoCalls.id })
    .from(videoCalls)
    .where(
      and(
        eq(videoCalls.callerId, callerId),
        eq(videoCalls.calleeId, calleeId),
        eq(videoCalls.state, 'ringing'),
        ringingInTime,
      ),
    )
    .orderBy(desc(videoCalls.createdAt))
    .limit(1);
  return row?.id;
}

export async function videoCallExists(db: Db | Tx, id: string): Promise<boolean> {
  const [row] = await db.select({ id: videoCalls.id }).from(videoCalls).where(eq(videoCalls.id, id));
  return row !== undefined;
}

/** The live calls (ringing in time, accepted, connected) these users are party to, either side. */
export async function liveCallsOf(db: Db | Tx, userIds: string[]): Promise<VideoCall[]> {
  return db
    .select(callColumns)
    .from(videoCalls)
    .where(
      and(
        or(
          and(inArray(videoCalls.callerId, userIds), liveState),
          and(inArray(videoCalls.calleeId, userIds), liveState),
        ),
        ringingInTime,
      ),
    );
}

/** Answered calls (accepted, connected), for the sweep that looks for parties gone for good. */
export async function answeredCalls(db: Db, limit: number) {
  return db
    .select({ id: videoCalls.id, callerId: videoCalls.callerId, calleeId: videoCalls.calleeId })
    .from(videoCalls)
    .where(and(liveState, sql`${videoCalls.state} in ('accepted', 'connected')`))
    .limit(limit);
}

/**
 * Ringing calls past their deadline by more than `slackMs`: their instance's timer did not end them (the
 * instance stopped). The slack leaves the normal case to the timer.
 */
export async function rangOutCalls(db: Db, slackMs: number, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: videoCalls.id })
    .from(videoCalls)
    .where(
      and(
        liveState,
        eq(videoCalls.state, 'ringing'),
        sql`${videoCalls.ringDeadline} < now() - ${slackMs} * interval '1 millisecond'`,
      ),
    )
    .limit(limit);
  return rows.map((row) => row.id);
}

/** A party of a call as the handlers need them: who, what they may do, how they are named and numbered. */
export interface Party {
  id: string;
  role: ServerRole;
  name: string;
  avatarUrl: string | null;
  isActive: boolean;
  /** The user's phone number ('' until numbered: see withNumbers). */
  phone: string;
}

const partyColumns = {
  id: users.id,
  role: users.role,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  avatarUrl: users.avatarUrl,
  isActive: users.isActive,
  phone: users.phone,
};

function toParty(row: {
  id: string;
  role: ServerRole;
  firstName: string;
  lastName: string;
  email: string;
  avatarUrl: string | null;
  isActive: boolean;
  phone: string;
}): Party {
  return {
    id: row.id,
    role: row.role,
    name: displayName(row.firstName, row.lastName, row.email),
    avatarUrl: row.avatarUrl,
    isActive: row.isActive,
    phone: row.phone,
  };
}

export type Parties = Map<string, Party>;

/** The users with these ids, by id (missing ids are absent). */
export async function findParties(db: Db, ids: string[]): Promise<Parties> {
  const rows = await db.select(partyColumns).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((row) => [row.id, toParty(row)]));
}

/**
 * Gives every party a phone number (call logs name the other party's). Before the transaction that
 * logs the call: numbering a user may retry on a unique violation, which a transaction cannot survive.
 */
export async function withNumbers(db: Db, parties: Parties): Promise<Parties> {
  for (const party of parties.values())
    if (party.phone === '') party.phone = await ensureUserNumber(db, party.id);
  return parties;
}

/** Both parties of a call, numbered: what ending the call needs. */
export async function partiesOf(db: Db, call: { callerId: string; calleeId: string }): Promise<Parties> {
  return withNumbers(db, await findParties(db, [call.callerId, call.calleeId]));
}

/**
 * Locks the users' rows, in id order, until the transaction ends: concurrent calls between the same
 * people (on any instance) take turns. FOR NO KEY UPDATE, not FOR UPDATE: it serialises these
 * transactions just the same, but does not block rows that merely reference the users (a call log, a
 * notification written by another call's transaction), so two calls ending and starting cannot deadlock.
 */
export async function lockUsers(tx: Tx, ids: string[]) {
  return tx
    .select({ id: users.id, isActive: users.isActive })
    .from(users)
    .where(inArray(users.id, ids))
    .orderBy(users.id)
    .for('no key update');
}

export async function insertVideoCall(
  tx: Tx,
  call: { id: string; callerId: string; calleeId: string; state: VideoCallState; endReason?: string },
  ringTimeoutMs: number,
): Promise<VideoCallRow> {
  const final = isFinal(call.state);
  const [row] = await tx
    .insert(videoCalls)
    .values({
      id: call.id,
      callerId: call.callerId,
      calleeId: call.calleeId,
      state: call.state,
      ringDeadline: sql`now() + ${ringTimeoutMs} * interval '1 millisecond'`,
      endedAt: final ? sql`now()` : null,
      endReason: call.endReason ?? null,
    })
    .returning();
  if (!row) throw new Error('the video call was not stored');
  return row;
}

/** Moves a call from one of `from` to a live state; null when it was no longer in one of them. */
export async function advanceVideoCall(
  db: Db | Tx,
  id: string,
  from: readonly VideoCallState[],
  set: Partial<Pick<typeof videoCalls.$inferInsert, 'state' | 'acceptedBy'>> & {
    acceptedAt?: SQL;
    connectedAt?: SQL;
  },
): Promise<VideoCallRow | null> {
  const [row] = await db
    .update(videoCalls)
    .set(set)
    .where(and(eq(videoCalls.id, id), inArray(videoCalls.state, [...from])))
    .returning();
  return row ?? null;
}

/** The call log's status and times for a call that reached its final state (SPEC §4 status values). */
export function callDetailsOf(row: VideoCallRow): CallDetails {
  const endedAt = row.endedAt ?? new Date();
  const status: Record<FinalState, CallStatus> = {
    ended: row.connectedAt ? 'Connected' : 'Call Disconnected',
    declined: 'Rejected',
    busy: 'Not Picked',
    missed: 'Not Picked',
    cancelled: 'Call Cancelled',
  };
  const connected = row.state === 'ended' && row.connectedAt !== null;
  const seconds = connected
    ? Math.max(0, Math.floor((endedAt.getTime() - (row.connectedAt as Date).getTime()) / 1000))
    : 0;
  return {
    callStatus: status[row.state as FinalState],
    callStartedAt: connected ? (row.connectedAt as Date).toISOString() : null,
    callEndedAt: endedAt.toISOString(),
    callDuration: Math.min(seconds, 7 * 24 * 3600),
  };
}

/** One call log per party: OUTGOING for the caller, INCOMING for the callee, each naming the other. */
export async function logVideoCall(tx: Tx, row: VideoCallRow, parties: Parties): Promise<void> {
  const callDetails = callDetailsOf(row);
  const sides = [
    [row.callerId, row.calleeId, 'OUTGOING'],
    [row.calleeId, row.callerId, 'INCOMING'],
  ] as const;
  for (const [ownerId, peerId, referenceType] of sides) {
    const owner = parties.get(ownerId);
    const peer = parties.get(peerId);
    if (!owner || !peer) throw new Error(`video call ${row.id}: a party is missing`);
    await insertCall(tx, owner, {
      phoneNumber: displayNumber(peer.phone),
      referenceType,
      source: 'LOCAL',
      media: 'video',
      peerUserId: peer.id,
      callDetails,
      createdAt: row.createdAt,
    });
  }
}

/** What a missed call leaves the callee (the mailbox; published after the commit). */
export function missedCallNotice(callerName: string, at: Date) {
  return {
    type: 'missed-call' as const,
    title: MISSED_VIDEO_CALL_TITLE,
    body: `${callerName} tried to video call you at ${formatTime(at, 'UTC')} UTC.`,
    link: CALL_HISTORY_ROUTE,
  };
}

/** What a call's final state leaves behind: the logs, and the callee's notification of a missed call. */
export async function recordEnd(
  tx: Tx,
  row: VideoCallRow,
  parties: Parties,
): Promise<NotificationRow | null> {
  await logVideoCall(tx, row, parties);
  if (row.state !== 'missed') return null;
  const caller = parties.get(row.callerId);
  return insertNotification(tx, row.calleeId, missedCallNotice(caller?.name ?? 'Someone', row.createdAt));
}

/**
 * Ends a call that is in one of `from`, and records it, in the caller's transaction. Null, having
 * written nothing, when the call was no longer in one of those states (another tab or instance won).
 */
export async function endVideoCallIn(
  tx: Tx,
  id: string,
  from: readonly VideoCallState[],
  ending: { state: FinalState; endReason: string },
  parties: Parties,
): Promise<{ row: VideoCallRow; notice: NotificationRow | null } | null> {
  const [row] = await tx
    .update(videoCalls)
    .set({ state: ending.state, endReason: ending.endReason, endedAt: sql`now()` })
    .where(and(eq(videoCalls.id, id), inArray(videoCalls.state, [...from])))
    .returning();
  if (!row) return null;
  return { row, notice: await recordEnd(tx, row, parties) };
}

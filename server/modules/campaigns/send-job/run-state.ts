// The send job's explicit state (send-job.ts): the settings every run shares, and what one run keeps
// between its chunks. Each step (claim → deliver → record → finish) reads and moves only this.
import type { RecipientCounts, RecipientState } from '../../../../contracts/marketing';
import type { Db } from '../../../db/client';
import type { JobResult } from '../../../jobs/worker';
import type { Mailer } from '../../../plugins/mail';
import type { MailLinks } from '../../mail-links/links';
import type { CampaignRow } from '../campaigns';
import type { StoredVariant } from '../compose';
import type { TokenBucket } from '../token-bucket';

/** The job's options with their defaults filled in. */
export interface SendSettings {
  db: Db;
  mailer: Mailer;
  links: MailLinks;
  messageIdHost: string;
  retryBaseMs: number;
  maxRetryDelayMs: number;
  maxAttempts: number;
  concurrency: number;
}

/** What one run of the job keeps between its claims. */
export interface SendRun {
  settings: SendSettings;
  jobId: string;
  campaignId: string;
  /** The last queued recipient taken (contact id): the next claim goes on after it. */
  cursor: string | null;
  /** The campaign's counts were taken from its recipients (once per run). */
  counted: boolean;
  /** The template's versions, read once per run (a run renders thousands of mails from a handful). */
  variants: Map<string, StoredVariant> | null;
  /** The throttle, made again when the campaign's rate changes. */
  bucket: TokenBucket | null;
  /** Recipients this run recorded as sent: a run that ends before the campaign does stamps them. */
  sentThisRun: string[];
}

export function newRun(settings: SendSettings, jobId: string, campaignId: string): SendRun {
  return {
    settings,
    jobId,
    campaignId,
    cursor: null,
    counted: false,
    variants: null,
    bucket: null,
    sentThisRun: [],
  };
}

/** A recipient taken by a claim, with what its mail is composed from. */
export interface Claimed {
  contact_id: string;
  email: string;
  language: string;
  message_key: string;
  attempts: number;
  first_name: string;
  last_name: string;
  company: string;
  company_type: string | null;
  country: string | null;
}

/** One delivery attempt's result, as the outcome transaction writes it. */
export interface Outcome {
  contact_id: string;
  state: Extract<RecipientState, 'sent' | 'deferred' | 'failed'>;
  attempts: number;
  delay_ms: number | null;
  error: string | null;
  bounced: boolean;
}

export type Step =
  | { kind: 'chunk'; rows: Claimed[]; campaign: CampaignRow }
  | { kind: 'done'; result: JobResult }
  /** Nothing to take while a chunk is still in flight: finish it, then ask again. */
  | { kind: 'drain' };

export const campaignLink = (id: string) => `/marketing/bulk-mails?campaign=${id}`;

export const states = ['queued', 'sending', 'sent', 'deferred', 'failed', 'skipped'] as const;

export type CountMove = { from: RecipientState; to: RecipientState; n: number };

/** The campaign's counts after recipients moved from one state to another. */
export function adjust(counts: RecipientCounts, moves: CountMove[]) {
  const next = { ...counts };
  for (const state of states) next[state] ??= 0;
  for (const move of moves) {
    next[move.from] = Math.max(0, next[move.from] - move.n);
    next[move.to] += move.n;
  }
  return next;
}

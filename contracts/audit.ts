// The one audit trail's API shape (server/lib/audit, src/ui/history-timeline.tsx): every history endpoint —
// sellers, products, tags, imports and import requests, contacts — answers a page of these entries.
import { z } from 'zod';
import { intParam } from './int-param';

/** A page of a history: newest first, `skip` entries in, at most `limit` of them. */
export const auditQuerySchema = z.object({
  skip: intParam.max(10_000_000).default(0),
  limit: intParam.min(1).max(100).default(20),
});

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.object({ id: z.string().nullable(), name: z.string() }),
  /** created, updated, status, free, document, logo, subscription, … (each subject has its own words) */
  action: z.string(),
  changes: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
  note: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** A page of entries and how many the history holds in all. */
export const auditPageSchema = z.object({
  result: z.array(auditEntrySchema),
  count: z.number().int(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

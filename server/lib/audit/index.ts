// The one audit trail (ARCHITECTURE "audit trail"): every module's history in one table, keyed by subject
// type and id — one writer (and its bulk forms), one paged reader, one field-diff helper.
export { type Actor, NO_ACTOR, SYSTEM_ACTOR } from './actor';
export { diffFields } from './diff';
export {
  type AuditSqlRow,
  auditEntryDto,
  auditEntryOfSqlRow,
  auditRowsSql,
  latestAuditEntry,
  readAuditPage,
  readAuditPageOfType,
} from './read';
export type { AuditSubject, AuditSubjectType } from './subjects';
export {
  type AuditEntryInput,
  auditInsertFrom,
  deleteAuditTrail,
  recordAudit,
  recordAuditEntries,
} from './write';

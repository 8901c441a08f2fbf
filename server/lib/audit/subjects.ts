// What an audit entry is about: a subject type and its id. The type names the module's thing, so the one
// table holds every module's history; a new module adds a type here, not a table.

export type AuditSubjectType =
  | 'seller'
  | 'product'
  | 'import'
  | 'import_request'
  | 'tag'
  | 'contact'
  | 'settings'
  | 'query'
  | 'offer'
  | 'order'
  | 'purchase_order'
  | 'supplier'
  | 'invoice'
  | 'auction';

export interface AuditSubject {
  type: AuditSubjectType;
  /** Null for an entry about the whole collection (the tag tree's publishes, rollbacks and levels). */
  id: string | null;
}

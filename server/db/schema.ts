import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { CallMedia, CallTimelineEntry } from '../../contracts/calls';
import type {
  AttributeDataType,
  AttributeType,
  AttributeValue,
  Dimensions,
  ProductStatus,
  WeightUnit,
} from '../../contracts/catalog';
import type {
  BatchStatus,
  BlankPolicy,
  ColumnMapping,
  MoveKind,
  OutcomeCounts,
  RequestKind,
  RequestStatus,
  ResultCounts,
  RowOutcome,
  RowResult,
  SheetFormat,
} from '../../contracts/imports';
import type {
  CampaignStatus,
  ContactSource,
  ContactSubscription,
  LeadImportCounts,
  LeadImportStatus,
  RecipientCounts,
  RecipientState,
  TemplateLanguage,
} from '../../contracts/marketing';
import type { QueryTree } from '../../contracts/query-tree';
import type { ServerRole } from '../../contracts/roles';
import type { RouteAction } from '../../contracts/routes';
import type { ViewScope, ViewState } from '../../contracts/saved-views';
import type { VideoCallState } from '../../contracts/video-calls';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export interface Address {
  fullName: string;
  email: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  country: string;
  zipcode: string;
}

export interface SellerLogo {
  path: string;
  uploadedAt: string;
}

/**
 * Which tab of /sellers/manage-sellers a seller is in (SPEC §4): 0 Active, 1 Pending Verification,
 * 2 Pending KYC, 3 Inactive (contracts/sellers.ts sellerTabs, in order). The tab indexes are built on
 * this exact expression and the list filters with it, so the planner matches the two.
 */
export function sellerTabOf(columns: {
  isActive: AnyPgColumn;
  isEmailVerified: AnyPgColumn;
  isKycDone: AnyPgColumn;
}): SQL<number> {
  return sql<number>`(CASE WHEN ${columns.isActive} THEN 0 WHEN NOT ${columns.isEmailVerified} THEN 1 WHEN NOT ${columns.isKycDone} THEN 2 ELSE 3 END)`;
}

/**
 * How names and codes sort: case-insensitive, by code point. The "C" collation gives the same order
 * on every database whatever its locale (and compares fastest); the sort indexes use this expression.
 */
export function sellerSortKey(column: AnyPgColumn): SQL<string> {
  return sql<string>`(lower(${column}) COLLATE "C")`;
}

export const sellers = pgTable(
  'sellers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerCode: text('seller_code').notNull(),
    sellerName: text('seller_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    address: jsonb('address').$type<Address>(),
    sellerLogos: jsonb('seller_logos').$type<SellerLogo[]>().notNull().default([]),
    isActive: boolean('is_active').notNull().default(false),
    isEmailVerified: boolean('is_email_verified').notNull().default(false),
    isKycDone: boolean('is_kyc_done').notNull().default(false),
    isNewSeller: boolean('is_new_seller').notNull().default(true),
    blocked: boolean('blocked').notNull().default(false),
    /** Marked free by an admin (markSellerFree): no subscription fee, never blocked for not paying. */
    isFree: boolean('is_free').notNull().default(false),
    /** Why KYC was last rejected; the seller sees it. Cleared when KYC is approved. */
    kycRejectionReason: text('kyc_rejection_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => {
    // The seller list (server/modules/sellers/listing.ts) pages with index-only scans: one index per
    // sort key, alone and behind the tab. PostgreSQL only plans an index-only scan when every column
    // the query reads is in the index, so the flags (and the column an expression key reads) trail
    // the key even though they never order anything.
    const flags = [table.isActive, table.isEmailVerified, table.isKycDone] as const;
    const tab = sellerTabOf(table);
    const nameKey = sellerSortKey(table.sellerName);
    const codeKey = sellerSortKey(table.sellerCode);
    return [
      uniqueIndex('sellers_code_uq').on(sql`lower(${table.sellerCode})`),
      uniqueIndex('sellers_email_uq').on(sql`lower(${table.email})`),
      index('sellers_created_idx').on(table.createdAt, table.id, ...flags),
      index('sellers_tab_idx').on(tab, table.createdAt, table.id, ...flags),
      index('sellers_name_idx').on(nameKey, table.id, table.sellerName, ...flags),
      index('sellers_tab_name_idx').on(tab, nameKey, table.id, table.sellerName, ...flags),
      index('sellers_code_idx').on(codeKey, table.id, table.sellerCode, ...flags),
      index('sellers_tab_code_idx').on(tab, codeKey, table.id, table.sellerCode, ...flags),
      // Partial, case-insensitive search over name, code, e-mail and phone (SPEC §7 searchSellers).
      index('sellers_search_trgm_idx').using(
        'gin',
        sql`(lower(${table.sellerName} || ' ' || ${table.sellerCode} || ' ' || ${table.email} || ' ' || ${table.phone})) gin_trgm_ops`,
      ),
    ];
  },
);

/**
 * Sellers per combination of the three lifecycle flags, kept by statement triggers on sellers
 * (migration 0003) in the same transaction as the change, so any snapshot sees counts that agree
 * with the rows. The four tab counts and the count of every flag filter are sums of these eight rows:
 * O(1) at any number of sellers.
 */
export const sellerTabCounts = pgTable(
  'seller_tab_counts',
  {
    isActive: boolean('is_active').notNull(),
    isEmailVerified: boolean('is_email_verified').notNull(),
    isKycDone: boolean('is_kyc_done').notNull(),
    sellers: integer('sellers').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.isActive, table.isEmailVerified, table.isKycDone] })],
);

/**
 * The one audit trail (server/lib/audit): every change to anything — a seller, a product, an import or
 * import request, a tag (or the tag tree: subject id null), a contact — with who, when, and each field
 * before → after. Written in the same transaction as the change, so it never misses or invents one.
 */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export const auditEntries = pgTable(
  'audit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** seller, product, import, import_request, tag, contact, … (server/lib/audit/subjects.ts). */
    subjectType: text('subject_type').notNull(),
    /** Null for an entry about the whole collection (the tag tree's publishes, rollbacks, levels). */
    subjectId: uuid('subject_id'),
    /** Null for changes the system makes (a subscription expiring). */
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    /** created, updated, status, document, logo, subscription, … */
    action: text('action').notNull(),
    changes: jsonb('changes').$type<FieldChange[]>().notNull().default([]),
    note: text('note'),
    /** Another subject the entry concerns: the campaign of a contact's mail. */
    relatedType: text('related_type'),
    relatedId: uuid('related_id'),
    createdAt: createdAt(),
    /** Write order: entries of one transaction share createdAt, and this keeps them in sequence. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  // A subject's timeline, newest first, is one index range.
  (table) => [
    index('audit_entries_subject_idx').on(table.subjectType, table.subjectId, table.createdAt, table.seq),
  ],
);

/** KYC papers (PDF, JPEG, PNG, checked by content). Files live in DATA_DIR/uploads/documents. */
export const sellerDocuments = pgTable(
  'seller_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    storagePath: text('storage_path').notNull(),
    uploadedBy: uuid('uploaded_by'),
    createdAt: createdAt(),
  },
  (table) => [index('seller_documents_seller_idx').on(table.sellerId, table.createdAt)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    avatarUrl: text('avatar_url'),
    role: text('role').$type<ServerRole>().notNull(),
    sellerId: uuid('seller_id').references(() => sellers.id, { onDelete: 'set null' }),
    phone: text('phone').notNull().default(''),
    // The user's own defaults (Settings → Profile); null inherits the marketplace's (Localization).
    defaultCurrency: text('default_currency'),
    defaultCountry: text('default_country'),
    defaultLanguage: text('default_language'),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * The throwaway hash a staff invitation gave the account. While it is still `passwordHash`, the
     * invitee has not chosen a password (the invitation is pending); any password set since changes the
     * hash, whichever flow set it. Null for accounts that were never invited.
     */
    inviteHash: text('invite_hash'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('users_email_uq').on(sql`lower(${table.email})`),
    index('users_role_idx').on(table.role),
    // The local voice provider rings the user who owns a dialled number: numbers are unique by their
    // digits ("+91 90000 00003" and "+919000000003" are the same phone).
    uniqueIndex('users_phone_digits_uq')
      .on(sql`regexp_replace(${table.phone}, '[^0-9]', '', 'g')`)
      .where(sql`${table.phone} <> ''`),
  ],
);

/**
 * Signed-in sessions: one row per sign-in, its id is the `sid` of every access token it issues and
 * the family id of its refresh tokens. Revoking it (sign-out, deactivation, password reset, a replayed
 * refresh token) ends its access tokens at once, not when they expire (server/modules/auth/sessions.ts).
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('user_sessions_user_idx').on(table.userId)],
);

/**
 * Browsers that signed in to an account before (a random HttpOnly device cookie, stored hashed). A
 * sign-in from such a browser is not held back by other people's failed attempts on the account.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.tokenHash] })],
);

/**
 * Refresh tokens, stored as SHA-256 hashes. Each sign-in starts a family; each refresh replaces the
 * token with the next in its family. Presenting a replaced token means it leaked: the family is revoked.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The session (user_sessions.id) this token belongs to. */
    familyId: uuid('family_id')
      .notNull()
      .references(() => userSessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('refresh_tokens_hash_uq').on(table.tokenHash),
    index('refresh_tokens_family_idx').on(table.familyId),
  ],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('password_resets_hash_uq').on(table.tokenHash)],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    role: text('role').$type<ServerRole>().notNull(),
    route: text('route').notNull(),
    actions: jsonb('actions').$type<RouteAction[]>().notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.role, table.route] })],
);

/** Per-user overrides: when a row exists its actions replace the role's for that route. */
export const userPermissions = pgTable(
  'user_permissions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    route: text('route').notNull(),
    actions: jsonb('actions').$type<RouteAction[]>().notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.route] })],
);

/** Installation-wide settings as key → JSON value (e.g. the default-permissions switch, the JWT secret). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

/**
 * Settings sections (contracts/settings.ts): one row per scope and section, holding only the fields set
 * in that scope (the marketplace's differ from the defaults; a seller's override the marketplace's).
 * `version` counts saves, so a stale save is refused; a trigger tells every instance at commit
 * (migration 0023).
 */
export const settingSections = pgTable(
  'setting_sections',
  {
    /** Null: the marketplace's settings. */
    sellerId: uuid('seller_id').references(() => sellers.id, { onDelete: 'cascade' }),
    section: text('section').notNull(),
    values: jsonb('values').$type<Record<string, unknown>>().notNull().default({}),
    version: integer('version').notNull().default(0),
    updatedBy: uuid('updated_by'),
    updatedByName: text('updated_by_name'),
    updatedAt: updatedAt(),
  },
  (table) => [unique('setting_sections_scope_uq').on(table.sellerId, table.section).nullsNotDistinct()],
);

/** Addresses that asked for no more marketing mail (/unsubscribe). Checked before such mail is sent. */
export const emailUnsubscribes = pgTable('email_unsubscribes', {
  email: text('email').primaryKey(),
  unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A recipient's answer to a campaign mail (/responseCollection); answering again replaces it. */
export const emailResponses = pgTable(
  'email_responses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    campaign: text('campaign').notNull(),
    response: text('response').notNull(),
    comment: text('comment'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('email_responses_email_campaign_idx').on(table.email, table.campaign),
    index('email_responses_campaign_idx').on(table.campaign, table.createdAt),
  ],
);

/** What a seller can subscribe to. */
export const subscriptionPlans = pgTable('subscription_plans', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  /** In minor units (paise for INR). */
  priceMinor: integer('price_minor').notNull(),
  currency: text('currency').notNull().default('INR'),
  periodDays: integer('period_days').notNull(),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
});

/** One period of a seller's subscription. The current one is the latest by `startsAt`. */
export const sellerSubscriptions = pgTable(
  'seller_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('seller_subscriptions_seller_idx').on(table.sellerId, table.startsAt)],
);

/** A seller asks to renew; an admin approves (which starts a new period and unblocks) or rejects. */
export const subscriptionRequests = pgTable(
  'subscription_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id),
    /** pending, approved, rejected */
    status: text('status').notNull().default('pending'),
    note: text('note'),
    requestedBy: uuid('requested_by'),
    decidedBy: uuid('decided_by'),
    decisionNote: text('decision_note'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('subscription_requests_status_idx').on(table.status, table.createdAt),
    // At most one open request per seller.
    uniqueIndex('subscription_requests_one_pending_uq').on(table.sellerId).where(sql`status = 'pending'`),
  ],
);

/** Marketplace customers (buyers). `sellerId`: the seller they registered through, if any. */
export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull().default(''),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    address: jsonb('address').$type<Address>(),
    sellerId: uuid('seller_id').references(() => sellers.id, { onDelete: 'set null' }),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('customers_email_uq').on(sql`lower(${table.email})`),
    index('customers_seller_idx').on(table.sellerId, table.createdAt),
    index('customers_created_idx').on(table.createdAt, table.id),
  ],
);

/** Product categories; a subcategory is a category with a parent (one level deep). */
export const categories = pgTable(
  'categories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    parentId: uuid('parent_id'),
    isActive: boolean('is_active').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // NULL parents would never collide in a plain unique index; top-level slugs must be unique too.
    uniqueIndex('categories_slug_uq').on(
      sql`coalesce(${table.parentId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      table.slug,
    ),
    index('categories_parent_idx').on(table.parentId, table.sortOrder),
  ],
);

/**
 * Catalogue attributes (issue 14): typed (SPEC §3 data types), SINGLE or MULTI, attached to categories.
 * Integer ids: they key every product's attribute values and search index, which stay small that way.
 * The code and the data type never change once created (stored values and saved queries name them).
 */
export const attributes = pgTable(
  'attributes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    label: text('label').notNull(),
    dataType: text('data_type').$type<AttributeDataType>().notNull(),
    attributeType: text('attribute_type').$type<AttributeType>().notNull().default('SINGLE'),
    isRequired: boolean('is_required').notNull().default(false),
    unit: text('unit'),
    groupName: text('group_name').notNull().default('Attributes'),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('attributes_code_uq').on(table.code)],
);

/** The options of an ENUMERATED attribute: `valueId` is the id, `value` the label. */
export const attributeOptions = pgTable(
  'attribute_options',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    attributeId: integer('attribute_id')
      .notNull()
      .references(() => attributes.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (table) => [
    uniqueIndex('attribute_options_value_uq').on(table.attributeId, sql`lower(${table.value})`),
    index('attribute_options_attribute_idx').on(table.attributeId, table.sortOrder),
  ],
);

/** A category's attribute set; a subcategory inherits its parent's. */
export const categoryAttributes = pgTable(
  'category_attributes',
  {
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    attributeId: integer('attribute_id')
      .notNull()
      .references(() => attributes.id, { onDelete: 'cascade' }),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.categoryId, table.attributeId] }),
    index('category_attributes_attribute_idx').on(table.attributeId),
  ],
);

/**
 * Staging products (issue 14). One row per product: the fields the grid shows are columns; attribute
 * values are one JSONB array in the SPEC §3 shape (`attribute_values`), and `attr_index` is the
 * search form the server derives from it on every write (`attributeIndexOf` in server/modules/attributes/attribute-values.ts):
 * `{ "<attributeId>": option ids | number | epoch ms | boolean | normalised texts | media count }`.
 * The grid reads this one row and never hydrates attribute metadata it does not show.
 *
 * Indexes (the plans are explained in server/modules/products/product-search.ts):
 * - products_seller_updated_idx: a seller's own list, newest first (every seller query has seller_id);
 * - products_updated_idx / products_status_updated_idx / products_category_updated_idx: the default
 *   order, alone or under the most common filters;
 * - products_attr_index_gin (jsonb_path_ops): ENUMERATED and BOOLEAN conditions as containment;
 * - products_search_trgm_idx: the search box (title or SKU contains), on normalised text.
 */
export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    categoryId: uuid('category_id').references(() => categories.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    sku: text('sku').notNull(),
    /** normalizeText(title) and normalizeText(sku) (contracts/query-tree.ts), written with them. */
    titleKey: text('title_key').notNull().default(''),
    skuKey: text('sku_key').notNull().default(''),
    status: text('status').$type<ProductStatus>().notNull().default('draft'),
    /** Why it was rejected (the seller reads it); cleared when it moves on. */
    statusReason: text('status_reason'),
    priceMinor: integer('price_minor').notNull().default(0),
    currency: text('currency').notNull().default('INR'),
    inventory: integer('inventory').notNull().default(0),
    weight: doublePrecision('weight'),
    weightUnit: text('weight_unit').$type<WeightUnit>().notNull().default('kg'),
    dimensions: jsonb('dimensions').$type<Dimensions>(),
    attributeValues: jsonb('attribute_values').$type<AttributeValue[]>().notNull().default([]),
    attrIndex: jsonb('attr_index').$type<Record<string, unknown>>().notNull().default({}),
    /** Share (0–100) of the category's required attributes that are filled, and those that are not. */
    completeness: integer('completeness').notNull().default(100),
    missingAttributes: integer('missing_attributes').array().notNull().default(sql`'{}'::integer[]`),
    imageCount: integer('image_count').notNull().default(0),
    mainImageId: uuid('main_image_id'),
    /** Tags from the tag tree (issue 16 attaches them). */
    tagIds: uuid('tag_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** Bumped by every write: an editor's stale version answers 409. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('products_seller_sku_uq').on(table.sellerId, table.skuKey),
    index('products_seller_status_idx').on(table.sellerId, table.status),
    // Ascending on (…, updated_at, id): the grid's `ORDER BY updated_at DESC, id DESC` walks them
    // backwards (and ASC forwards). Built (updated_at DESC, id ASC) they matched neither direction, and
    // PostgreSQL sorted the whole table instead (product-search.ts has the plans).
    index('products_seller_updated_idx').on(table.sellerId, table.updatedAt, table.id),
    index('products_updated_idx').on(table.updatedAt, table.id),
    index('products_status_updated_idx').on(table.status, table.updatedAt, table.id),
    index('products_category_updated_idx').on(table.categoryId, table.updatedAt, table.id),
    // Imports look up a seller's products by normalised title to find duplicates (issue 15).
    index('products_seller_title_idx').on(table.sellerId, table.titleKey),
    index('products_attr_index_gin').using('gin', sql`${table.attrIndex} jsonb_path_ops`),
    // Products by tag (the tag filter, a node's product count, publish's remap of removed tags).
    index('products_tag_ids_gin').using('gin', table.tagIds),
    index('products_search_trgm_idx').using(
      'gin',
      sql`(${table.titleKey} || ' ' || ${table.skuKey}) gin_trgm_ops`,
    ),
  ],
);

/**
 * Uploaded product media (gallery images, IMAGE and VIDEO attribute values). The original is kept;
 * images get derivatives (thumbnail and web sizes, WebP) written by sharp, regenerated by the
 * reprocess-images job. `productId` is null until the media is attached to a product.
 */
export const productMedia = pgTable(
  'product_media',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'image' | 'video'>().notNull(),
    /** Gallery order (0 is the main image); null for attribute media. */
    position: integer('position'),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    size: integer('size').notNull(),
    width: integer('width'),
    height: integer('height'),
    storagePath: text('storage_path').notNull(),
    /** Derivative name → relative path, e.g. { thumb: "…-thumb.webp", web: "…-web.webp" }. */
    derivatives: jsonb('derivatives').$type<Record<string, string>>().notNull().default({}),
    uploadedBy: uuid('uploaded_by'),
    createdAt: createdAt(),
  },
  (table) => [
    index('product_media_product_idx').on(table.productId, table.position),
    index('product_media_seller_idx').on(table.sellerId, table.createdAt),
  ],
);

/**
 * Saved views (ARCHITECTURE "saved views"): a query tree with the columns, sort and page size of a
 * list (`list`, e.g. "staging-products"). Scope: private (its owner), team (the owner's seller's
 * users, or all staff and admins) or everyone (needs the list's publish permission).
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    list: text('list').notNull(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The owner's seller when they are a seller: a team view is shared with that seller's users. */
    ownerSellerId: uuid('owner_seller_id'),
    name: text('name').notNull(),
    scope: text('scope').$type<ViewScope>().notNull().default('private'),
    state: jsonb('state').$type<ViewState>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('saved_views_owner_name_uq').on(table.list, table.ownerId, sql`lower(${table.name})`),
    index('saved_views_list_scope_idx').on(table.list, table.scope),
  ],
);

/** Each user's default view per list (at most one). */
export const defaultViews = pgTable(
  'default_views',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    viewId: uuid('view_id')
      .notNull()
      .references(() => savedViews.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.list] })],
);

/**
 * Customer queries (SPEC "customer queries", helperQuery; issue 30). Status new → open → waiting
 * (for the customer) → resolved / closed (contracts/domain/query-status.ts enforces the moves). A
 * follow-up is a field with one owner, the assignee (never a state): the follow-up job notifies whoever
 * is assigned when it falls due. The SLA columns are derived from the event log (query_events) by
 * server/modules/queries/sla.ts on every event, so the list can filter on them without a scan.
 */
export const customerQueries = pgTable(
  'customer_queries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Human-readable number ("Q-1042"), in order of arrival. */
    number: bigserial('number', { mode: 'number' }).notNull(),
    sellerId: uuid('seller_id').references(() => sellers.id, { onDelete: 'cascade' }),
    customerName: text('customer_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    /** The marketing contact of the address (linked, not copied: issue 17). */
    contactId: uuid('contact_id'),
    /** The registered customer of the address, when there is one. */
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    /** new, open, waiting, resolved, closed (contracts/domain/query-status.ts). */
    status: text('status').notNull().default('new'),
    /** low, normal, high, urgent */
    priority: text('priority').notNull().default('normal'),
    /** form, chat, call, manual, email */
    channel: text('channel').notNull().default('form'),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /** The help chat or call the query was made from. */
    sourceChatId: uuid('source_chat_id').references(() => chatSessions.id, { onDelete: 'set null' }),
    sourceCallId: uuid('source_call_id').references(() => callLogs.id, { onDelete: 'set null' }),
    /** The next follow-up: owned by the assignee; cleared at resolve. */
    nextFollowUpAt: timestamp('next_follow_up_at', { withTimezone: true }),
    followUpNote: text('follow_up_note').notNull().default(''),
    /** When the reminder for the current next_follow_up_at went out (a date change clears it). */
    followUpNotifiedAt: timestamp('follow_up_notified_at', { withTimezone: true }),
    /** Snoozed until then; on the customer's reply it reopens only when snooze_reopen_on_reply. */
    snoozedUntil: timestamp('snoozed_until', { withTimezone: true }),
    snoozeReopenOnReply: boolean('snooze_reopen_on_reply').notNull().default(true),
    firstResponseAt: timestamp('first_response_at', { withTimezone: true }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** Deadlines of the running SLA clocks (null when met, paused or stopped). */
    firstResponseDueAt: timestamp('first_response_due_at', { withTimezone: true }),
    resolutionDueAt: timestamp('resolution_due_at', { withTimezone: true }),
    /** A clock went past its target (kept once true, for the list's "SLA breached" filter). */
    slaBreached: boolean('sla_breached').notNull().default(false),
    /** Each clock's outcome once it stopped (null while it runs or pauses): the SLA report's figures. */
    firstResponseMet: boolean('first_response_met'),
    resolutionMet: boolean('resolution_met'),
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('customer_queries_number_uq').on(table.number),
    index('customer_queries_seller_status_idx').on(table.sellerId, table.status, table.createdAt, table.id),
    index('customer_queries_status_idx').on(table.status, table.createdAt, table.id),
    index('customer_queries_created_idx').on(table.createdAt, table.id),
    index('customer_queries_assignee_idx').on(table.assigneeId, table.status, table.createdAt),
    index('customer_queries_follow_up_idx')
      .on(table.nextFollowUpAt)
      .where(sql`${table.nextFollowUpAt} IS NOT NULL`),
    index('customer_queries_contact_idx').on(table.contactId),
    index('customer_queries_resolved_idx').on(table.resolvedAt).where(sql`${table.resolvedAt} IS NOT NULL`),
    index('customer_queries_search_trgm_idx').using(
      'gin',
      sql`(lower(${table.subject} || ' ' || ${table.customerName} || ' ' || ${table.email} || ' ' || ${table.message})) gin_trgm_ops`,
    ),
  ],
);

/**
 * A query's event log and thread: messages in and out, notes, logged calls and e-mails, status,
 * assignment, priority and follow-up changes. The SLA clocks are computed from it. Append-only.
 */
export const queryEvents = pgTable(
  'query_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    queryId: uuid('query_id')
      .notNull()
      .references(() => customerQueries.id, { onDelete: 'cascade' }),
    /** message_in, message_out, note, call, email, status, assign, priority, follow_up, snooze, … */
    kind: text('kind').notNull(),
    /** Null for the customer and for the system. */
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    body: text('body').notNull().default(''),
    /** A logged call's or e-mail's outcome. */
    outcome: text('outcome').notNull().default(''),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [index('query_events_query_idx').on(table.queryId, table.seq)],
);

/**
 * Queries per seller and status, kept by statement triggers (migration 0024) in the writing
 * transaction: the inbox's tab counts are sums of these rows, never COUNT(*). seller_key is the
 * seller's id, or the nil uuid for the marketplace's own queries.
 */
export const queryStatusCounts = pgTable(
  'query_status_counts',
  {
    sellerKey: uuid('seller_key').notNull(),
    status: text('status').notNull(),
    queries: integer('queries').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.sellerKey, table.status] })],
);

/**
 * Offer requests and the offers that answer them (issue 30). One row per request; the seller's
 * answers are immutable versions (offer_versions). status: requested (no version sent yet), offered,
 * accepted, declined, expired. `draft` is the seller's working copy of the next version.
 */
export const offers = pgTable(
  'offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id'),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    customerName: text('customer_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    /** SPEC §3 Address: where the goods go; its country picks the tax options. */
    shippingAddress: jsonb('shipping_address').$type<Address>(),
    message: text('message').notNull().default(''),
    /** What the customer asked for: [{ productId, name, quantity, note }]. */
    requestedItems: jsonb('requested_items').$type<Record<string, unknown>[]>().notNull().default([]),
    /** The query the request came in with (the enquiry form's "ask for an offer"). */
    queryId: uuid('query_id').references(() => customerQueries.id, { onDelete: 'set null' }),
    /** requested, offered, accepted, declined, expired */
    status: text('status').notNull().default('requested'),
    /** The last version sent (0: none yet). */
    currentVersion: integer('current_version').notNull().default(0),
    /** The working copy of version currentVersion + 1 (lines, currency, validity, notes). */
    draft: jsonb('draft').$type<Record<string, unknown>>(),
    currency: text('currency'),
    totalMinor: bigint('total_minor', { mode: 'number' }),
    /** The current version's end of validity: the end of its validity day in the seller's time zone. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    /** Marked for conversion into an order (the orders issue converts it). */
    toConvert: boolean('to_convert').notNull().default(false),
    orderId: uuid('order_id'),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('offers_number_uq').on(table.number),
    index('offers_seller_status_idx').on(table.sellerId, table.status, table.createdAt, table.id),
    index('offers_status_idx').on(table.status, table.createdAt, table.id),
    index('offers_created_idx').on(table.createdAt, table.id),
    index('offers_expiry_idx').on(table.expiresAt).where(sql`${table.status} = 'offered'`),
    index('offers_contact_idx').on(table.contactId),
    index('offers_search_trgm_idx').using(
      'gin',
      sql`(lower(${table.customerName} || ' ' || ${table.email} || ' ' || ${table.message})) gin_trgm_ops`,
    ),
  ],
);

/** A sent offer version: frozen, never updated. The snapshot's SHA-256 is what an acceptance signs. */
export const offerVersions = pgTable(
  'offer_versions',
  {
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** Lines, quantity breaks, taxes, shipping, discount, totals, currency, validity, notes. */
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    snapshotSha256: text('snapshot_sha256').notNull(),
    currency: text('currency').notNull(),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    /** YYYY-MM-DD in the seller's time zone, and the instant that day ends there. */
    validUntil: text('valid_until').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    sentBy: uuid('sent_by'),
    sentByName: text('sent_by_name').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    /** The customer first opened this version's link. */
    openedAt: timestamp('opened_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.offerId, table.version] })],
);

/**
 * The customer's answer to one version, with its evidence. One per version: a second accept or
 * decline returns the first.
 */
export const offerResponses = pgTable(
  'offer_responses',
  {
    offerId: uuid('offer_id')
      .notNull()
      .references(() => offers.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** accepted, declined */
    decision: text('decision').notNull(),
    typedName: text('typed_name').notNull(),
    comment: text('comment').notNull().default(''),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    snapshotSha256: text('snapshot_sha256').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.offerId, table.version] })],
);

/** Offers per seller and status, kept by statement triggers like query_status_counts. */
export const offerStatusCounts = pgTable(
  'offer_status_counts',
  {
    sellerKey: uuid('seller_key').notNull(),
    status: text('status').notNull(),
    offers: integer('offers').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.sellerKey, table.status] })],
);

/**
 * A help chat between a storefront visitor and a seller's sales bot (SPEC §3 chat user entry). The
 * chat features fill it; the seller dashboard counts the open ones.
 */
export const chatSessions = pgTable(
  'chat_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: text('session_id').notNull(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    email: text('email').notNull(),
    /** The last message of the conversation (any sender) and when it was written: the list's preview. */
    lastMessage: text('last_message').notNull().default(''),
    lastInteractionOn: timestamp('last_interaction_on', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The seller's own read state (the chat's shop has one seller account, so it is one per chat and
     * needs no join): the customer messages since the seller last opened the chat, and whether a
     * connect request is waiting that the seller has not seen. Admins and staff each have theirs in
     * chat_reads. The seller dashboard sums these.
     */
    newMessagesCount: integer('new_messages_count').notNull().default(0),
    connectRequest: boolean('connect_request').notNull().default(false),
    /** How many messages the customer wrote: every other reader's unread count is this minus what they read. */
    customerMessages: integer('customer_messages').notNull().default(0),
    /**
     * The pending connect request: the number of the customer message that asked for a person (a
     * reader who read that many has seen it), or null when none is pending (a person answered).
     */
    connectRequestMark: integer('connect_request_mark'),
    /** open, closed */
    status: text('status').notNull().default('open'),
    /** The avatar colour of the chat user entry (SPEC §3 `color`), picked once per chat. */
    color: text('color').notNull().default('teal'),
    /**
     * Who holds the chat (human takeover): while set, the bot stays quiet and the seller or staff
     * member answers by hand; cleared when they hand it back.
     */
    heldBy: uuid('held_by').references(() => users.id, { onDelete: 'set null' }),
    heldAt: timestamp('held_at', { withTimezone: true }),
    /** The marketing contact of the customer's address (linked, not copied: issue 17). */
    contactId: uuid('contact_id'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('chat_sessions_session_uq').on(table.sessionId),
    index('chat_sessions_contact_idx').on(table.contactId),
    index('chat_sessions_seller_idx').on(table.sellerId, table.lastInteractionOn, table.id),
    // The admins' and staff's list of all chats, newest interaction first.
    index('chat_sessions_recent_idx').on(table.lastInteractionOn, table.id),
    index('chat_sessions_search_trgm_idx').using(
      'gin',
      sql`(lower(${table.name} || ' ' || ${table.email} || ' ' || ${table.lastMessage})) gin_trgm_ops`,
    ),
  ],
);

/**
 * What each admin or staff member has read of a chat (the seller's own read state is on the chat):
 * the unread count is chat_sessions.customer_messages minus read_messages, the connect request is theirs
 * while read_messages is below chat_sessions.connect_request_mark. No row: never opened, every customer
 * message is unread (as in any inbox). The list joins one row per listed chat by this primary key.
 */
export const chatReads = pgTable(
  'chat_reads',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chatSessions.id, { onDelete: 'cascade' }),
    /** chat_sessions.customer_messages when the reader last opened the chat (or answered in it). */
    readMessages: integer('read_messages').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.chatId] }),
    // Deleting a shop deletes its chats: their reads are found by chat.
    index('chat_reads_chat_idx').on(table.chatId),
  ],
);

/**
 * A seller's FAQ for their sales bot (SPEC §3 `questions` / `chatBotResponse`): the bot answers a
 * customer's question with the entry that matches it best. Sellers manage them in the chats area.
 */
export const chatFaqs = pgTable(
  'chat_faqs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    /** Extra words that should also find this entry (lower case). */
    keywords: text('keywords').array().notNull().default(sql`'{}'::text[]`),
    /** Order on the menu and in the list. */
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('chat_faqs_seller_idx').on(table.sellerId, table.position)],
);

/** One message of a help chat (SPEC §3 chat message). */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    chatId: uuid('chat_id')
      .notNull()
      .references(() => chatSessions.id, { onDelete: 'cascade' }),
    /** User or Bot */
    sender: text('sender').notNull(),
    message: text('message').notNull(),
    /** questions, generalReply, buttons: what the bot offered with the message. */
    extras: jsonb('extras').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (table) => [index('chat_messages_chat_idx').on(table.chatId, table.createdAt)],
);

/**
 * A user's notifications (SPEC §7 NOTIFICATION messages). The database is the mailbox, the broker only
 * the doorbell: a notification is written here first and published after, so a browser that was
 * offline, or a broker that restarted, loses nothing — the client refetches after every reconnect.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    /** An in-app path to open, or an API download path (exports). */
    link: text('link'),
    /** Set when the notification reports a background task's outcome. */
    taskId: uuid('task_id'),
    taskName: text('task_name'),
    /** The task's status (Completed, Failed) or null for plain notifications. */
    status: text('status'),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('notifications_user_idx').on(table.userId, table.createdAt, table.id),
    index('notifications_unread_idx').on(table.userId).where(sql`${table.readAt} IS NULL`),
    // A task's outcome is notified exactly once, even when its last step runs twice after a crash.
    uniqueIndex('notifications_task_uq').on(table.taskId),
  ],
);

/**
 * Background jobs (ARCHITECTURE.md "background jobs"): every server instance runs a worker that claims
 * due jobs with `FOR UPDATE SKIP LOCKED`. A claim is a lease (`locked_until`): a job whose worker died
 * is claimed again once its lease runs out, so a crash never loses a job.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Which handler runs it, e.g. `export.sellers`. */
    kind: text('kind').notNull(),
    /** The task name the user sees ("Sellers export"). */
    name: text('name').notNull(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** Queued, Running, Completed, Failed */
    status: text('status').notNull().default('Queued'),
    /** 0–100, written by the handler as it goes. */
    progress: integer('progress').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    result: jsonb('result').$type<Record<string, unknown>>(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('jobs_due_idx').on(table.runAfter).where(sql`${table.status} IN ('Queued', 'Running')`),
    index('jobs_owner_idx').on(table.ownerId, table.createdAt),
  ],
);

/**
 * Call history (SPEC §3 "Call log"): one row per call per participant who logged it, the caller's
 * OUTGOING and the callee's INCOMING. `timeline` keeps each step (created, status changes, feedback)
 * for the detail view.
 */
export const callLogs = pgTable(
  'call_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The other party's number, normalised (`+digits` or `digits`). */
    phoneNumber: text('phone_number').notNull(),
    /** Its digits only: what number search matches against. */
    phoneDigits: text('phone_digits').notNull(),
    /** The other party, when the number belongs to a user of this installation. */
    peerUserId: uuid('peer_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** INCOMING, OUTGOING */
    referenceType: text('reference_type').notNull(),
    /** TWILIO, LOCAL */
    source: text('source').notNull(),
    /** voice or video (contracts callMedia): video calls are logged by the server (issue 13). */
    media: text('media').$type<CallMedia>().notNull().default('voice'),
    /** SPEC §4 call status values. */
    callStatus: text('call_status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    durationSeconds: integer('duration_seconds').notNull().default(0),
    feedbackRating: integer('feedback_rating'),
    feedbackText: text('feedback_text'),
    timeline: jsonb('timeline').$type<CallTimelineEntry[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    // A user's own history, newest first, and filtered by status or direction.
    index('call_logs_owner_idx').on(table.ownerId, table.createdAt, table.id),
    index('call_logs_owner_status_idx').on(table.ownerId, table.callStatus, table.createdAt),
    // Admins' view of everyone's calls.
    index('call_logs_recent_idx').on(table.createdAt, table.id),
    index('call_logs_digits_trgm_idx').using('gin', sql`${table.phoneDigits} gin_trgm_ops`),
  ],
);

/**
 * Video calls between users (issue 13): the server's record of each call, addressed to users, never to
 * sockets. The id is the caller's callId. A call rings until ring_deadline (45 s); a ringing row past it
 * is over for every check even if the instance that armed its timer died (a sweep marks it missed).
 */
export const videoCalls = pgTable(
  'video_calls',
  {
    id: uuid('id').primaryKey(),
    callerId: uuid('caller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    calleeId: uuid('callee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** contracts videoCallStates: ringing, accepted, connected, then one final state. */
    state: text('state').$type<VideoCallState>().notNull(),
    /** Which socket of the callee took the call (for the record; any tab of the callee may rejoin). */
    acceptedBy: text('accepted_by'),
    createdAt: createdAt(),
    ringDeadline: timestamp('ring_deadline', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    connectedAt: timestamp('connected_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Why it reached its final state: hangup, lost, glare, timeout, offline, declined, busy. */
    endReason: text('end_reason'),
  },
  (table) => [
    // "Is this user in a call?" on every call attempt: live calls only, by either party.
    index('video_calls_live_caller_idx')
      .on(table.callerId)
      .where(sql`${table.state} in ('ringing', 'accepted', 'connected')`),
    index('video_calls_live_callee_idx')
      .on(table.calleeId)
      .where(sql`${table.state} in ('ringing', 'accepted', 'connected')`),
  ],
);

/**
 * Catalog imports (issue 15, contracts/imports.ts): one uploaded sheet for one seller. The file is kept
 * under DATA_DIR (`storage_path`) so a batch can be reprocessed and resumed; `file_hash` identifies the
 * exact content a batch previewed. `current_batch_id` is the newest batch.
 */
export const catalogImports = pgTable(
  'catalog_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id'),
    fileName: text('file_name').notNull(),
    format: text('format').$type<SheetFormat>().notNull(),
    fileSize: integer('file_size').notNull(),
    fileHash: text('file_hash').notNull(),
    storagePath: text('storage_path').notNull(),
    headers: jsonb('headers').$type<string[]>().notNull().default([]),
    /** Titles applied from suggestions, by sheet line: validation reads them instead of the cell. */
    titleOverrides: jsonb('title_overrides').$type<Record<string, string>>().notNull().default({}),
    currentBatchId: uuid('current_batch_id'),
    createdBy: uuid('created_by'),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('catalog_imports_seller_idx').on(table.sellerId, table.createdAt),
    index('catalog_imports_created_idx').on(table.createdAt, table.id),
    index('catalog_imports_request_idx').on(table.requestId),
  ],
);

/**
 * A validation run of an import and the moves made from it. Jobs write their progress and checkpoint
 * here in the same transaction as the rows they finish, so a resumed job starts exactly after the last
 * chunk that was stored (`checkpoint_line` for validation; moves skip rows that have a result).
 */
export const importBatches = pgTable(
  'import_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    importId: uuid('import_id')
      .notNull()
      .references(() => catalogImports.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    status: text('status').$type<BatchStatus>().notNull().default('queued'),
    step: text('step').$type<'validate' | 'move'>().notNull().default('validate'),
    moveKind: text('move_kind').$type<MoveKind>(),
    mapping: jsonb('mapping').$type<ColumnMapping[]>().notNull(),
    blankPolicy: text('blank_policy').$type<BlankPolicy>().notNull().default('keep'),
    rowsRead: integer('rows_read').notNull().default(0),
    progress: integer('progress').notNull().default(0),
    /** The last sheet line whose row is stored (validation resumes after it). */
    checkpointLine: integer('checkpoint_line').notNull().default(0),
    rowsMoved: integer('rows_moved').notNull().default(0),
    /** The last sheet line a running move has taken (it resumes after it; a new move starts at 0). */
    moveLine: integer('move_line').notNull().default(0),
    rowsToMove: integer('rows_to_move').notNull().default(0),
    counts: jsonb('counts').$type<OutcomeCounts>().notNull(),
    results: jsonb('results').$type<ResultCounts>().notNull(),
    error: text('error'),
    rowsPerSecond: doublePrecision('rows_per_second'),
    /** Set by "stop": the job ends after the chunk it is in. */
    stopRequested: boolean('stop_requested').notNull().default(false),
    taskId: uuid('task_id'),
    createdBy: uuid('created_by'),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('import_batches_number_uq').on(table.importId, table.number),
    index('import_batches_created_idx').on(table.createdAt, table.id),
  ],
);

/**
 * A batch's rows: the sheet's cells as read (for the error sheet and suggested titles), the verdict,
 * and what a move would write (`planned`, with each changed field's stored value before → after, which
 * the move checks; the preview's field changes are read from it). Written once by validation and once
 * more by the move (its result), so it holds no more than that and has one secondary index: a 100k-row
 * sheet writes 100k of these.
 */
export const importRows = pgTable(
  'import_rows',
  {
    batchId: uuid('batch_id')
      .notNull()
      .references(() => importBatches.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    outcome: text('outcome').$type<RowOutcome>().notNull(),
    sku: text('sku').notNull().default(''),
    skuKey: text('sku_key').notNull().default(''),
    title: text('title').notNull().default(''),
    /** Normalised title + key attributes: two rows (or a row and a product) with one are duplicates. */
    dupKey: text('dup_key'),
    // json (text), not jsonb: nothing queries inside them, and a 100k-row sheet stores and reads them
    // back faster as the text they arrive as.
    cells: json('cells').$type<string[]>().notNull(),
    errors: jsonb('errors').$type<unknown[]>().notNull().default([]),
    duplicateOf: json('duplicate_of').$type<Record<string, unknown>>(),
    productId: uuid('product_id'),
    planned: json('planned').$type<Record<string, unknown>>(),
    result: text('result').$type<RowResult>(),
    resultMessage: text('result_message'),
  },
  (table) => [
    primaryKey({ columns: [table.batchId, table.line] }),
    index('import_rows_outcome_idx').on(table.batchId, table.outcome, table.line),
  ],
);

/** A seller's remembered column mapping: normalised header → target (null: not imported). */
export const importMappings = pgTable('import_mappings', {
  sellerId: uuid('seller_id')
    .primaryKey()
    .references(() => sellers.id, { onDelete: 'cascade' }),
  targets: jsonb('targets').$type<Record<string, string | null>>().notNull().default({}),
  updatedAt: updatedAt(),
});

/** A seller asking staff to import for them: a sheet to map, or a product feed URL to fetch. */
export const importRequests = pgTable(
  'import_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<RequestKind>().notNull(),
    fileName: text('file_name'),
    storagePath: text('storage_path'),
    feedUrl: text('feed_url'),
    note: text('note').notNull().default(''),
    status: text('status').$type<RequestStatus>().notNull().default('open'),
    assigneeId: uuid('assignee_id'),
    assigneeName: text('assignee_name'),
    response: text('response'),
    createdBy: uuid('created_by'),
    createdByName: text('created_by_name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('import_requests_status_idx').on(table.status, table.createdAt),
    index('import_requests_seller_idx').on(table.sellerId, table.createdAt),
  ],
);

// ── Tags (issue 16) ────────────────────────────────────────────────────────────────────────────────
//
// The tag tree people edit is a DRAFT (tag_nodes); the storefront reads PUBLISHED versions
// (tag_node_versions), each made by a publish. A node keeps its id and seq for life, across versions.
// The tree is an adjacency list plus a materialized path of seqs ("/4/17/230/", the node's own last),
// so a move rewrites only the moved subtree's paths and levels, and a subtree is one prefix range.

/** The draft tag tree: what editors change; nothing here reaches the storefront until published. */
export const tagNodes = pgTable(
  'tag_nodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The node's short number: the unit of `path` (a uuid would make each level 37 characters). */
    seq: integer('seq').notNull().generatedByDefaultAsIdentity(),
    parentId: uuid('parent_id').references((): AnyPgColumn => tagNodes.id),
    /**
     * Seqs from the root down to this node: "/4/17/230/". COLLATE "C" (migration 0014): in byte order a
     * node's subtree sorts right after it ('/' sorts before the digits), so one index serves both a
     * subtree (`LIKE '/4/17/%'`) and a depth-first walk (`ORDER BY path`).
     */
    path: text('path').notNull(),
    /** Depth: 1 for a root. */
    level: integer('level').notNull(),
    name: text('name').notNull(),
    /** The name lower-cased and spaced alike: unique among siblings. */
    nameKey: text('name_key').notNull(),
    /** A stable identifier for integrations (storefront URLs, feeds): unique in the tree. */
    code: text('code').notNull(),
    /** Kept by the "calculate node levels" job: products tagged with the node, and with its subtree. */
    productCount: integer('product_count').notNull().default(0),
    productTotal: integer('product_total').notNull().default(0),
    childrenCount: integer('children_count').notNull().default(0),
    /** Bumped by every write: an editor's stale version answers 409 naming who changed it. */
    version: integer('version').notNull().default(1),
    updatedBy: uuid('updated_by'),
    updatedByName: text('updated_by_name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('tag_nodes_seq_uq').on(table.seq),
    uniqueIndex('tag_nodes_code_uq').on(table.code),
    // Also the index of a node's children in name order (a second one on the same columns made every
    // write of a moved subtree cost one more index, for nothing: bench `tags`).
    unique('tag_nodes_sibling_name_uq').on(table.parentId, table.nameKey).nullsNotDistinct(),
    index('tag_nodes_path_idx').on(table.path),
  ],
);

/** The draft as a whole: its revision (bumped by every draft write) and what it was made from. */
export const tagTreeState = pgTable('tag_tree_state', {
  /** One row. */
  id: integer('id').primaryKey().default(1),
  revision: integer('revision').notNull().default(0),
  /** The published version the draft was last published as, or rolled back to. */
  basedOn: integer('based_on'),
  /** Set by a rollback: the version the draft was copied from (cleared by the next publish). */
  rolledBackFrom: integer('rolled_back_from'),
  /** When "calculate node levels" last finished: product counts are as of then. */
  levelsCalculatedAt: timestamp('levels_calculated_at', { withTimezone: true }),
  updatedAt: updatedAt(),
});

/** A publish: version N of the tree, immutable. */
export const tagVersions = pgTable('tag_versions', {
  number: integer('number').primaryKey(),
  note: text('note').notNull().default(''),
  publishedBy: uuid('published_by'),
  publishedByName: text('published_by_name').notNull(),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  /** The draft revision published. */
  draftRevision: integer('draft_revision').notNull(),
  /** A rollback's publish: the version it brought back. */
  rolledBackFrom: integer('rolled_back_from'),
  nodeCount: integer('node_count').notNull(),
  /** Against the version before: how many nodes were added, removed, renamed, moved. */
  summary: jsonb('summary').$type<Record<string, number>>().notNull().default({}),
});

/**
 * Published nodes, as spans of versions: a row holds a node's state from version `valid_from` until
 * the version before `valid_to` (null: still so in the latest). A publish closes the rows of the nodes
 * it changes or removes and opens rows for the changed and added ones, so it writes only what changed,
 * and version K is the rows with valid_from ≤ K < valid_to.
 */
export const tagNodeVersions = pgTable(
  'tag_node_versions',
  {
    nodeId: uuid('node_id').notNull(),
    validFrom: integer('valid_from').notNull(),
    validTo: integer('valid_to'),
    seq: integer('seq').notNull(),
    parentId: uuid('parent_id'),
    /** As tag_nodes.path, COLLATE "C" too. */
    path: text('path').notNull(),
    level: integer('level').notNull(),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    code: text('code').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.nodeId, table.validFrom] }),
    index('tag_node_versions_seq_idx').on(table.seq, table.validFrom),
    index('tag_node_versions_parent_idx').on(table.parentId, table.validFrom),
    index('tag_node_versions_from_idx').on(table.validFrom),
    index('tag_node_versions_to_idx').on(table.validTo),
    // The latest version, which the storefront reads: its children and subtrees.
    index('tag_node_versions_live_parent_idx')
      .on(table.parentId, table.nameKey)
      .where(sql`${table.validTo} IS NULL`),
    index('tag_node_versions_live_path_idx').on(table.path).where(sql`${table.validTo} IS NULL`),
  ],
);

// ── Marketing (issue 17): contacts, mail templates, campaigns ─────────────────────────────────────────

/** The kinds of company a contact works for; the admin manages the list (a contact keeps null if one goes). */
export const companyTypes = pgTable(
  'company_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('company_types_name_uq').on(sql`lower(${table.name})`)],
);

/**
 * A person marketing may mail. `email` is stored normalised (trimmed, lower case) and unique.
 * `subscription` is the contact's view of the suppression list (email_unsubscribes, which also holds
 * addresses that are no contact): both change in one transaction. `searchKey` is the normalised
 * name, e-mail and company (contracts/query-tree normalizeText) that free-text search reads.
 */
export const contacts = pgTable(
  'contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    company: text('company').notNull().default(''),
    companyTypeId: uuid('company_type_id').references(() => companyTypes.id, { onDelete: 'set null' }),
    /** ISO 3166-1 alpha-2, from getCountriesList. */
    country: text('country'),
    /** A template language code (contracts/marketing templateLanguages), e.g. EN. */
    language: text('language').notNull().default('EN'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    /** lead_import, help_chat, customer_query, manual */
    source: text('source').$type<ContactSource>().notNull(),
    consent: boolean('consent').notNull().default(false),
    consentAt: timestamp('consent_at', { withTimezone: true }),
    /** subscribed, unsubscribed, bounced */
    subscription: text('subscription').$type<ContactSubscription>().notNull().default('subscribed'),
    /** How and when the contact left: link, one_click, staff, import. */
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
    unsubscribeMethod: text('unsubscribe_method'),
    bouncedAt: timestamp('bounced_at', { withTimezone: true }),
    bounceReason: text('bounce_reason'),
    searchKey: text('search_key').notNull().default(''),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastContactedAt: timestamp('last_contacted_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('contacts_email_uq').on(table.email),
    index('contacts_created_idx').on(table.createdAt, table.id),
    // The list's other orders (server/modules/contacts/list.ts; e-mail walks contacts_email_uq): name
    // reads the search key's start; never-contacted contacts sort as the oldest contact.
    index('contacts_name_idx').on(table.searchKey, table.id),
    index('contacts_last_contacted_idx').on(
      sql`coalesce(${table.lastContactedAt}, '-infinity'::timestamptz)`,
      table.id,
    ),
    // Audiences and list filters by country, company type, language and subscription (issue 17: a
    // 3-filter audience counted in ≤ 50 ms at 100k contacts): the equalities narrow the range in that
    // order, and with created_at and id in the index a count or an exact page is an index-only scan
    // (after a VACUUM; the seed and large lead imports run one). It replaces (country, created_at):
    // one index fewer to write for every contact row written.
    index('contacts_audience_idx').on(
      table.country,
      table.companyTypeId,
      table.language,
      table.subscription,
      table.createdAt,
      table.id,
    ),
    // The few unsubscribed contacts: a campaign's unsubscribes are counted from them.
    index('contacts_unsubscribed_idx')
      .on(table.unsubscribedAt)
      .where(sql`${table.subscription} = 'unsubscribed'`),
    index('contacts_company_type_idx').on(table.companyTypeId),
    index('contacts_tags_idx').using('gin', table.tags),
    index('contacts_search_trgm_idx').using('gin', sql`${table.searchKey} gin_trgm_ops`),
  ],
);

/** A mail template; its text lives in one variant per language. */
export const mailTemplates = pgTable(
  'mail_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** The variant used for a contact whose language has none (a campaign may choose another). */
    defaultLanguage: text('default_language').notNull().default('EN'),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by'),
    createdByName: text('created_by_name').notNull().default(''),
    /** Who saved the template last: a stale editor's 409 names them. */
    updatedByName: text('updated_by_name').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('mail_templates_name_uq').on(sql`lower(${table.name})`)],
);

/**
 * One language of a template: subject and sanitised HTML with {{variables}}, and the plain-text part
 * generated from the HTML when saved. `variables` lists the ones used (validated on save).
 */
export const mailTemplateVariants = pgTable(
  'mail_template_variants',
  {
    templateId: uuid('template_id')
      .notNull()
      .references(() => mailTemplates.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    variables: text('variables').array().notNull().default(sql`'{}'::text[]`),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.templateId, table.language] })],
);

/**
 * A bulk mail. The audience is a query tree over contacts (the same tree and compiler as the staging
 * products builder), frozen into campaign_recipients when sending starts. `counts` is kept by the send
 * job in the transaction that changes recipients, so the list never counts rows.
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    status: text('status').$type<CampaignStatus>().notNull().default('draft'),
    templateId: uuid('template_id').references(() => mailTemplates.id, { onDelete: 'set null' }),
    /** The variant for contacts whose language the template lacks. */
    fallbackLanguage: text('fallback_language').notNull().default('EN'),
    audience: jsonb('audience').$type<QueryTree>().notNull(),
    audienceSearch: text('audience_search').notNull().default(''),
    audienceViewId: uuid('audience_view_id'),
    /** Response buttons in the mail (/responseCollection); empty: the campaign asks for none. */
    responseOptions: text('response_options').array().notNull().default(sql`'{}'::text[]`),
    /** The answers' wording per template language, in responseOptions' order (counted as those). */
    responseLabels: jsonb('response_labels')
      .$type<Partial<Record<TemplateLanguage, string[]>>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** Mails a second at most. */
    ratePerSecond: integer('rate_per_second').notNull().default(50),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Set by "pause": the job stops after the chunk it is in. */
    pauseRequested: boolean('pause_requested').notNull().default(false),
    total: integer('total').notNull().default(0),
    counts: jsonb('counts').$type<RecipientCounts>().notNull(),
    error: text('error'),
    taskId: uuid('task_id'),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by'),
    createdByName: text('created_by_name').notNull().default(''),
    /** Who changed the campaign last (edit, schedule, pause, resume): a stale editor's 409 names them. */
    updatedByName: text('updated_by_name').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('campaigns_created_idx').on(table.createdAt, table.id),
    index('campaigns_status_idx').on(table.status, table.scheduledAt),
  ],
);

/**
 * One contact of a campaign. The send job claims `queued` (and due `deferred`) rows, sends, and records
 * the outcome; `message_key` is fixed when the row is made, so a mail resent after a crash has the same
 * Message-ID and the same outbox file (the outbox never holds it twice).
 */
export const campaignRecipients = pgTable(
  'campaign_recipients',
  {
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    language: text('language').notNull(),
    state: text('state').$type<RecipientState>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    messageKey: text('message_key').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.campaignId, table.contactId] }),
    index('campaign_recipients_state_idx').on(table.campaignId, table.state, table.nextAttemptAt),
    index('campaign_recipients_contact_idx').on(table.contactId),
  ],
);

/**
 * A lead sheet imported into contacts: read with the shared sheet reader (server/lib/sheets), mapped to
 * contact fields, validated row by row, then applied. `duplicates` is the user's choice for an address
 * that is already a contact (update it or skip the row); an unsubscribed or bounced contact is never
 * resubscribed, whatever the choice. Progress and checkpoint are written with the rows they finish.
 */
export const leadImports = pgTable(
  'lead_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileName: text('file_name').notNull(),
    format: text('format').$type<SheetFormat>().notNull(),
    fileSize: integer('file_size').notNull(),
    storagePath: text('storage_path').notNull(),
    headers: jsonb('headers').$type<string[]>().notNull().default([]),
    mapping: jsonb('mapping').$type<Record<string, string | null>>().notNull().default({}),
    duplicates: text('duplicates').$type<'update' | 'skip'>().notNull().default('skip'),
    /** Applied to every row: the tags and consent the person importing vouches for. */
    defaults: jsonb('defaults').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status').$type<LeadImportStatus>().notNull().default('queued'),
    rowsRead: integer('rows_read').notNull().default(0),
    progress: integer('progress').notNull().default(0),
    checkpointLine: integer('checkpoint_line').notNull().default(0),
    counts: jsonb('counts').$type<LeadImportCounts>().notNull(),
    rowsPerSecond: doublePrecision('rows_per_second'),
    error: text('error'),
    taskId: uuid('task_id'),
    createdBy: uuid('created_by'),
    createdByName: text('created_by_name').notNull().default(''),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [index('lead_imports_created_idx').on(table.createdAt, table.id)],
);

/** The per-row report of a lead import: the verdict and what became of the row. */
export const leadImportRows = pgTable(
  'lead_import_rows',
  {
    importId: uuid('import_id')
      .notNull()
      .references(() => leadImports.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    /** created, updated, skipped, invalid */
    outcome: text('outcome').notNull(),
    email: text('email').notNull().default(''),
    contactId: uuid('contact_id'),
    cells: json('cells').$type<string[]>().notNull(),
    errors: jsonb('errors').$type<unknown[]>().notNull().default([]),
  },
  (table) => [
    primaryKey({ columns: [table.importId, table.line] }),
    index('lead_import_rows_outcome_idx').on(table.importId, table.outcome, table.line),
  ],
);

// ── Stock (issue 31, docs/commerce.md) ──────────────────────────────────────────────────────────────

/**
 * A product's stock: what is on hand and what live reservations hold. Available = on_hand − reserved,
 * never below zero: a reservation is one conditional UPDATE (`… WHERE on_hand - reserved >= q`), and the
 * check constraints refuse anything that would break it. Every change goes through server/modules/stock.
 */
export const stockItems = pgTable(
  'stock_items',
  {
    productId: uuid('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    onHand: integer('on_hand').notNull().default(0),
    reserved: integer('reserved').notNull().default(0),
    /** At or below this many available, the seller is told (once per crossing); 0: never. */
    lowStockThreshold: integer('low_stock_threshold').notNull().default(0),
    /** When the seller was told the stock is low; cleared when it rises above the threshold again. */
    lowStockNotifiedAt: timestamp('low_stock_notified_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('stock_items_seller_idx').on(table.sellerId),
    check('stock_items_reserved_ck', sql`${table.reserved} >= 0 AND ${table.reserved} <= ${table.onHand}`),
    check('stock_items_threshold_ck', sql`${table.lowStockThreshold} >= 0`),
  ],
);

/** What holds stock: one row per item and holder (an order), live until released or consumed. */
export const stockReservations = pgTable(
  'stock_reservations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => stockItems.productId, { onDelete: 'cascade' }),
    /** The holder: 'order:{id}' (a text, so any later holder needs no new column). */
    holder: text('holder').notNull(),
    quantity: integer('quantity').notNull(),
    state: text('state').$type<'live' | 'released' | 'consumed'>().notNull().default('live'),
    createdAt: createdAt(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [
    index('stock_reservations_holder_idx').on(table.holder),
    index('stock_reservations_live_idx').on(table.productId).where(sql`${table.state} = 'live'`),
    check('stock_reservations_quantity_ck', sql`${table.quantity} > 0`),
  ],
);

/** The stock ledger: every change of on hand or reserved, why, and who made it. */
export const stockMoves = pgTable(
  'stock_moves',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    productId: uuid('product_id')
      .notNull()
      .references(() => stockItems.productId, { onDelete: 'cascade' }),
    onHandDelta: integer('on_hand_delta').notNull().default(0),
    reservedDelta: integer('reserved_delta').notNull().default(0),
    /** 'adjustment', 'import', 'reserve', 'release', 'consume', 'receipt', 'return'… */
    reason: text('reason').notNull(),
    note: text('note').notNull().default(''),
    holder: text('holder'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [index('stock_moves_product_idx').on(table.productId, table.id)],
);

// ── Orders (issue 31, docs/commerce.md) ─────────────────────────────────────────────────────────────

/**
 * An order of one seller's products. Money is integer minor units of `currency`; `pricing` holds the
 * priced lines, taxes, shipping and totals (the offers' pricing shape, contracts/domain/offer-pricing.ts),
 * computed by the server. `status` and `payment_state` are computed from the sums of payments and
 * refunds and from the shipments, never typed in. Stock is held by reservations whose holder is
 * 'order:{id}' (server/modules/stock).
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    customerName: text('customer_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    billingAddress: jsonb('billing_address').$type<Address>().notNull(),
    shippingAddress: jsonb('shipping_address').$type<Address>().notNull(),
    currency: text('currency').notNull(),
    /** pending, paid, shipped, delivered, cancelled, refunded */
    status: text('status').notNull().default('pending'),
    /** unpaid, partly_paid, paid, partly_refunded, refunded */
    paymentState: text('payment_state').notNull().default('unpaid'),
    /** The current version (1 when placed; each edit adds one in order_versions). */
    version: integer('version').notNull().default(1),
    pricing: jsonb('pricing').$type<Record<string, unknown>>().notNull(),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    paidMinor: bigint('paid_minor', { mode: 'number' }).notNull().default(0),
    refundedMinor: bigint('refunded_minor', { mode: 'number' }).notNull().default(0),
    /** The accepted offer this order was made from (one order per offer). */
    offerId: uuid('offer_id').references(() => offers.id, { onDelete: 'set null' }),
    offerVersion: integer('offer_version'),
    notes: text('notes').notNull().default(''),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    shippedAt: timestamp('shipped_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('orders_number_uq').on(table.number),
    uniqueIndex('orders_offer_uq').on(table.offerId),
    index('orders_seller_status_idx').on(table.sellerId, table.status, table.createdAt, table.id),
    index('orders_status_idx').on(table.status, table.createdAt, table.id),
    index('orders_created_idx').on(table.createdAt, table.id),
    index('orders_search_trgm_idx').using(
      'gin',
      sql`(lower(${table.customerName} || ' ' || ${table.email})) gin_trgm_ops`,
    ),
    check(
      'orders_money_ck',
      sql`${table.paidMinor} >= 0 AND ${table.refundedMinor} >= 0 AND ${table.refundedMinor} <= ${table.paidMinor}`,
    ),
  ],
);

/** Every version of an order's lines: version 1 as placed, each edit with its line diff and reason. */
export const orderVersions = pgTable(
  'order_versions',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    pricing: jsonb('pricing').$type<Record<string, unknown>>().notNull(),
    /** What changed from the previous version (contracts/domain/offer-diff.ts); null for version 1. */
    diff: jsonb('diff').$type<Record<string, unknown>>(),
    reason: text('reason').notNull().default(''),
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.orderId, table.version] })],
);

/** A payment recorded against an order (by hand, or later by a provider). */
export const orderPayments = pgTable(
  'order_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    /** card, bank_transfer, cash, cheque, other */
    method: text('method').notNull(),
    /** YYYY-MM-DD: when the money was received. */
    paidOn: text('paid_on').notNull(),
    reference: text('reference').notNull().default(''),
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [
    index('order_payments_order_idx').on(table.orderId, table.createdAt),
    check('order_payments_amount_ck', sql`${table.amountMinor} > 0`),
  ],
);

/** A refund (partial or full, any number up to what was captured), with its reason and returned goods. */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** 1, 2, … within the order. */
    number: integer('number').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    reason: text('reason').notNull(),
    /** Goods sent back: [{ productId, name, quantity, restock }] (restocked or written off). */
    returns: jsonb('returns').$type<Record<string, unknown>[]>().notNull().default([]),
    /** The credit note issued for it (the invoices module). */
    creditNoteId: uuid('credit_note_id'),
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('order_refunds_number_uq').on(table.orderId, table.number),
    check('order_refunds_amount_ck', sql`${table.amountMinor} > 0`),
  ],
);

/** A shipment: the whole order leaves with a carrier and tracking number; its stock is consumed. */
export const orderShipments = pgTable(
  'order_shipments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    carrier: text('carrier').notNull(),
    trackingNumber: text('tracking_number').notNull().default(''),
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [index('order_shipments_order_idx').on(table.orderId)],
);

/** Orders per seller and status, kept by statement triggers like offer_status_counts. */
export const orderStatusCounts = pgTable(
  'order_status_counts',
  {
    sellerKey: uuid('seller_key').notNull(),
    status: text('status').notNull(),
    orders: integer('orders').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.sellerKey, table.status] })],
);

/**
 * The last number drawn per issuer (the marketplace, or a seller by id), series (invoice, credit_note)
 * and period (the fiscal year, or "all" when the series does not show the year). Issuing takes the next
 * one by `INSERT … ON CONFLICT DO UPDATE … RETURNING` inside the issuing transaction: the row lock
 * serialises concurrent issues, so numbers are never shared or skipped (issue 31).
 */
export const invoiceCounters = pgTable(
  'invoice_counters',
  {
    issuer: text('issuer').notNull(),
    series: text('series').notNull(),
    period: text('period').notNull(),
    last: integer('last').notNull(),
  },
  (table) => [primaryKey({ columns: [table.issuer, table.series, table.period] })],
);

/**
 * Invoices and credit notes (issue 31, docs/commerce.md). A draft has no number and may be deleted;
 * issuing gives the number and freezes `document` (the business-document model every renderer reads:
 * server/lib/documents), whose SHA-256 is kept with it; the PDF, XML and JSON go to the file storage.
 * An issued document is never edited (a trigger refuses it): it is paid, reminded, or corrected by a
 * credit note (`credited_invoice_id`).
 */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** invoice, credit_note */
    kind: text('kind').notNull().default('invoice'),
    /** draft, unpaid, pending, overdue, paid, failed, cancelled; a credit note is `issued`. */
    status: text('status').notNull().default('draft'),
    /** 'marketplace' or the issuing seller's id: whose counters number it. */
    issuer: text('issuer').notNull(),
    /** Whose invoice it is: the issuing seller, or the seller the marketplace bills. */
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    /** order, subscription, manual, refund */
    source: text('source').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    refundId: uuid('refund_id'),
    subscriptionId: uuid('subscription_id').references(() => sellerSubscriptions.id, {
      onDelete: 'set null',
    }),
    creditedInvoiceId: uuid('credited_invoice_id').references((): AnyPgColumn => invoices.id),
    number: text('number'),
    series: text('series'),
    period: text('period'),
    sequence: integer('sequence'),
    currency: text('currency').notNull(),
    buyerName: text('buyer_name').notNull(),
    buyerEmail: text('buyer_email').notNull().default(''),
    document: jsonb('document').$type<Record<string, unknown>>().notNull(),
    documentSha256: text('document_sha256'),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    taxMinor: bigint('tax_minor', { mode: 'number' }).notNull(),
    paidMinor: bigint('paid_minor', { mode: 'number' }).notNull().default(0),
    creditedMinor: bigint('credited_minor', { mode: 'number' }).notNull().default(0),
    /** YYYY-MM-DD in the issuer's time zone. */
    issueDate: text('issue_date'),
    dueDate: text('due_date'),
    pdfKey: text('pdf_key'),
    pdfSha256: text('pdf_sha256'),
    xmlKey: text('xml_key'),
    jsonKey: text('json_key'),
    notes: text('notes').notNull().default(''),
    createdBy: uuid('created_by'),
    issuedBy: uuid('issued_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    issuedAt: timestamp('issued_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('invoices_number_uq').on(table.issuer, table.kind, table.number),
    index('invoices_seller_status_idx').on(table.sellerId, table.status, table.createdAt, table.id),
    index('invoices_status_idx').on(table.status, table.createdAt, table.id),
    index('invoices_created_idx').on(table.createdAt, table.id),
    index('invoices_order_idx').on(table.orderId),
    // An order has one invoice in force; a cancelled one (credited in full) makes room for the next.
    uniqueIndex('invoices_order_uq').on(table.orderId).where(sql`kind = 'invoice' AND status <> 'cancelled'`),
    index('invoices_credited_idx').on(table.creditedInvoiceId),
    index('invoices_due_idx').on(table.dueDate).where(sql`status IN ('unpaid', 'pending', 'overdue')`),
    index('invoices_issue_date_idx').on(table.issueDate),
    index('invoices_search_trgm_idx').using(
      'gin',
      sql`(lower(coalesce(${table.number}, '') || ' ' || ${table.buyerName} || ' ' || ${table.buyerEmail})) gin_trgm_ops`,
    ),
    check(
      'invoices_money_ck',
      sql`${table.paidMinor} >= 0 AND ${table.creditedMinor} >= 0 AND ${table.totalMinor} >= 0`,
    ),
  ],
);

/** Invoices per seller and status, kept by statement triggers (migration 0028) for the list's tabs. */
export const invoiceStatusCounts = pgTable(
  'invoice_status_counts',
  {
    sellerKey: uuid('seller_key').notNull(),
    status: text('status').notNull(),
    invoices: integer('invoices').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.sellerKey, table.status] })],
);

/** Whom the marketplace buys stock from (issue 31), with the receiving tolerance of their deliveries. */
export const suppliers = pgTable(
  'suppliers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    address: jsonb('address').$type<Address>(),
    taxId: text('tax_id').notNull().default(''),
    currency: text('currency').notNull(),
    /** percent (basis points) or units */
    toleranceKind: text('tolerance_kind').notNull().default('percent'),
    toleranceValue: integer('tolerance_value').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('suppliers_name_uq').on(sql`lower(${table.name})`),
    check('suppliers_tolerance_ck', sql`${table.toleranceValue} >= 0 AND ${table.toleranceValue} <= 10000`),
  ],
);

/** A product's own receiving tolerance, over its supplier's. */
export const productTolerances = pgTable('product_tolerances', {
  productId: uuid('product_id')
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  value: integer('value').notNull(),
});

/**
 * A purchase order to a supplier for one shop's products (issue 31): draft → sent → partially received
 * → received, or cancelled; the status follows from the lines and their tolerance.
 */
export const purchaseOrders = pgTable(
  'purchase_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull(),
    supplierId: uuid('supplier_id')
      .notNull()
      .references(() => suppliers.id),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('draft'),
    currency: text('currency').notNull(),
    expectedOn: text('expected_on'),
    notes: text('notes').notNull().default(''),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('purchase_orders_number_uq').on(table.number),
    index('purchase_orders_status_idx').on(table.status, table.createdAt, table.id),
    index('purchase_orders_created_idx').on(table.createdAt, table.id),
    index('purchase_orders_supplier_idx').on(table.supplierId, table.createdAt),
  ],
);

export const purchaseOrderLines = pgTable(
  'purchase_order_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purchaseOrderId: uuid('purchase_order_id')
      .notNull()
      .references(() => purchaseOrders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    name: text('name').notNull(),
    sku: text('sku').notNull().default(''),
    quantity: integer('quantity').notNull(),
    unitCostMinor: bigint('unit_cost_minor', { mode: 'number' }).notNull(),
    received: integer('received').notNull().default(0),
    toleranceKind: text('tolerance_kind').notNull(),
    toleranceValue: integer('tolerance_value').notNull(),
  },
  (table) => [
    uniqueIndex('purchase_order_lines_position_uq').on(table.purchaseOrderId, table.position),
    check('purchase_order_lines_qty_ck', sql`${table.quantity} > 0 AND ${table.received} >= 0`),
  ],
);

/** One delivery: what arrived per line, who took it in and when; an over-receipt's reason. */
export const purchaseOrderReceipts = pgTable(
  'purchase_order_receipts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purchaseOrderId: uuid('purchase_order_id')
      .notNull()
      .references(() => purchaseOrders.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    lines: jsonb('lines').$type<{ lineId: string; quantity: number }[]>().notNull(),
    note: text('note').notNull().default(''),
    overReason: text('over_reason'),
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('purchase_order_receipts_number_uq').on(table.purchaseOrderId, table.number)],
);

// ---------------------------------------------------------------------------------------------------
// Auctions (issue 32, docs/auctions.md). The auction row holds the terms and the state the rules keep
// (contracts/domain/auction-rules.ts): a cache of the ledger, which a replay reproduces. Stored statuses:
// draft, scheduled (live once its start has passed), ended, cancelled.

export const auctionEvents = pgTable('auction_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  sellerId: uuid('seller_id')
    .notNull()
    .references(() => sellers.id, { onDelete: 'cascade' }),
  gapSeconds: integer('gap_seconds').notNull(),
  createdBy: uuid('created_by'),
  createdAt: createdAt(),
});

export const auctions = pgTable(
  'auctions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    number: bigserial('number', { mode: 'number' }).notNull(),
    eventId: uuid('event_id').references(() => auctionEvents.id, { onDelete: 'set null' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => sellers.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id),
    quantity: integer('quantity').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    currency: text('currency').notNull(),
    startingPriceMinor: bigint('starting_price_minor', { mode: 'number' }).notNull(),
    reserveMinor: bigint('reserve_minor', { mode: 'number' }),
    buyNowMinor: bigint('buy_now_minor', { mode: 'number' }),
    increments: jsonb('increments').$type<{ fromMinor: number; stepMinor: number }[]>().notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    hardEndAt: timestamp('hard_end_at', { withTimezone: true }).notNull(),
    softCloseSeconds: integer('soft_close_seconds').notNull(),
    extensionSeconds: integer('extension_seconds').notNull(),
    paymentHours: integer('payment_hours').notNull().default(48),
    status: text('status').notNull().default('draft'),
    outcome: text('outcome'),
    cancelReason: text('cancel_reason'),
    // The rules' state (what a replay of the ledger gives).
    priceMinor: bigint('price_minor', { mode: 'number' }),
    leaderBidderId: uuid('leader_bidder_id'),
    leaderMaxMinor: bigint('leader_max_minor', { mode: 'number' }),
    leaderSequence: integer('leader_sequence'),
    /** The leader's name as watchers see it (maskedName). */
    leaderName: text('leader_name'),
    effectiveEndAt: timestamp('effective_end_at', { withTimezone: true }).notNull(),
    bids: integer('bids').notNull().default(0),
    lastSequence: integer('last_sequence').notNull().default(0),
    boughtNow: boolean('bought_now').notNull().default(false),
    /** Rises by one with every change watchers see, so a view notices a missed message. */
    version: integer('version').notNull().default(0),
    // After a sale.
    settlement: text('settlement'),
    winnerDeadline: timestamp('winner_deadline', { withTimezone: true }),
    orderId: uuid('order_id'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('auctions_number_uq').on(table.number),
    index('auctions_status_idx').on(table.status, table.startsAt, table.id),
    index('auctions_closing_idx').on(table.status, table.effectiveEndAt),
    index('auctions_seller_idx').on(table.sellerId, table.startsAt),
    index('auctions_event_idx').on(table.eventId),
    check(
      'auctions_times_ck',
      sql`${table.startsAt} < ${table.endsAt} AND ${table.endsAt} <= ${table.hardEndAt} AND ${table.effectiveEndAt} <= ${table.hardEndAt}`,
    ),
  ],
);

export const auctionBidders = pgTable(
  'auction_bidders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Lower case. */
    email: text('email').notNull(),
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    codeAttempts: integer('code_attempts').notNull().default(0),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    /** SHA-256 of the bidder's token (the browser keeps the token). */
    tokenHash: text('token_hash'),
    /** Registered by a staff member bidding on the customer's behalf. */
    registeredBy: uuid('registered_by'),
    /** The last "you have been outbid" mail: at most one each ten minutes. */
    outbidMailedAt: timestamp('outbid_mailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('auction_bidders_email_uq').on(table.auctionId, table.email),
    index('auction_bidders_token_idx').on(table.tokenHash),
  ],
);

/** The append-only ledger: rows are never deleted, and only a cancellation may be written on one. */
export const auctionBids = pgTable(
  'auction_bids',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    auctionId: uuid('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    sequence: integer('sequence').notNull(),
    bidderId: uuid('bidder_id')
      .notNull()
      .references(() => auctionBidders.id),
    maxMinor: bigint('max_minor', { mode: 'number' }).notNull(),
    /** The visible price and the effective end right after this bid. */
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    effectiveEndAt: timestamp('effective_end_at', { withTimezone: true }).notNull(),
    placedAt: timestamp('placed_at', { withTimezone: true, precision: 6 }).notNull(),
    placedBy: uuid('placed_by'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    cancelledBy: uuid('cancelled_by'),
  },
  (table) => [uniqueIndex('auction_bids_sequence_uq').on(table.auctionId, table.sequence)],
);

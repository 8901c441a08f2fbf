import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ServerRole } from '../../contracts/roles';
import type { RouteAction } from '../../contracts/routes';

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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('sellers_code_uq').on(table.sellerCode),
    index('sellers_tab_idx').on(table.isActive, table.isEmailVerified, table.isKycDone, table.createdAt),
  ],
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
    defaultCurrency: text('default_currency').notNull().default('INR'),
    defaultCountry: text('default_country').notNull().default('IN'),
    defaultLanguage: text('default_language').notNull().default('EN'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('users_email_uq').on(sql`lower(${table.email})`),
    index('users_role_idx').on(table.role),
  ],
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
    familyId: uuid('family_id').notNull(),
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

/** Failed sign-in counters per account key (the lower-cased e-mail), shared by every instance. */
export const signInThrottle = pgTable('sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

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

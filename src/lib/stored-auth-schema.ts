// The schema of the auth data the browser keeps (SPEC §3 "Auth data"). Loaded on demand by
// src/services/secure-storage.ts, when there is stored auth to check: it brings zod, which the sign-in
// page does not need to render. It sits in src/lib so that the auth statechart can name its type
// without importing a service.
import * as z from 'zod/mini';
import type { StoredRole } from '../../contracts/roles';

export const storedRoleSchema = z.enum([
  'ROLE_ADMIN',
  'ROLE_STAFF',
  'ROLE_SELLER',
]) satisfies z.ZodMiniType<StoredRole>;

/** One long task the server accepted (`taskStatus`), kept until its completion arrives on the broker. */
export const storedTaskSchema = z.strictObject({
  name: z.string(),
  /** Epoch milliseconds when the task was generated. */
  timestamp: z.number(),
});
export type StoredTask = z.infer<typeof storedTaskSchema>;
export type StoredTasks = Record<string, StoredTask>;

/**
 * Exactly the auth fields of SPEC §3, nothing more (strict: an unknown field makes the entry invalid).
 * The token expiry is deliberately not a field: it is read from the JWT `exp` claim when needed.
 */
export const storedAuthSchema = z.strictObject({
  accessToken: z.string().check(z.minLength(1)),
  /** The voice token; '' until the voice feature fetches one. */
  twilioToken: z.string(),
  username: z.string(),
  userAvatar: z.nullable(z.string()),
  roles: z.array(storedRoleSchema),
  id: z.string(),
  /** The seller the user belongs to (sellers only). */
  sellerId: z.nullable(z.string()),
  /** A stable id per browser and user, used as the MQTT client id. */
  clientId: z.string().check(z.minLength(1)),
  isAdmin: z.boolean(),
  isStaff: z.boolean(),
  isSeller: z.boolean(),
  loggedIn: z.boolean(),
  /** task id → {name, timestamp}. */
  tasks: z.record(z.string(), storedTaskSchema),
});
export type StoredAuth = z.infer<typeof storedAuthSchema>;

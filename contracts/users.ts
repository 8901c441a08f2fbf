// A user's record (SPEC §7 record service `users/{id}`; Settings → Profile, issue 29): reading it,
// changing it, creating a staff user, the avatar and the password. Shared by the API and the page.
import { z } from 'zod';
import { newPasswordSchema } from './auth';
import { serverRoles } from './roles';
import { countryCodeSchema, currencyCodeSchema, languageCodeSchema } from './settings';
import { inviteStaffBodySchema } from './staff';

/** An avatar may weigh 5 MB before it is cropped to a 256×256 square. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const AVATAR_SIZE = 256;

export const userRecordSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** SPEC §3: the full name, otherwise the part of the e-mail before the @. */
  username: z.string(),
  phone: z.string(),
  /** The avatar's public path; null without one. */
  avatar: z.string().nullable(),
  role: z.enum(serverRoles),
  sellerId: z.string().nullable(),
  isActive: z.boolean(),
  /** The user's own defaults; null inherits the marketplace's (`marketplace` below). */
  defaultCountry: z.string().nullable(),
  defaultLanguage: z.string().nullable(),
  defaultCurrency: z.string().nullable(),
  /** The marketplace's Localization: what a null default inherits, and what may be chosen. */
  marketplace: z.object({
    defaultCountry: z.string(),
    defaultLanguage: z.string(),
    defaultCurrency: z.string(),
    currencies: z.array(z.string()),
    languages: z.array(z.string()),
  }),
});
export type UserRecord = z.infer<typeof userRecordSchema>;

const nameSchema = (label: string) => z.string().trim().max(100, `${label} must be at most 100 characters`);

/**
 * PUT users/{id}. Anyone may change their own name, phone and defaults (null: inherit); someone who
 * manages staff may change another user's name and phone, and an admin their role and whether the
 * account is active. Whether the phone is a real number, and the defaults offered, the server checks.
 */
export const updateUserBodySchema = z.object({
  firstName: nameSchema('First name').min(1, 'Enter the first name').optional(),
  lastName: nameSchema('Last name').optional(),
  phone: z
    .string()
    .trim()
    .min(1, 'Enter a phone number')
    .max(30, 'A phone number is at most 30 characters')
    .optional(),
  defaultCountry: countryCodeSchema.nullable().optional(),
  defaultLanguage: languageCodeSchema.nullable().optional(),
  defaultCurrency: currencyCodeSchema.nullable().optional(),
  role: z.enum(serverRoles).optional(),
  isActive: z.boolean().optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

/** POST users/: a staff user, invited exactly like on the staff page. */
export const createUserBodySchema = inviteStaffBodySchema;

export const changePasswordBodySchema = z.object({
  currentPassword: z
    .string()
    .min(1, 'Enter your current password')
    .max(256, 'Password must be at most 256 characters'),
  newPassword: newPasswordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const userMessageSchema = z.object({ message: z.string() });

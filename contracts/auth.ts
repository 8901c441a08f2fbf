import { z } from 'zod';
import { serverRoleSchema } from './roles';

export const emailSchema = z.string().trim().toLowerCase().email('Enter a valid e-mail address').max(254);

/** At least 8 characters with a letter and a digit; long passphrases welcome (argon2 takes any length). */
export const newPasswordSchema = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(256, 'Password must be at most 256 characters')
  .regex(/[A-Za-z]/, 'Password must contain a letter')
  .regex(/\d/, 'Password must contain a digit');

export const signInBodySchema = z.object({
  email: emailSchema,
  password: z.string().min(1, 'Enter your password').max(256),
});
export type SignInBody = z.infer<typeof signInBodySchema>;

/** The seller block of the current user (SPEC §3). `logo` is the path of the last entry of sellerLogos. */
export const currentSellerSchema = z.object({
  sellerAddress: z.string(),
  sellerCode: z.string(),
  sellerName: z.string(),
  sellerId: z.string(),
  logo: z.string().nullable(),
  isNewSeller: z.boolean(),
  blocked: z.boolean(),
});

/** GET /api/v1/users/byToken/current (SPEC §3 current user). */
export const currentUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  userAvatar: z.string().nullable(),
  defaultCurrency: z.string(),
  defaultCountry: z.string(),
  roles: z.array(serverRoleSchema),
  isSeller: z.boolean(),
  isAdmin: z.boolean(),
  isStaff: z.boolean(),
  seller: currentSellerSchema.nullable(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** Answer of sign-in and refresh. The refresh token itself travels only in an HttpOnly cookie. */
export const sessionSchema = z.object({
  accessToken: z.string(),
  /** Seconds until the access token expires. */
  expiresIn: z.number().int().positive(),
  user: currentUserSchema,
});
export type Session = z.infer<typeof sessionSchema>;

export const forgotPasswordBodySchema = z.object({ email: emailSchema });
export const resetPasswordBodySchema = z.object({
  token: z.string().min(20).max(200),
  password: newPasswordSchema,
});

export const messageSchema = z.object({ message: z.string() });

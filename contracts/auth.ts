// Sign-in, session and password contracts.
//
// Written with `zod/mini` (functions instead of methods) because the sign-in page loads them: mini
// tree-shakes to a few kB where classic zod weighs about 25 kB gzip in the browser. Both share zod's
// core, so the server validates and documents these exactly like the classic-zod contracts.
import * as z from 'zod/mini';
import { serverRoles } from './roles';

export const serverRoleSchema = z.enum(serverRoles);

export const emailSchema = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.email('Enter a valid e-mail address'),
    z.maxLength(254, 'E-mail must be at most 254 characters'),
  );

/** At least 8 characters with a letter and a digit; long passphrases welcome (argon2 takes any length). */
export const newPasswordSchema = z
  .string()
  .check(
    z.minLength(8, 'Password must be at least 8 characters'),
    z.maxLength(256, 'Password must be at most 256 characters'),
    z.regex(/[A-Za-z]/, 'Password must contain a letter'),
    z.regex(/\d/, 'Password must contain a digit'),
  );

export const signInBodySchema = z.object({
  email: emailSchema,
  password: z
    .string()
    .check(
      z.minLength(1, 'Enter your password'),
      z.maxLength(256, 'Password must be at most 256 characters'),
    ),
});
export type SignInBody = z.infer<typeof signInBodySchema>;

/** The seller block of the current user (SPEC §3). `logo` is the path of the last entry of sellerLogos. */
export const currentSellerSchema = z.object({
  sellerAddress: z.string(),
  sellerCode: z.string(),
  sellerName: z.string(),
  sellerId: z.string(),
  logo: z.nullable(z.string()),
  isNewSeller: z.boolean(),
  blocked: z.boolean(),
});

/** GET /api/v1/users/byToken/current (SPEC §3 current user). */
export const currentUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  userAvatar: z.nullable(z.string()),
  /** The user's own defaults (Settings → Profile), else the marketplace's (Localization). */
  defaultCurrency: z.string(),
  defaultCountry: z.string(),
  defaultLanguage: z.string(),
  roles: z.array(serverRoleSchema),
  isSeller: z.boolean(),
  isAdmin: z.boolean(),
  isStaff: z.boolean(),
  seller: z.nullable(currentSellerSchema),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** Answer of sign-in and refresh. The refresh token itself travels only in an HttpOnly cookie. */
export const sessionSchema = z.object({
  accessToken: z.string(),
  /** Seconds until the access token expires. */
  expiresIn: z.int().check(z.positive()),
  user: currentUserSchema,
});
export type Session = z.infer<typeof sessionSchema>;

export const forgotPasswordBodySchema = z.object({ email: emailSchema });
/**
 * What a reset link that cannot work says, on the page and from the API (the server's RESET_INVALID
 * answer has exactly this text). A malformed token is no different to the user from an expired one.
 */
export const RESET_LINK_INVALID_MESSAGE = 'This reset link is invalid or has expired. Request a new one.';

/**
 * The form of a reset token (`randomToken()`: base64url). The page checks it before offering the form;
 * the API lets any token up to the limit through to the lookup, so a malformed one is answered like an
 * unknown one (400 RESET_INVALID), never with a bare validation error.
 */
export const RESET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,200}$/;

export const resetPasswordBodySchema = z.object({
  token: z.string().check(z.maxLength(1000, RESET_LINK_INVALID_MESSAGE)),
  password: newPasswordSchema,
});

export const messageSchema = z.object({ message: z.string() });

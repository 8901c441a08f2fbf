// The auth API group: typed calls over `http`, answers validated with the shared contracts. The auth
// adapter loads this module (and with it axios and zod) with its first call, not with the entry chunk.
import * as z from 'zod/mini';
import {
  type CurrentUser,
  currentUserSchema,
  forgotPasswordBodySchema,
  messageSchema,
  resetPasswordBodySchema,
  type Session,
  type SignInBody,
  sessionSchema,
  signInBodySchema,
} from '../../contracts/auth';
import { ApiError } from './api-error';
import { http } from './http';

export const AUTH_PATHS = {
  signIn: '/api/v1/auth/signin',
  refresh: '/api/v1/auth/refresh',
  signOut: '/api/v1/auth/signout',
  forgotPassword: '/api/v1/auth/forgot-password',
  resetPassword: '/api/v1/auth/reset-password',
  currentUser: '/api/v1/users/byToken/current',
} as const;

/** A refresh that hangs must not keep every waiting request (and the refresh lock) forever. */
const REFRESH_TIMEOUT_MS = 15_000;

function parseInput<T extends z.ZodMiniType>(schema: T, input: unknown): z.output<T> {
  const parsed = z.safeParse(schema, input);
  if (parsed.success) return parsed.data;
  throw new ApiError({
    message: parsed.error.issues[0]?.message ?? 'Invalid input',
    status: 400,
    code: 'VALIDATION_ERROR',
    cancelled: true,
    cause: parsed.error,
  });
}

function parseAnswer<T extends z.ZodMiniType>(schema: T, data: unknown): z.output<T> {
  const parsed = z.safeParse(schema, data);
  if (parsed.success) return parsed.data;
  throw new ApiError({
    message: 'Unexpected answer from the server',
    status: 0,
    code: 'INVALID_RESPONSE',
    data,
    cause: parsed.error,
  });
}

/** POST /api/v1/auth/signin. Silent: the sign-in form shows the failure (via the auth machine). */
export async function signIn(body: SignInBody): Promise<Session> {
  const input = parseInput(signInBodySchema, body);
  const { data } = await http.post(AUTH_PATHS.signIn, input, { silent: true });
  return parseAnswer(sessionSchema, data);
}

/** POST /api/v1/auth/refresh: rotates the HttpOnly refresh cookie and answers a new session. */
export async function refresh(): Promise<Session> {
  const { data } = await http.post(AUTH_PATHS.refresh, undefined, {
    silent: true,
    timeout: REFRESH_TIMEOUT_MS,
  });
  return parseAnswer(sessionSchema, data);
}

/** POST /api/v1/auth/signout: revokes the refresh token and clears its cookie (204). */
export async function signOut(): Promise<void> {
  await http.post(AUTH_PATHS.signOut, undefined, { silent: true, timeout: REFRESH_TIMEOUT_MS });
}

/** POST /api/v1/auth/forgot-password. The answer is the same whether or not the account exists. */
export async function forgotPassword(email: string): Promise<{ message: string }> {
  const input = parseInput(forgotPasswordBodySchema, { email });
  const { data } = await http.post(AUTH_PATHS.forgotPassword, input);
  return parseAnswer(messageSchema, data);
}

/** POST /api/v1/auth/reset-password with the token of the mailed link. */
export async function resetPassword(token: string, password: string): Promise<{ message: string }> {
  const input = parseInput(resetPasswordBodySchema, { token, password });
  const { data } = await http.post(AUTH_PATHS.resetPassword, input);
  return parseAnswer(messageSchema, data);
}

/** GET /api/v1/users/byToken/current. */
export async function getCurrentUser(): Promise<CurrentUser> {
  const { data } = await http.get(AUTH_PATHS.currentUser);
  return parseAnswer(currentUserSchema, data);
}

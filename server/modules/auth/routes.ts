import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  forgotPasswordBodySchema,
  messageSchema,
  resetPasswordBodySchema,
  sessionSchema,
  signInBodySchema,
} from '../../../contracts/auth';
import type { Config } from '../../config';
import { errorResponses } from '../../lib/error-responses';
import { escapeHtml } from '../../lib/escape-html';
import { HttpError } from '../../lib/http-error';
import { randomToken } from '../../lib/secrets';
import {
  createPasswordReset,
  isKnownDevice,
  refresh,
  rememberDevice,
  resetPassword,
  signIn,
  signOut,
} from './service';
import { createSignInLimits, type SignInLimits } from './sign-in-limits';

export const REFRESH_COOKIE = 'mp_rt';
/** A random id of this browser, remembered per account it signed in to (sign-in-limits.ts). */
export const DEVICE_COOKIE = 'mp_device';
const COOKIE_PATH = '/api/v1/auth';
const DEVICE_COOKIE_MAX_AGE = 400 * 24 * 3600; // the longest browsers keep a cookie
export const RESET_MAIL_JOB = 'auth.reset-mail';

const errors = errorResponses(400, 401, 403, 429);

export const FORGOT_PASSWORD_ANSWER = 'If an account exists for that e-mail, a reset link is on its way.';

/** The page a reset token opens; staff invitations mail the same link to set a first password. */
export function resetPasswordUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/** Sign-in, refresh, sign-out and password reset. All public: they are how a token is obtained. */
export async function authRoutes(
  app: FastifyInstance,
  options: { config: Config; signInLimits?: SignInLimits },
) {
  const { config } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = {
    db: app.db,
    tokens: app.tokens,
    sessions: app.sessions,
    refreshTtlSeconds: config.REFRESH_TOKEN_TTL,
  };
  const limits = createSignInLimits(app, options.signInLimits);

  // The refresh token lives only in this cookie: HttpOnly (no script can read it), SameSite=Strict (no
  // other site can make the browser send it) and scoped to the auth routes.
  const setRefreshCookie = (reply: FastifyReply, token: string) =>
    reply.setCookie(REFRESH_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: config.cookieSecure,
      path: COOKIE_PATH,
      maxAge: config.REFRESH_TOKEN_TTL,
    });
  // This browser's device cookie, made on its first sign-in and remembered for the account.
  const rememberThisDevice = async (request: FastifyRequest, reply: FastifyReply, userId: string) => {
    const token = request.cookies[DEVICE_COOKIE] || randomToken();
    await rememberDevice(app.db, userId, token);
    reply.setCookie(DEVICE_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: config.cookieSecure,
      path: COOKIE_PATH,
      maxAge: DEVICE_COOKIE_MAX_AGE,
    });
  };
  const clearRefreshCookie = (reply: FastifyReply) =>
    reply.clearCookie(REFRESH_COOKIE, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'strict',
      secure: config.cookieSecure,
    });

  api.post(
    '/signin',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        body: signInBodySchema,
        response: { 200: sessionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const deviceToken = request.cookies[DEVICE_COOKIE] || undefined;
      const knownDevice = await isKnownDevice(app.db, email, deviceToken);
      await limits.admit(request, reply, { email, deviceToken, knownDevice });
      let issued: Awaited<ReturnType<typeof signIn>>;
      try {
        issued = await signIn(deps, email, password);
      } catch (error) {
        if (error instanceof HttpError && error.code === 'INVALID_CREDENTIALS') await limits.failed(request);
        throw error;
      }
      await rememberThisDevice(request, reply, issued.userId);
      setRefreshCookie(reply, issued.refreshToken);
      return issued.session;
    },
  );

  api.post(
    '/refresh',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Rotate the refresh cookie and get a new access token',
        response: { 200: sessionSchema, ...errors },
      },
    },
    async (request, reply) => {
      try {
        const { session, refreshToken } = await refresh(deps, request.cookies[REFRESH_COOKIE]);
        setRefreshCookie(reply, refreshToken);
        return session;
      } catch (error) {
        clearRefreshCookie(reply);
        throw error;
      }
    },
  );

  api.post(
    '/signout',
    {
      config: { public: true },
      schema: { tags: ['auth'], summary: 'End the session of the refresh cookie' },
    },
    async (request, reply) => {
      await signOut(deps, request.cookies[REFRESH_COOKIE]);
      clearRefreshCookie(reply);
      return reply.status(204).send();
    },
  );

  // The answer never depends on whether the e-mail has an account, in its words or in its time: the
  // request only queues a job, and the job looks the account up and mails the link (retried if the
  // mail server is down).
  app.jobs.register(RESET_MAIL_JOB, async ({ payload }) => {
    const email = String(payload.email);
    const reset = await createPasswordReset(app.db, email);
    if (!reset) return {};
    const link = resetPasswordUrl(config.publicUrl, reset.token);
    const greeting = reset.name ? `Hello ${reset.name},` : 'Hello,';
    await app.mailer.send({
      to: email,
      subject: 'Reset your Marketplace Back-office password',
      text: `${greeting}\n\nSomeone asked to reset the password of your Marketplace Back-office account.\nOpen this link within 30 minutes to choose a new one:\n\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
      html: `<p>${escapeHtml(greeting)}</p><p>Someone asked to reset the password of your Marketplace Back-office account. Open this link within 30 minutes to choose a new one:</p><p><a href="${link}">Reset my password</a></p><p>If it was not you, ignore this mail: your password stays as it is.</p>`,
    });
    return {};
  });

  api.post(
    '/forgot-password',
    {
      config: {
        public: true,
        // Mail bombing: a handful of links an address per quarter hour (one a minute per account too).
        rateLimit: { max: 10, timeWindow: 15 * 60_000 },
      },
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset link',
        body: forgotPasswordBodySchema,
        response: { 200: messageSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      await app.jobs.enqueue({
        kind: RESET_MAIL_JOB,
        name: 'Password reset mail',
        ownerId: null,
        payload: { email: request.body.email },
      });
      return { message: FORGOT_PASSWORD_ANSWER };
    },
  );

  api.post(
    '/reset-password',
    {
      // Each attempt hashes the new password (argon2, deliberately slow): bounded per address.
      config: { public: true, rateLimit: { max: 20, timeWindow: 15 * 60_000 } },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset link token',
        body: resetPasswordBodySchema,
        response: { 200: messageSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const userId = await resetPassword(deps, request.body.token, request.body.password);
      // Whoever opened the mailed link owns the account: this browser is theirs, so other people's
      // failed sign-ins never hold it back (sign-in-limits.ts).
      await rememberThisDevice(request, reply, userId);
      return { message: 'Your password has been changed. Sign in with the new one.' };
    },
  );
}

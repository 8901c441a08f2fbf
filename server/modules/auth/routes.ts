import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  forgotPasswordBodySchema,
  messageSchema,
  resetPasswordBodySchema,
  sessionSchema,
  signInBodySchema,
} from '../../../contracts/auth';
import { apiErrorSchema } from '../../../contracts/errors';
import type { Config } from '../../config';
import { escapeHtml } from '../../lib/escape-html';
import { createPasswordReset, refresh, resetPassword, signIn, signOut } from './service';

export const REFRESH_COOKIE = 'mp_rt';
const COOKIE_PATH = '/api/v1/auth';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 429: apiErrorSchema };

export const FORGOT_PASSWORD_ANSWER = 'If an account exists for that e-mail, a reset link is on its way.';

/** The page a reset token opens; staff invitations mail the same link to set a first password. */
export function resetPasswordUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/** Sign-in, refresh, sign-out and password reset. All public: they are how a token is obtained. */
export async function authRoutes(app: FastifyInstance, options: { config: Config }) {
  const { config } = options;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps = { db: app.db, tokens: app.tokens, refreshTtlSeconds: config.REFRESH_TOKEN_TTL };

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
      const { session, refreshToken } = await signIn(deps, request.body.email, request.body.password);
      setRefreshCookie(reply, refreshToken);
      return session;
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
      await signOut(app.db, request.cookies[REFRESH_COOKIE]);
      clearRefreshCookie(reply);
      return reply.status(204).send();
    },
  );

  api.post(
    '/forgot-password',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset link',
        body: forgotPasswordBodySchema,
        response: { 200: messageSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      const reset = await createPasswordReset(app.db, request.body.email);
      if (reset) {
        const link = resetPasswordUrl(config.publicUrl, reset.token);
        const greeting = reset.name ? `Hello ${reset.name},` : 'Hello,';
        await app.mailer.send({
          to: request.body.email,
          subject: 'Reset your Marketplace Back-office password',
          text: `${greeting}\n\nSomeone asked to reset the password of your Marketplace Back-office account.\nOpen this link within 30 minutes to choose a new one:\n\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
          html: `<p>${escapeHtml(greeting)}</p><p>Someone asked to reset the password of your Marketplace Back-office account. Open this link within 30 minutes to choose a new one:</p><p><a href="${link}">Reset my password</a></p><p>If it was not you, ignore this mail: your password stays as it is.</p>`,
        });
      }
      return { message: FORGOT_PASSWORD_ANSWER };
    },
  );

  api.post(
    '/reset-password',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset link token',
        body: resetPasswordBodySchema,
        response: { 200: messageSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      await resetPassword(app.db, request.body.token, request.body.password);
      return { message: 'Your password has been changed. Sign in with the new one.' };
    },
  );
}

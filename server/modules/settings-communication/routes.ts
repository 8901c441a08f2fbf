// Settings → Communication's own route (issue 29): "Send a test mail". Admins only (the marketplace's
// mail), with the settings' edit permission; limited per user, since each call makes the server talk to
// a mail server an admin typed in.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SETTINGS_ROUTE } from '../../../contracts/settings';
import type { Config } from '../../config';
import { users } from '../../db/schema';
import { errorResponses } from '../../lib/error-responses';
import { HttpError } from '../../lib/http-error';
import { requestLimit } from '../../plugins/rate-limits';
import { registerNotificationMail } from '../notifications/channels';
import { draftCommunication, sendTestMail, testMailBodySchema, testMailResultSchema } from './test-mail';

/** Test mails per admin in ten minutes. */
export const TEST_MAILS_PER_WINDOW = 10;

export async function communicationSettingsRoutes(
  app: FastifyInstance,
  options: { config: Pick<Config, 'SMTP_URL' | 'SMTP_ALLOW_PRIVATE_HOSTS' | 'dataDir' | 'publicUrl'> },
) {
  // Notifications the settings send by mail go out through this job.
  registerNotificationMail(app, options.config.publicUrl);
  const limit = requestLimit(app, {
    name: 'settings-test-mail',
    max: TEST_MAILS_PER_WINDOW,
    timeWindow: 10 * 60_000,
    key: (request) => request.user.id,
    message: 'Too many test mails. Please wait a few minutes and try again.',
  });
  app.withTypeProvider<ZodTypeProvider>().post(
    '/communication/test-mail',
    {
      config: { permission: { route: SETTINGS_ROUTE, action: 'edit' as const } },
      // After authentication: counted per admin, whatever address they come from.
      preHandler: limit,
      schema: {
        tags: ['settings'],
        summary:
          "Send a test mail to yourself with the communication settings (or the page's unsaved SMTP fields); answers the mail server's response",
        body: testMailBodySchema,
        response: { 200: testMailResultSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      if (request.user.role !== 'Admin')
        throw new HttpError(403, "Only an admin may test the marketplace's mail settings.");
      const [me] = await app.db
        .select({ email: users.email })
        .from(users)
        .where(eq(users.id, request.user.id));
      if (!me) throw new HttpError(404, 'Your account was not found.');
      const stored = (await app.settings.effective(null)).communication;
      return sendTestMail(
        {
          dataDir: options.config.dataDir,
          smtpUrl: options.config.SMTP_URL,
          allowPrivateHosts: options.config.SMTP_ALLOW_PRIVATE_HOSTS,
        },
        draftCommunication(stored, request.body ?? {}, app.settings.secrets),
        me.email,
        app.settings.secrets,
      );
    },
  );
}

// Which channels a notification takes (issue 29, Settings → Communication): the marketplace's
// `notificationChannels` map a recipient's role and the notification's type to in-app, mail, both or
// none. A mail is queued as a job in the notifying transaction (sent only if it commits, retried if the
// mail server is away) and sent through the one mailer, as the communication settings' sender.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { notificationChannels as channelNames } from '../../../contracts/settings';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { insertJob } from '../../jobs/queue';
import { type NotificationInput, setNotificationChannels } from '../../lib/notifications';
import { readEffectiveSettings } from '../settings/read';

export const NOTIFICATION_MAIL_JOB = 'notification.mail';

type Channel = (typeof channelNames)[number];

/** The channel the settings give a role for a type; unknown types of a role: in-app (nothing lost). */
export function channelFor(
  map: Record<string, Record<string, Channel>>,
  role: string,
  type: string,
): Channel {
  return map[role]?.[type] ?? 'in-app';
}

/** Queues the mail when the channel says so; answers whether the notification is stored in-app too. */
async function chooseChannels(db: Db | Tx, userId: string, input: NotificationInput): Promise<boolean> {
  if (!input.type) return true;
  const [user] = await db
    .select({ role: users.role, email: users.email, isActive: users.isActive })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return true;
  const settings = await readEffectiveSettings(db, null);
  const channel = channelFor(settings.communication.notificationChannels, user.role, input.type);
  if ((channel === 'mail' || channel === 'both') && user.isActive && user.email) {
    await insertJob(db, {
      kind: NOTIFICATION_MAIL_JOB,
      name: 'Notification mail',
      // A system job: its own outcome notifies nobody (else a mail would notify of a mail).
      ownerId: null,
      payload: { to: user.email, title: input.title, body: input.body ?? '', link: input.link ?? null },
    });
  }
  return channel === 'in-app' || channel === 'both';
}

setNotificationChannels(chooseChannels);

const payloadSchema = z.object({
  to: z.string(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
});

/** The notification mail's job: the title as subject, the body and an absolute link as text. */
export function registerNotificationMail(app: FastifyInstance, publicUrl: string): void {
  app.jobs.register(NOTIFICATION_MAIL_JOB, async ({ payload }) => {
    const mail = payloadSchema.parse(payload);
    const link = mail.link ? new URL(mail.link, publicUrl).toString() : null;
    await app.mailer.send({
      to: mail.to,
      subject: mail.title,
      text: [mail.body, link ? `Open: ${link}` : ''].filter(Boolean).join('\n\n'),
    });
    return {};
  });
}

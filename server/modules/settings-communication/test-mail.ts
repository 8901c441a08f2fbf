// "Send a test mail" (issue 29): one mail to the signed-in admin, as the communication settings (or the
// page's unsaved draft of them) would send it, answering what the mail server said: its response line
// ("250 2.0.0 Ok: queued") or its refusal ("EAUTH 535 5.7.8 Authentication failed"), or the outbox file.
// The draft's password is used, never echoed; without one the stored password is (opened only here, as
// the mailer does: the settings keep it sealed).
import path from 'node:path';
import { z } from 'zod';
import { type AllSettings, SECRET_SET, sectionFields } from '../../../contracts/settings';
import {
  type Delivery,
  type MailSetup,
  mailSetup,
  outboxDelivery,
  SmtpHostError,
  smtpDelivery,
} from '../../plugins/mail';
import { type SecretBox, SecretUnreadableError } from '../settings/secret-box';

const fields = sectionFields.communication;

/** The draft the page may send: any of the sender and SMTP fields, unsaved. */
export const testMailBodySchema = z
  .object({
    senderName: fields.senderName.schema,
    senderAddress: fields.senderAddress.schema,
    replyTo: fields.replyTo.schema,
    transport: fields.transport.schema,
    smtpHost: fields.smtpHost.schema,
    smtpPort: fields.smtpPort.schema,
    smtpSecure: fields.smtpSecure.schema,
    smtpUser: fields.smtpUser.schema,
    smtpPassword: fields.smtpPassword.schema,
  })
  .partial()
  .strict()
  .default({});
export type TestMailBody = z.infer<typeof testMailBodySchema>;

export const testMailResultSchema = z.object({
  ok: z.boolean(),
  /** The server's answer, or the outbox file, or why it failed. */
  message: z.string(),
  transport: z.enum(['outbox', 'smtp']),
});
export type TestMailResult = z.infer<typeof testMailResultSchema>;

/**
 * The effective communication settings with the draft on top (a masked password keeps the stored one),
 * as the store keeps them: the draft's password sealed like the stored one, both opened when used.
 */
export function draftCommunication(
  stored: AllSettings['communication'],
  draft: TestMailBody,
  secrets: Pick<SecretBox, 'seal'>,
): AllSettings['communication'] {
  const { smtpPassword, ...rest } = draft;
  const keepPassword = smtpPassword === undefined || smtpPassword === SECRET_SET;
  return {
    ...stored,
    ...rest,
    smtpPassword: keepPassword ? stored.smtpPassword : secrets.seal(smtpPassword),
  };
}

const UNREADABLE_PASSWORD =
  "The saved SMTP password cannot be decrypted with this server's key (was JWT_SECRET changed?): enter it again and save. Until then mail goes to the outbox.";

/** What an SMTP failure says, without the password (nodemailer never puts it in a message). */
function failureMessage(error: unknown): string {
  if (error instanceof SmtpHostError) return error.message;
  const failure = error as { code?: string; responseCode?: number; response?: string; message?: string };
  const response = failure.response?.trim();
  if (response) return `${failure.code ? `${failure.code} ` : ''}${response}`;
  if (failure.code === 'ECONNREFUSED') return 'ECONNREFUSED: the SMTP server refused the connection.';
  if (failure.code === 'ETIMEDOUT' || failure.code === 'ETIMEOUT')
    return `${failure.code}: the SMTP server did not answer in time.`;
  return `${failure.code ? `${failure.code}: ` : ''}${failure.message ?? 'The mail could not be sent.'}`;
}

export async function sendTestMail(
  deps: { dataDir: string; smtpUrl?: string; allowPrivateHosts: boolean },
  communication: AllSettings['communication'],
  to: string,
  secrets: Pick<SecretBox, 'open'>,
): Promise<TestMailResult> {
  let setup: MailSetup;
  try {
    setup = mailSetup(communication, deps.smtpUrl, secrets.open);
  } catch (error) {
    if (error instanceof SecretUnreadableError)
      return { ok: false, transport: 'smtp', message: UNREADABLE_PASSWORD };
    throw error;
  }
  // A delivery of its own, not the app's pool: the draft may differ from what is saved.
  const delivery: Delivery =
    setup.transport.kind === 'outbox'
      ? outboxDelivery(deps.dataDir)
      : smtpDelivery(setup.transport, { pool: false, allowPrivateHosts: deps.allowPrivateHosts });
  const mail = {
    to,
    subject: 'Test mail from your marketplace',
    text: [
      'This is a test mail sent from Settings → Communication.',
      '',
      `From: ${setup.from}`,
      `Reply-To: ${setup.replyTo || '(none)'}`,
      `Sent ${setup.transport.kind === 'smtp' ? 'over SMTP' : 'to the outbox'}.`,
    ].join('\n'),
  };
  try {
    const sent = await delivery.deliver(setup.from, setup.replyTo, mail);
    return {
      ok: true,
      transport: delivery.kind,
      message: sent.file
        ? `Written to the outbox: ${path.basename(sent.file)}`
        : (sent.response ?? 'The SMTP server accepted the mail.'),
    };
  } catch (error) {
    return { ok: false, transport: delivery.kind, message: failureMessage(error) };
  } finally {
    await delivery.close().catch(() => {});
  }
}

import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** `outbox` when mails are written as .eml files, `smtp` when sent. */
  kind: 'outbox' | 'smtp';
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * With SMTP_URL the mail goes out over SMTP. Without it each mail is written as a complete RFC 822
 * message to DATA_DIR/outbox/*.eml, which any mail client opens — real mail, no third party needed.
 */
/** The mail library is loaded with the first mail, not at start: an idle server does not hold it. */
function lazyTransport(create: (nodemailer: typeof import('nodemailer').default) => Transporter) {
  let transport: Promise<Transporter> | undefined;
  return () => {
    transport ??= import('nodemailer').then((module) => create(module.default));
    return transport;
  };
}

export function createMailer(options: { smtpUrl?: string; from: string; dataDir: string }): Mailer {
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    const transport = lazyTransport((nodemailer) => nodemailer.createTransport(smtpUrl));
    return {
      kind: 'smtp',
      send: async (mail) => void (await (await transport()).sendMail({ from: options.from, ...mail })),
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  // Written beside the outbox, then moved in: whoever watches the outbox (a mail client, a test) only
  // ever sees whole messages.
  const staging = path.join(options.dataDir, 'outbox-staging');
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await (await transport()).sendMail({ from: options.from, ...mail });
      await Promise.all([mkdir(outbox, { recursive: true }), mkdir(staging, { recursive: true })]);
      const slug = mail.subject
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .slice(0, 40);
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${slug}-${info.messageId.slice(1, 9)}.eml`;
      await writeFile(path.join(staging, name), info.message as Buffer);
      await rename(path.join(staging, name), path.join(outbox, name));
    },
  };
}

export const mailPlugin = fp(
  async (app: FastifyInstance, options: { mailer: Mailer }) => {
    app.decorate('mailer', options.mailer);
  },
  { name: 'mail' },
);

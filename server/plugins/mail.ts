import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Transporter } from 'nodemailer';
import { buildMimeMessage } from './mime';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * The Message-ID without angle brackets (`key@host`). A mail sent again after a crash carries the
   * same one, so receivers that dedupe by Message-ID see one mail. Default: a fresh one.
   */
  messageId?: string;
  /** Extra headers, e.g. List-Unsubscribe. Values must hold no line breaks. */
  headers?: Record<string, string>;
  /**
   * Makes the outbox idempotent: the mail is written as `<key>.eml`, so writing it again replaces the
   * same file instead of adding a second one. Letters, digits, `.`, `_` and `-` only.
   */
  key?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** `outbox` when mails are written as .eml files, `smtp` when sent. */
  kind: 'outbox' | 'smtp';
  /** Closes pooled SMTP connections (called when the app closes). */
  close?(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/**
 * SMTP connections kept open and shared by every send: a bulk mail reuses them instead of greeting the
 * server once per message. Several connections, so one slow delivery does not hold the others.
 */
export const SMTP_POOL = { maxConnections: 8, maxMessages: Number.POSITIVE_INFINITY };

const KEY_PATTERN = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * With SMTP_URL the mail goes out over SMTP. Without it each mail is written as a complete RFC 822
 * message to DATA_DIR/outbox/*.eml, which any mail client opens — real mail, no third party needed.
 */
/** The mail library is loaded with the first mail, not at start: an idle server does not hold it. */
function lazyTransport(create: (nodemailer: typeof import('nodemailer').default) => Transporter) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () => {
      transport ??= import('nodemailer').then((module) => create(module.default));
      return transport;
    },
    started: () => transport,
  };
}

/** The bare address of a `Name <address>` From header. */
export function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}

/**
 * A keyed mail (bulk mail) is written by the lean MIME writer (mime.ts): nodemailer's composer is the
 * bottleneck at campaign rates. Other mails (sign-in, invitations) keep nodemailer's composer.
 */
function keyedMessage(from: string, mail: Mail & { key: string }): string {
  if (!KEY_PATTERN.test(mail.key)) throw new Error(`bad mail key: ${mail.key}`);
  return buildMimeMessage({
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId ?? `${mail.key}@${addressOf(from).split('@')[1] ?? 'localhost'}`,
    headers: mail.headers,
  });
}

const isKeyed = (mail: Mail): mail is Mail & { key: string } => mail.key !== undefined;

function message(from: string, mail: Mail) {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html !== undefined ? { html: mail.html } : {}),
    ...(mail.messageId ? { messageId: `<${mail.messageId}>` } : {}),
    ...(mail.headers ? { headers: mail.headers } : {}),
  };
}

export function createMailer(options: { smtpUrl?: string; from: string; dataDir: string }): Mailer {
  if (options.smtpUrl) {
    const url = options.smtpUrl;
    const transport = lazyTransport((nodemailer) =>
      nodemailer.createTransport({ url, pool: true, ...SMTP_POOL } as Parameters<
        typeof nodemailer.createTransport
      >[0]),
    );
    const envelopeFrom = addressOf(options.from);
    return {
      kind: 'smtp',
      async send(mail) {
        const smtp = await transport.get();
        if (isKeyed(mail)) {
          // A prebuilt message: nodemailer only hands it over, on one of the pooled connections.
          await smtp.sendMail({
            envelope: { from: envelopeFrom, to: [mail.to] },
            raw: keyedMessage(options.from, mail),
          });
        } else await smtp.sendMail(message(options.from, mail));
      },
      async close() {
        (await transport.started())?.close();
      },
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  // Written beside the outbox, then moved in: whoever watches the outbox (a mail client, a test) only
  // ever sees whole messages, and a mail written again under its key replaces the file in one rename.
  const staging = path.join(options.dataDir, 'outbox-staging');
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    kind: 'outbox',
    async send(mail) {
      let content: string | Buffer;
      let name: string;
      if (isKeyed(mail)) {
        // Unix line ends, like every other outbox file (SMTP gets CRLF).
        content = keyedMessage(options.from, mail).replace(/\r\n/g, '\n');
        name = `${mail.key}.eml`;
      } else {
        const info = await (await transport.get()).sendMail(message(options.from, mail));
        content = info.message as Buffer;
        const slug = mail.subject
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .slice(0, 40);
        name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${slug}-${info.messageId.slice(1, 9)}.eml`;
      }
      await Promise.all([mkdir(outbox, { recursive: true }), mkdir(staging, { recursive: true })]);
      // A staging name of its own: two writes of one key never share a half-written file.
      const temporary = path.join(staging, `${randomUUID()}.tmp`);
      await writeFile(temporary, content);
      await rename(temporary, path.join(outbox, name));
    },
  };
}

export const mailPlugin = fp(
  async (app: FastifyInstance, options: { mailer: Mailer }) => {
    app.decorate('mailer', options.mailer);
    app.addHook('onClose', async () => options.mailer.close?.());
  },
  { name: 'mail' },
);

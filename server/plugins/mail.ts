import { randomUUID } from 'node:crypto';
import { promises as dns, type LookupAddress } from 'node:dns';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Transporter } from 'nodemailer';
import type { AllSettings } from '../../contracts/settings';
import { isPublicAddress } from '../lib/safe-fetch';
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
  /** Files sent with the mail (an invoice's PDF); such a mail is composed by nodemailer, keyed or not. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface Mailer {
  /** Sends (or writes) the mail; answers the SMTP server's response line or the outbox file. */
  send(mail: Mail): Promise<SentMail | undefined>;
  /**
   * The address every mail goes out from now: the Communication settings' sender once the mailer
   * follows them, MAIL_FROM's before. Campaigns' List-Unsubscribe mailto goes there.
   */
  senderAddress(): Promise<string>;
  /** `outbox` when mails are written as .eml files, `smtp` when sent. */
  readonly kind: 'outbox' | 'smtp';
  /** Closes pooled SMTP connections (called when the app closes). */
  close?(): Promise<void>;
  /** From now on, sender and transport follow the marketplace's communication settings. */
  follow?(settings: MailSettingsSource, log?: MailLog): void;
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

const isKeyed = (mail: Mail): mail is Mail & { key: string } =>
  mail.key !== undefined && !mail.attachments?.length;

function message(from: string, mail: Mail) {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html !== undefined ? { html: mail.html } : {}),
    ...(mail.messageId ? { messageId: `<${mail.messageId}>` } : {}),
    ...(mail.headers ? { headers: mail.headers } : {}),
    ...(mail.attachments?.length ? { attachments: mail.attachments } : {}),
  };
}

/** The SMTP server mail goes through: SMTP_URL, or the communication settings' fields. */
export type SmtpTarget =
  | { url: string }
  | { host: string; port: number; secure: boolean; user: string; password: string };

export type TransportSpec = { kind: 'outbox' } | ({ kind: 'smtp' } & SmtpTarget);

/** As whom and how every mail goes out. */
export interface MailSetup {
  /** `Name <address>`. */
  from: string;
  /** The bare address of `from`. */
  address: string;
  /** '' for none. */
  replyTo: string;
  transport: TransportSpec;
}

/** What the server answered for one mail: an SMTP server's response line, or the outbox file. */
export interface SentMail {
  response?: string;
  file?: string;
}

type Communication = AllSettings['communication'];

/** `Name <address>`, the name quoted when it holds characters that mean something in a header. */
export function mailbox(name: string, address: string): string {
  const clean = name.replace(/[\r\n]+/g, ' ').trim();
  if (!clean) return address;
  const quoted = /[()<>[\]:;@\\,."]/.test(clean) ? `"${clean.replace(/(["\\])/g, '\\$1')}"` : clean;
  return `${quoted} <${address}>`;
}

/** Opens a secret as the settings store keeps it (sealed: server/modules/settings/secret-box.ts). */
export type OpenSecret = (stored: string) => string;

/**
 * The setup the communication settings describe. SMTP_URL wins over the transport fields (an operator
 * configured it), never over the sender: the From and Reply-To are always the marketplace's. The SMTP
 * password comes as stored (sealed) and is opened only when these fields are the transport.
 */
export function mailSetup(
  communication: Communication,
  smtpUrl: string | undefined,
  open: OpenSecret,
): MailSetup {
  const transport: TransportSpec = smtpUrl
    ? { kind: 'smtp', url: smtpUrl }
    : communication.transport === 'smtp'
      ? {
          kind: 'smtp',
          host: communication.smtpHost,
          port: communication.smtpPort,
          secure: communication.smtpSecure,
          user: communication.smtpUser,
          password: open(communication.smtpPassword),
        }
      : { kind: 'outbox' };
  return {
    from: mailbox(communication.senderName, communication.senderAddress),
    address: communication.senderAddress,
    replyTo: communication.replyTo,
    transport,
  };
}

/** nodemailer's options for an SMTP target; `pinnedAddress` connects there (a vetted IP) instead. */
export function smtpOptions(target: SmtpTarget, extra: { pool: boolean; pinnedAddress?: string }) {
  const common = extra.pool
    ? { pool: true, ...SMTP_POOL }
    : { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000 };
  if ('url' in target) return { url: target.url, ...common };
  return {
    host: extra.pinnedAddress ?? target.host,
    port: target.port,
    secure: target.secure,
    ...(target.user ? { auth: { user: target.user, pass: target.password } } : {}),
    // The certificate is checked against the name the admin gave, whatever address it resolved to.
    tls: { servername: target.host },
    ...common,
  };
}

/** One way of delivering mail: the outbox, or one SMTP server (its pool). */
export interface Delivery {
  kind: 'outbox' | 'smtp';
  deliver(from: string, replyTo: string, mail: Mail): Promise<SentMail>;
  close(): Promise<void>;
}

function withReplyTo(mail: Mail, replyTo: string): Mail {
  return replyTo ? { ...mail, headers: { 'Reply-To': replyTo, ...mail.headers } } : mail;
}

/** An SMTP host the server refuses to contact, or that does not resolve: `message` is for the admin. */
export class SmtpHostError extends Error {
  override name = 'SmtpHostError';
}

/**
 * The address to connect to for an SMTP host an admin typed (SSRF, as server/lib/safe-fetch.ts judges
 * URLs): every address the name resolves to must be public unless private hosts are allowed
 * (SMTP_ALLOW_PRIVATE_HOSTS: a relay on the same network; tests), and the connection goes to the vetted
 * address, so a DNS answer that changes in between cannot move it.
 */
export async function vetSmtpHost(
  host: string,
  options: { allowPrivate?: boolean; lookup?: (host: string) => Promise<LookupAddress[]> } = {},
): Promise<string> {
  const name = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (!name) throw new SmtpHostError('Enter the SMTP server’s host name.');
  let answers: LookupAddress[];
  try {
    answers = isIP(name)
      ? [{ address: name, family: isIP(name) }]
      : await (options.lookup ?? ((hostname) => dns.lookup(hostname, { all: true })))(name);
  } catch {
    throw new SmtpHostError(`The SMTP server ${name} was not found (DNS).`);
  }
  const first = answers[0];
  if (!first) throw new SmtpHostError(`The SMTP server ${name} was not found (DNS).`);
  if (
    !options.allowPrivate &&
    answers.some((answer) => !isPublicAddress(answer.address, answer.family === 6 ? 6 : 4))
  )
    throw new SmtpHostError(
      `The SMTP server ${name} is on a private or local network address, which the server does not contact.`,
    );
  return first.address;
}

export function smtpDelivery(
  target: SmtpTarget,
  options: { pool: boolean; allowPrivateHosts?: boolean },
): Delivery {
  let transport: Promise<Transporter> | undefined;
  const get = () => {
    transport ??= (async () => {
      const nodemailer = (await import('nodemailer')).default;
      // SMTP_URL is the operator's own: trusted. A host from the settings is vetted first.
      const pinnedAddress =
        'url' in target
          ? undefined
          : await vetSmtpHost(target.host, { allowPrivate: options.allowPrivateHosts });
      return nodemailer.createTransport(
        smtpOptions(target, { pool: options.pool, pinnedAddress }) as Parameters<
          typeof nodemailer.createTransport
        >[0],
      );
    })();
    // A refusal (DNS down, a bad host) is not kept: the next mail tries again.
    transport.catch(() => {
      transport = undefined;
    });
    return transport;
  };
  return {
    kind: 'smtp',
    async deliver(from, replyTo, original) {
      const mail = withReplyTo(original, replyTo);
      const smtp = await get();
      // A prebuilt message: nodemailer only hands it over, on one of the pooled connections.
      const info = isKeyed(mail)
        ? await smtp.sendMail({
            envelope: { from: addressOf(from), to: [mail.to] },
            raw: keyedMessage(from, mail),
          })
        : await smtp.sendMail(message(from, mail));
      return { response: (info as { response?: string }).response };
    },
    async close() {
      (await transport?.catch(() => undefined))?.close();
    },
  };
}

export function outboxDelivery(dataDir: string): Delivery {
  const outbox = path.join(dataDir, 'outbox');
  // Written beside the outbox, then moved in: whoever watches the outbox (a mail client, a test) only
  // ever sees whole messages, and a mail written again under its key replaces the file in one rename.
  const staging = path.join(dataDir, 'outbox-staging');
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    kind: 'outbox',
    async deliver(from, replyTo, original) {
      const mail = withReplyTo(original, replyTo);
      let content: string | Buffer;
      let name: string;
      if (isKeyed(mail)) {
        // Unix line ends, like every other outbox file (SMTP gets CRLF).
        content = keyedMessage(from, mail).replace(/\r\n/g, '\n');
        name = `${mail.key}.eml`;
      } else {
        const info = await (await transport.get()).sendMail(message(from, mail));
        content = info.message as Buffer;
        const slug = mail.subject
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .slice(0, 40);
        name =
          mail.key && KEY_PATTERN.test(mail.key)
            ? `${mail.key}.eml`
            : `${new Date().toISOString().replace(/[:.]/g, '-')}-${slug}-${info.messageId.slice(1, 9)}.eml`;
      }
      await Promise.all([mkdir(outbox, { recursive: true }), mkdir(staging, { recursive: true })]);
      // A staging name of its own: two writes of one key never share a half-written file.
      const temporary = path.join(staging, `${randomUUID()}.tmp`);
      await writeFile(temporary, content);
      const file = path.join(outbox, name);
      await rename(temporary, file);
      return { file };
    },
    async close() {},
  };
}

/** Where the settings come from: `app.settings` (server/modules/settings/cache.ts). */
export interface MailSettingsSource {
  effective(sellerId: null): Promise<AllSettings>;
  onChange(listener: (sellerId: string | null) => void): () => void;
  secrets: { open: OpenSecret };
}

/** Where the mailer reports a setup it cannot use (the app's logger). */
export type MailLog = { error(details: object, message: string): void };

/**
 * The setup of the saved settings. A saved SMTP password this server's key cannot open (JWT_SECRET
 * changed) is logged, and mail goes to the outbox as the saved sender until an admin enters the password
 * again: mails are kept as files, not lost or refused one by one with a 535, and the server keeps running.
 */
export function followedSetup(
  communication: Communication,
  open: OpenSecret,
  smtpUrl: string | undefined,
  log?: MailLog,
): MailSetup {
  try {
    return mailSetup(communication, smtpUrl, open);
  } catch (error) {
    log?.error(
      { err: error },
      'The saved SMTP password cannot be opened: mail goes to the outbox until it is entered again in Settings → Communication',
    );
    return mailSetup({ ...communication, transport: 'outbox' }, smtpUrl, open);
  }
}

/** Same transport, same delivery (the key holds the password: it stays in memory, never logged). */
const transportKey = (spec: TransportSpec) => JSON.stringify(spec);

/**
 * The product's mailer: over SMTP, or each mail written as a complete RFC 822 message to
 * DATA_DIR/outbox/*.eml, which any mail client opens — real mail, no third party needed.
 * Until it follows the settings (`follow`, wired by the mail plugin when the app
 * has them) it sends as MAIL_FROM over SMTP_URL or to the outbox. Following them, every mail's From
 * and Reply-To are the marketplace's communication settings, and the transport follows them too: a
 * change builds the new SMTP pool and closes the old one once its mails in flight are done.
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  /** SMTP_ALLOW_PRIVATE_HOSTS: the settings' SMTP host may be private or loopback. */
  allowPrivateHosts?: boolean;
}): Mailer {
  let stopFollowing: (() => void) | undefined;
  const fixed: MailSetup = {
    from: options.from,
    address: addressOf(options.from),
    replyTo: '',
    transport: options.smtpUrl ? { kind: 'smtp', url: options.smtpUrl } : { kind: 'outbox' },
  };
  const build = (spec: TransportSpec) =>
    spec.kind === 'outbox'
      ? outboxDelivery(options.dataDir)
      : smtpDelivery(spec, { pool: true, allowPrivateHosts: options.allowPrivateHosts });
  let current = {
    key: transportKey(fixed.transport),
    delivery: build(fixed.transport),
    inFlight: new Set<Promise<unknown>>(),
  };

  const retire = (old: typeof current) => {
    void Promise.allSettled([...old.inFlight]).then(() => old.delivery.close());
  };
  // The setup is read when the settings change, not per mail: a mail sent inside a transaction (an
  // invitation) must not wait for a second database connection, which PGlite does not have.
  let setup: Promise<MailSetup> = Promise.resolve(fixed);
  const read = (source: MailSettingsSource, log?: MailLog) => {
    const next = source
      .effective(null)
      .then(({ communication }) => followedSetup(communication, source.secrets.open, options.smtpUrl, log));
    // A failed read keeps the last setup that worked.
    const previous = setup;
    setup = next.catch(() => previous);
    return setup;
  };
  const deliveryFor = (spec: TransportSpec) => {
    const key = transportKey(spec);
    if (key !== current.key) {
      retire(current);
      current = { key, delivery: build(spec), inFlight: new Set() };
    }
    return current;
  };

  return {
    get kind() {
      return current.delivery.kind;
    },
    async senderAddress() {
      return (await setup).address;
    },
    async send(mail) {
      const { from, replyTo, transport } = await setup;
      const target = deliveryFor(transport);
      const sending = target.delivery.deliver(from, replyTo, mail);
      target.inFlight.add(sending);
      try {
        return await sending;
      } finally {
        target.inFlight.delete(sending);
      }
    },
    follow(source, log) {
      stopFollowing?.();
      // The marketplace's change (null) may be the transport's: rebuild it now, not at the next mail.
      stopFollowing = source.onChange((sellerId) => {
        if (sellerId !== null) return;
        void read(source, log).then(({ transport }) => deliveryFor(transport));
      });
      void read(source, log);
    },
    async close() {
      stopFollowing?.();
      await Promise.allSettled([...current.inFlight]);
      await current.delivery.close();
    },
  };
}

export const mailPlugin = fp(
  async (app: FastifyInstance, options: { mailer: Mailer }) => {
    app.decorate('mailer', options.mailer);
    // The settings store registers after the mailer; by the time the app is ready it is there.
    app.addHook('onReady', async () => {
      // Looked up by name: the mail plugin does not depend on the settings module (tests build apps
      // without it).
      const settings = (app as unknown as { settings?: MailSettingsSource }).settings;
      if (settings) options.mailer.follow?.(settings, app.log);
    });
    app.addHook('onClose', async () => options.mailer.close?.());
  },
  { name: 'mail' },
);

import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { iceServerSchema } from '../contracts/video-calls';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const PROXY_KEYWORDS = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: whose X-Forwarded-For to believe. Off by default: anyone can write that header, and
 * believing it would let a client pick the address the abuse limits count. Set it to the load
 * balancer's addresses (IPs or CIDRs, comma-separated; or loopback / linklocal / uniquelocal), or to
 * the number of proxy hops in front of the server.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): false | number | string[] => {
    if (value === '' || value === 'false') return false;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    for (const entry of entries) {
      const [address, bits] = entry.split('/');
      const ok =
        PROXY_KEYWORDS.includes(entry) ||
        (isIP(address ?? '') !== 0 && (bits === undefined || /^\d{1,3}$/.test(bits)));
      if (!ok) {
        context.addIssue({
          code: 'custom',
          message: `"${entry}" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal (or use a number of hops, or false)`,
        });
        return z.NEVER;
      }
    }
    return entries;
  });

/**
 * ICE_SERVERS: the STUN/TURN servers of video calls, as a JSON array of RTCIceServer
 * (`[{"urls":"turns:turn.example.com:443?transport=tcp","username":"u","credential":"p"}]`). None by
 * default: two browsers on one machine or one LAN connect without them.
 */
const iceServers = z
  .string()
  .trim()
  .transform((value, context) => {
    if (value === '') return [];
    try {
      return JSON.parse(value) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'ICE_SERVERS must be a JSON array of ICE servers' });
      return z.NEVER;
    }
  })
  .pipe(z.array(iceServerSchema).max(10));

/** S3 file storage: S3_BUCKET turns it on, and then these must be set too (the rest have defaults). */
export const S3_REQUIRED_VARIABLES = [
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
] as const;
const S3_VARIABLES = [...S3_REQUIRED_VARIABLES, 'S3_ENDPOINT', 'S3_FORCE_PATH_STYLE'] as const;

export const TWILIO_VARIABLES = [
  'TWILIO_ACCOUNT_SID',
  'TWILIO_API_KEY',
  'TWILIO_API_SECRET',
  'TWILIO_TWIML_APP_SID',
] as const;

/**
 * Every environment variable the server reads, validated once at start. The README's configuration
 * table mirrors this schema; a bad value stops the start with a message naming the variable.
 */
const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z.string().url().optional(),
    /** PostgreSQL: prepare the statements a connection repeats (off behind a transaction pooler). */
    DATABASE_PREPARED_STATEMENTS: bool.default(true),
    PUBLIC_URL: z.string().url().optional(),
    SEED_DEMO: bool.default(true),
    JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
    ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(900).default(900),
    REFRESH_TOKEN_TTL: z.coerce
      .number()
      .int()
      .min(60)
      .default(7 * 24 * 3600),
    SMTP_URL: z.string().url().optional(),
    /** The SMTP host set in the settings may be private or loopback (a relay on the same network). */
    SMTP_ALLOW_PRIVATE_HOSTS: bool.default(false),
    MAIL_FROM: z.string().default('Marketplace Back-office <no-reply@marketplace.local>'),
    MAIL_LINK_SECRET: z.string().min(32, 'MAIL_LINK_SECRET must be at least 32 characters').optional(),
    MQTT_URL: z.string().url().optional(),
    MQTT_WS_URL: z.string().url().optional(),
    MQTT_TOPIC_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/)
      .default('mp'),
    /**
     * The keepalive browsers' broker clients use (SPEC §9: 120 s). The broker drops a client silent for
     * 1.5 times this; shorter values let a test watch the PINGREQs go out.
     */
    MQTT_KEEPALIVE_SECONDS: z.coerce.number().int().min(2).max(3600).default(120),
    /**
     * The secret an external broker sends to ask /api/v1/broker/auth and /acl (EMQX HTTP auth, or
     * mosquitto-go-auth). Unset: those endpoints do not exist (404).
     */
    BROKER_HTTP_SECRET: z.string().min(32, 'BROKER_HTTP_SECRET must be at least 32 characters').optional(),
    REDIS_URL: z.string().url().optional(),
    /** How long a background job stays claimed without its worker's heartbeat (a crashed worker's job waits this long). */
    JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    CALL_SERVICE_ENABLED: bool.default(true),
    /**
     * Test-only routes under /api/v1/test-hooks (the e2e suite moves the follow-up clock with them).
     * Never set this in production: the hooks need no sign-in.
     */
    E2E_TEST_HOOKS: bool.default(false),
    ICE_SERVERS: iceServers.default([]),
    /**
     * TURN_SECRET: coturn's `static-auth-secret` (use-auth-secret). With it, every TURN entry of
     * ICE_SERVERS without a username gets short-lived credentials per user (the TURN REST API scheme).
     */
    TURN_SECRET: z.string().min(16, 'TURN_SECRET must be at least 16 characters').optional(),
    TURN_CREDENTIAL_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
    /** Twilio voice (all four or none; none: the embedded local provider). */
    TWILIO_ACCOUNT_SID: z.string().trim().min(1).optional(),
    TWILIO_API_KEY: z.string().trim().min(1).optional(),
    TWILIO_API_SECRET: z.string().trim().min(1).optional(),
    TWILIO_TWIML_APP_SID: z.string().trim().min(1).optional(),
    /**
     * File storage in an S3-compatible bucket (every instance shares it); none: files under DATA_DIR.
     * S3_ENDPOINT is for stores other than AWS (MinIO, Ceph, s3rver); S3_FORCE_PATH_STYLE for those that
     * do not serve buckets as subdomains.
     */
    S3_ENDPOINT: z.string().url().optional(),
    S3_BUCKET: z.string().trim().min(1).optional(),
    S3_REGION: z.string().trim().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().trim().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().trim().min(1).optional(),
    S3_FORCE_PATH_STYLE: bool.optional(),
    /** Downloads answer with a 302 to a 5-minute presigned link instead of streaming through the app. */
    S3_PRESIGNED_DOWNLOADS: bool.default(false),
    TRUST_PROXY: trustProxy.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    STATIC_DIR: z.string().default('./dist'),
  })
  .superRefine((env, context) => {
    // Half a Twilio set would silently fall back to the local provider: refuse it instead.
    const missing = TWILIO_VARIABLES.filter((name) => !env[name]);
    if (missing.length > 0 && missing.length < TWILIO_VARIABLES.length) {
      context.addIssue({
        code: 'custom',
        path: [missing[0] as string],
        message: `set all of ${TWILIO_VARIABLES.join(', ')} for Twilio voice, or none for the local provider (missing: ${missing.join(', ')})`,
      });
    }
    // S3 half set would quietly keep files on one machine's disk: refuse it instead.
    const s3Set = S3_VARIABLES.filter((name) => env[name] !== undefined);
    const s3Missing = S3_REQUIRED_VARIABLES.filter((name) => env[name] === undefined);
    if (s3Set.length > 0 && s3Missing.length > 0) {
      context.addIssue({
        code: 'custom',
        path: [s3Missing[0] as string],
        message: `set all of ${S3_REQUIRED_VARIABLES.join(', ')} (and S3_ENDPOINT for a store other than AWS) for S3 file storage, or none to keep files under DATA_DIR (missing: ${s3Missing.join(', ')})`,
      });
    }
    if (env.S3_PRESIGNED_DOWNLOADS && !env.S3_BUCKET) {
      context.addIssue({
        code: 'custom',
        path: ['S3_PRESIGNED_DOWNLOADS'],
        message: 'presigned downloads need S3 file storage (S3_BUCKET and the other S3_* variables)',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  dataDir: string;
  staticDir: string;
  publicUrl: string;
  cookieSecure: boolean;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const config = parsed.data;
  const publicUrl = (config.PUBLIC_URL ?? `http://${config.HOST}:${config.PORT}`).replace(/\/$/, '');
  return {
    ...config,
    dataDir: path.resolve(config.DATA_DIR),
    staticDir: path.resolve(config.STATIC_DIR),
    publicUrl,
    // Behind https the refresh cookie must be Secure; on plain http localhost browsers would drop it.
    cookieSecure: publicUrl.startsWith('https://'),
  };
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUCTIONS_API } from '../contracts/auctions';
import { INVOICES_API } from '../contracts/invoices';
import { ORDERS_API } from '../contracts/orders';
import { PURCHASE_ORDERS_API, SUPPLIERS_API } from '../contracts/purchase-orders';
import { isPublicPath } from '../contracts/routes';
import { STOCK_API } from '../contracts/stock';
import type { Config } from './config';
import type { Database } from './db/client';
import { type JobsOptions, jobsPlugin } from './jobs/plugin';
import { taskRoutes } from './jobs/routes';
import { serializerCompiler } from './lib/compiled-serializer';
import { HttpError } from './lib/http-error';
import { serializeError } from './lib/log-errors';
import { type FileStorage, storagePlugin } from './lib/storage';
import { attributesModule } from './modules/attributes';
import { createAuctionLinks } from './modules/auctions/bidders';
import { auctionRoutes } from './modules/auctions/routes';
import { authRoutes } from './modules/auth/routes';
import { createSessionGate } from './modules/auth/sessions';
import type { SignInLimits } from './modules/auth/sign-in-limits';
import { createTokenService } from './modules/auth/tokens';
import { brokerAccessRoutes } from './modules/broker-access/routes';
import { callHistoryRoutes } from './modules/call-history/routes';
import { campaignRoutes } from './modules/campaigns/routes';
import { categoryRoutes } from './modules/categories/routes';
import { configRoutes } from './modules/configs/routes';
import { contactHistoryAlias, contactRoutes } from './modules/contacts/routes';
import { customerRoutes } from './modules/customers/routes';
import { dashboardRoutes } from './modules/dashboard/routes';
import { createFormTokens } from './modules/enquiry/form-token';
import { type EnquiryLimits, enquiryRoutes } from './modules/enquiry/routes';
import { enquirySink } from './modules/enquiry/sink';
import { exportRoutes } from './modules/exports/routes';
import { readsAllChats } from './modules/help-chats/inbox-access';
import { helpChatRoutes } from './modules/help-chats/routes';
import type { WidgetLimits } from './modules/help-chats/widget-routes';
import { importRoutes } from './modules/imports/routes';
import { invoiceRoutes } from './modules/invoices/routes';
import { createMailLinks, type MailLinks, mailLinkSecret } from './modules/mail-links/links';
import { mailLinkRoutes } from './modules/mail-links/routes';
import { mailTemplateRoutes } from './modules/mail-templates/routes';
import { mediaModule } from './modules/media';
import { notificationRoutes } from './modules/notifications/routes';
import { notificationsPlugin } from './modules/notifications/service';
import { offerRoutes } from './modules/offers/routes';
import { orderRoutes } from './modules/orders/routes';
import { createPermissionCache } from './modules/permissions/cache';
import { productsModule } from './modules/products';
import { purchaseOrderRoutes, supplierRoutes } from './modules/purchase-orders/routes';
import { queryRoutes, queryTestHooks } from './modules/queries/routes';
import { savedViewRoutes } from './modules/saved-views/routes';
import { sellerDashboardRoutes } from './modules/seller-dashboard/routes';
import { sellerFileRoutes } from './modules/sellers/files';
import { sellerListingRoutes } from './modules/sellers/listing-routes';
import { sellerRoutes } from './modules/sellers/routes';
import { createSettingsService } from './modules/settings/cache';
import { settingsRoutes } from './modules/settings/routes';
import { createSettingsSecretBox, sealStoredSecrets } from './modules/settings/stored-secrets';
import { mailFieldsFromEnvironment } from './modules/settings-communication/environment';
import { communicationSettingsRoutes } from './modules/settings-communication/routes';
import { companyLogoRoutes } from './modules/settings-company/logo-routes';
import { pageTextsRoutes } from './modules/settings-content/page-texts-routes';
import { createEmbedOrigins } from './modules/settings-website/embed-origins';
import { staffRoutes } from './modules/staff/routes';
import { stockRoutes } from './modules/stock/routes';
import { subscriptionRoutes } from './modules/subscriptions/routes';
import { tagRoutes } from './modules/tags/routes';
import { userRecordRoutes } from './modules/users/record-routes';
import { usersRoutes } from './modules/users/routes';
import { videoCallsPlugin } from './modules/video-calls/plugin';
import { VIDEO_CALLS_PREFIX, videoCallRoutes } from './modules/video-calls/routes';
import type { VideoCallOptions } from './modules/video-calls/signalling';
import { voicePlugin } from './modules/voice/plugin';
import { voiceRoutes } from './modules/voice/routes';
import { twilioCredentials } from './modules/voice/twilio-token';
import { documentTransform, routeTransform } from './openapi/document';
import { authPlugin } from './plugins/auth';
import { blockedSellerGuard } from './plugins/blocked-seller';
import { dbPlugin } from './plugins/db';
import { errorsPlugin, frameworkErrors } from './plugins/errors';
import { inputGuard } from './plugins/input-guard';
import { createMailer, type Mailer, mailPlugin } from './plugins/mail';
import { rateLimitsPlugin } from './plugins/rate-limits';
import { securityHeaders } from './plugins/security-headers';
import { brokerPlugin } from './realtime/broker';
import type { BrokerLimits } from './realtime/embedded-broker';
import { signallingPlugin } from './realtime/signalling';

declare module 'fastify' {
  interface FastifyInstance {
    /** Signed /unsubscribe and /responseCollection links for the mails features send. */
    mailLinks: MailLinks;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** The file storage; default: the one the configuration names (S3_* or DATA_DIR). */
  storage?: FileStorage;
  /** The background job worker; tests turn it off or make it poll and retry faster. */
  jobs?: JobsOptions;
  /** Video calls' timings and limits; tests shorten the ring and the rejoin grace. */
  videoCalls?: VideoCallOptions;
  /** Abuse limits: tests give each app its own Redis key space and may tighten the sign-in limits. */
  rateLimits?: {
    namespace?: string;
    signIn?: SignInLimits;
    widget?: Partial<WidgetLimits>;
    enquiry?: Partial<EnquiryLimits>;
    broker?: Partial<BrokerLimits>;
  };
}

/** Secrets must never reach the log: strip tokens from URLs (reset links) and never log headers. */
function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|access_token|password|broker_secret)=)[^&]*/gi, '$1[redacted]');
}

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    serializers: {
      // Failed queries are logged with their statement and reason, never their parameters.
      err: serializeError,
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        ip: req.ip,
      }),
    },
  };
}

/**
 * Builds the whole server without listening: external plugins, then app plugins, then routes (the
 * fastify/demo order). Tests call this with an in-memory database and use `app.inject`.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: 256 * 1024,
    frameworkErrors,
    // Forwarded headers only from the configured proxies (TRUST_PROXY): a client must not choose the
    // address its rate limits count.
    trustProxy:
      typeof config.TRUST_PROXY === 'number'
        ? (_address: string, hop: number) => hop < (config.TRUST_PROXY as number)
        : config.TRUST_PROXY,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API speaks JSON (and multipart where a route says so): plain text bodies get a clear 415.
  app.removeContentTypeParser('text/plain');

  await app.register(fastifyCookie);
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Marketplace Back-office API',
        description:
          'Every route validates its input with the zod schemas shown here. Errors are `{ message, code }`.',
        version: '1.0.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: routeTransform,
    transformObject: documentTransform(config.publicUrl),
  });
  // Under the app's own CSP (security-headers.ts): the UI's assets are local, and the online validator
  // badge (an image from validator.swagger.io) is off.
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { validatorUrl: null } });

  await app.register(errorsPlugin);
  await app.register(inputGuard);
  await app.register(securityHeaders, {
    https: config.cookieSecure,
    // Settings → Website: read at request time (app.embedOrigins is decorated below, with the settings).
    frameAncestors: (sellerCode: string) => app.embedOrigins.forSellerCode(sellerCode),
  });
  await app.register(dbPlugin, { database });
  // Before everything that reads settings (mail, security headers, the bot): one cache per instance.
  // Secrets in the settings are sealed with a key derived from the token-signing key (secret-box.ts);
  // ones stored before sealing existed are sealed now. A failure there must not stop the server: they
  // still read as they are, and the next save of their section seals them.
  const settingsSecrets = await createSettingsSecretBox(database.db, config.JWT_SECRET);
  await sealStoredSecrets(database.db, settingsSecrets).catch((error) =>
    app.log.error({ err: error }, 'Could not seal the settings secrets stored before sealing'),
  );
  const settingsService = await createSettingsService(database, { secrets: settingsSecrets });
  app.decorate('settings', settingsService);
  app.addHook('onClose', async () => settingsService.close());
  app.decorate('embedOrigins', createEmbedOrigins(app));
  // Before the modules: they store and serve files through app.storage. S3 must answer to start.
  await app.register(storagePlugin, { config, storage: options.storage });
  await app.register(mailPlugin, {
    mailer:
      options.mailer ??
      createMailer({
        smtpUrl: config.SMTP_URL,
        from: config.MAIL_FROM,
        dataDir: config.dataDir,
        allowPrivateHosts: config.SMTP_ALLOW_PRIVATE_HOSTS,
      }),
  });
  await app.register(rateLimitsPlugin, {
    redisUrl: config.REDIS_URL,
    namespace: options.rateLimits?.namespace,
  });
  const sessions = await createSessionGate(database);
  const tokens = await createTokenService(database.db, {
    secret: config.JWT_SECRET,
    ttlSeconds: config.ACCESS_TOKEN_TTL,
    sessions,
  });
  const permissionCache = await createPermissionCache(database);
  app.decorate('permissionCache', permissionCache);
  app.addHook('onClose', async () => permissionCache.close());
  await app.register(authPlugin, {
    tokens,
    sessions,
    permissionsOf: (user) => permissionCache.permissionsOf(user),
  });
  // An auction's public page watches its topic with the auction's signed link (issue 32).
  const auctionLinks = createAuctionLinks(
    await mailLinkSecret(database.db, config.MAIL_LINK_SECRET),
    config.publicUrl,
  );
  const watchAuction = (token: string) => auctionLinks.read(token);
  await app.register(brokerPlugin, {
    watchAuction,
    tokens,
    prefix: config.MQTT_TOPIC_PREFIX,
    externalUrl: config.MQTT_URL,
    readsAllChats: (user) => readsAllChats(database.db, user),
    limits: options.rateLimits?.broker,
    redisUrl: config.REDIS_URL,
    // Test apps sharing one Redis keep apart, as their rate limits do (test-support.ts).
    redisNamespace: options.rateLimits?.namespace && `${options.rateLimits.namespace}broker:`,
  });
  await app.register(signallingPlugin, { tokens, redisUrl: config.REDIS_URL });
  await app.register(voicePlugin, { config });
  // After auth: it needs the verified user, and a missing permission still answers FORBIDDEN first.
  await app.register(blockedSellerGuard);
  await app.register(notificationsPlugin);
  // Beside voice calls, after notifications: a missed video call leaves one.
  await app.register(videoCallsPlugin, options.videoCalls ?? {});
  await app.register(jobsPlugin, { ...options.jobs, leaseSeconds: config.JOB_LEASE_SECONDS });

  // Anyone may ask whether the server is up; what it runs on is for admins only (it tells an attacker
  // which software to aim at).
  app.get(
    '/api/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Liveness; with an admin token, also what the server runs on',
        response: {
          200: z.object({
            status: z.literal('ok'),
            db: z.enum(['pglite', 'postgres']).optional(),
            broker: z.enum(['embedded', 'external']).optional(),
            /** The embedded broker clustered over Redis: degraded while Redis does not answer. */
            brokerCluster: z.enum(['ok', 'degraded']).optional(),
          }),
        },
      },
    },
    async (request) => {
      const token = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
      const user = token ? await app.tokens.verify(token).catch(() => null) : null;
      if (user?.role !== 'Admin') return { status: 'ok' as const };
      const brokerCluster = app.broker.clusterState?.();
      return {
        status: 'ok' as const,
        db: database.kind,
        broker: app.broker.kind,
        ...(brokerCluster ? { brokerCluster } : {}),
      };
    },
  );

  // Later features put these links in the mails they send (app.mailLinks.unsubscribeUrl(…)).
  app.decorate(
    'mailLinks',
    createMailLinks(await mailLinkSecret(database.db, config.MAIL_LINK_SECRET), config.publicUrl),
  );

  await app.register(authRoutes, {
    prefix: '/api/v1/auth',
    config,
    signInLimits: options.rateLimits?.signIn,
  });
  await app.register(usersRoutes, { prefix: '/api/v1/users' });
  await app.register(userRecordRoutes, { prefix: '/api/v1/users', config });
  // SPEC §7 names listCustomers and searchCustomers under users; they live in their own module.
  await app.register(customerRoutes, { prefix: '/api/v1/users' });
  await app.register(staffRoutes, { prefix: '/api/v1/staff', config });
  await app.register(categoryRoutes, { prefix: '/api/v1/categories' });
  await app.register(productsModule, { prefix: '/api/v1/stagingProducts', dataDir: config.dataDir });
  await app.register(mediaModule, { prefix: '/api/v1/stagingProducts', dataDir: config.dataDir });
  await app.register(attributesModule, { prefix: '/api/v1/attributes' });
  await app.register(importRoutes, { prefix: '/api/v1/imports', dataDir: config.dataDir });
  await app.register(tagRoutes, { prefix: '/api/v1/tags', dataDir: config.dataDir });
  await app.register(savedViewRoutes, { prefix: '/api/v1/savedViews' });
  await app.register(contactRoutes, { prefix: '/api/v1/contacts', dataDir: config.dataDir });
  await app.register(contactHistoryAlias, { prefix: '/api/v1/helperQuery/method' });
  await app.register(queryRoutes, {
    prefix: '/api/v1/helperQuery',
    callsReachAnyNumber: twilioCredentials(config) !== null,
    links: {
      secret: await mailLinkSecret(database.db, config.MAIL_LINK_SECRET),
      publicUrl: config.publicUrl,
    },
  });
  if (config.E2E_TEST_HOOKS) await app.register(queryTestHooks, { prefix: '/api/v1/test-hooks' });
  await app.register(offerRoutes, {
    prefix: '/api/v1/offers',
    publicUrl: config.publicUrl,
    mailLinkSecret: config.MAIL_LINK_SECRET,
  });
  await app.register(auctionRoutes, {
    prefix: AUCTIONS_API,
    publicUrl: config.publicUrl,
    links: auctionLinks,
  });
  await app.register(stockRoutes, { prefix: STOCK_API });
  await app.register(orderRoutes, { prefix: ORDERS_API, dataDir: config.dataDir });
  await app.register(invoiceRoutes, { prefix: INVOICES_API, dataDir: config.dataDir });
  await app.register(purchaseOrderRoutes, { prefix: PURCHASE_ORDERS_API });
  await app.register(supplierRoutes, { prefix: SUPPLIERS_API });
  await app.register(mailTemplateRoutes, { prefix: '/api/v1/mailTemplates' });
  await app.register(campaignRoutes, { prefix: '/api/v1/campaigns', config });
  await app.register(configRoutes, { prefix: '/api/v1/globalConfigs', config });
  await app.register(settingsRoutes, {
    prefix: '/api/v1/settings',
    topicPrefix: config.MQTT_TOPIC_PREFIX,
    environmentFields: { communication: mailFieldsFromEnvironment(config) },
  });
  await app.register(companyLogoRoutes, { prefix: '/api/v1/settings' });
  await app.register(communicationSettingsRoutes, { prefix: '/api/v1/settings', config });
  await app.register(dashboardRoutes, { prefix: '/api/v1/dashboard' });
  await app.register(sellerRoutes, { prefix: '/api/v1/sellers' });
  await app.register(sellerListingRoutes, { prefix: '/api/v1/sellers' });
  await app.register(sellerFileRoutes);
  await app.register(sellerDashboardRoutes, { prefix: '/api/v1/sellers' });
  await app.register(subscriptionRoutes, { prefix: '/api/v1/subscriptionManager' });
  await app.register(mailLinkRoutes, { prefix: '/api/v1/helperQuery/method', links: app.mailLinks });
  await app.register(pageTextsRoutes, { prefix: '/api/v1/helperQuery/method' });
  await app.register(notificationRoutes, { prefix: '/api/v1/localEventMessage' });
  await app.register(taskRoutes, { prefix: '/api/v1/tasks' });
  await app.register(exportRoutes, { prefix: '/api/v1/exports', dataDir: config.dataDir });
  await app.register(helpChatRoutes, {
    prefix: '/api/v1/queryBot',
    widgetLimits: options.rateLimits?.widget,
  });
  // The public enquiry form: its token is signed with a key derived from the mail links' secret.
  await app.register(enquiryRoutes, {
    prefix: '/api/v1/enquiry',
    tokens: createFormTokens(await mailLinkSecret(database.db, config.MAIL_LINK_SECRET)),
    sink: enquirySink,
    limits: options.rateLimits?.enquiry,
  });
  await app.register(voiceRoutes, { prefix: '/api/v1/voice', config, voiceTokens: app.voiceTokens });
  await app.register(callHistoryRoutes, { prefix: '/api/v1/callHistory/method' });
  // An external broker's authentication and ACL questions; without the secret the paths do not exist.
  if (config.BROKER_HTTP_SECRET) {
    await app.register(brokerAccessRoutes, {
      prefix: '/api/v1/broker',
      secret: config.BROKER_HTTP_SECRET,
      topicPrefix: config.MQTT_TOPIC_PREFIX,
      readsAllChats: (user) => readsAllChats(database.db, user),
      watchAuction,
    });
  }
  await app.register(videoCallRoutes, { prefix: VIDEO_CALLS_PREFIX });

  await registerSpa(app, config.staticDir);
  return app;
}

/**
 * Serves the built SPA with history fallback: any GET (or HEAD, which must answer like GET without the
 * body: link checkers and uptime probes use it) that is not an API or a file gets index.html.
 */
async function registerSpa(app: FastifyInstance, staticDir: string) {
  const indexHtml = path.join(staticDir, 'index.html');
  const hasSpa = existsSync(indexHtml);
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: true,
      index: ['index.html'],
      setHeaders(reply, filePath) {
        // Hashed assets never change; index.html must always be revalidated to pick up new releases.
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        else reply.header('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/');
    const pathname = request.url.split('?')[0] ?? '';
    // A public page's parameter may end like a file name (an offer link's token has dots in it).
    const isFile = !isPublicPath(pathname) && /\.[a-z0-9]+$/i.test(pathname);
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (isApi || isFile || !isRead || !hasSpa) {
      // The path is not echoed: it is whatever the client sent, however long.
      throw new HttpError(404, isApi ? 'No such API route.' : 'Not found', 'NOT_FOUND');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}

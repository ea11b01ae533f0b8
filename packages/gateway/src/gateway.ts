import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { GatewayConfig } from "./config/config.js";
import { type Core, openCore } from "./core.js";
import type { AuditTrail } from "./domain/audit/trail.js";
import { EventStreams } from "./domain/events/streams.js";
import { OrderService } from "./domain/orders/service.js";
import type { PartnerAdmin } from "./domain/partners/admin.js";
import type { PartnerDirectory } from "./domain/partners/directory.js";
import { RequestLog } from "./domain/partners/request-log.js";
import type { TenantAdmin } from "./domain/tenants/admin.js";
import type { UserAdmin } from "./domain/users/accounts.js";
import type { TeamService } from "./domain/users/team.js";
import { TwoFactorService } from "./domain/users/two-factor.js";
import type { VocabularyService } from "./domain/vocabulary/service.js";
import type { WebhookEndpoints } from "./domain/webhooks/endpoint-admin.js";
import { DELIVERED_PAYLOAD_SCHEMAS } from "./domain/webhooks/event-payload.js";
import { WebhookWorker } from "./domain/webhooks/worker.js";
import { buildApp } from "./http/app.js";
import { consoleRoutes } from "./http/console.js";
import { installCors } from "./http/cors.js";
import { healthRoutes } from "./http/health.js";
import { createLogger } from "./http/logger.js";
import { ClientRateLimiter } from "./http/rate-limit.js";
import { Readiness } from "./http/readiness.js";
import { webhooksDocument } from "./http/reference/webhooks.js";
import type { Clock } from "./lib/clock.js";
import { observeRedis, observeShares, observeStore } from "./observability/metrics.js";
import { SignedRequestAuthenticator } from "./partner-api/authenticate.js";
import { partnerEventRoutes } from "./partner-api/event-routes.js";
import { verifyLoginProof } from "./partner-api/login-proof.js";
import { orderRoutes } from "./partner-api/order-routes.js";
import { ReplayGuard } from "./partner-api/replay-guard.js";
import { requestLogRoutes } from "./partner-api/request-log-routes.js";
import { SessionService } from "./partner-api/sessions.js";
import { authRoutes } from "./partner-api/token-routes.js";
import { partnerWebhookRoutes } from "./partner-api/webhook-routes.js";
import { FairHashQueue } from "./security/fair-hash-queue.js";
import { LoginThrottle } from "./security/login-throttle.js";
import type { RateCounter } from "./security/rate-counter.js";
import { createRateCounter, RedisRateCounter } from "./security/redis-rate-counter.js";
import { ScryptThreads } from "./security/scrypt-threads.js";
import type { Shares } from "./security/shares.js";
import type { SigningKeyRing } from "./security/signing-keys.js";
import { TokenService } from "./security/tokens.js";
import { schedulePurge } from "./store/purge.js";
import type { Store } from "./store/store.js";
import { tenantAuditRoutes } from "./tenant-api/audit-routes.js";
import { UserAuthenticator } from "./tenant-api/authenticate.js";
import { consoleSessionRoutes } from "./tenant-api/console-session-routes.js";
import { ConsoleSessions } from "./tenant-api/console-sessions.js";
import { crossSiteGuard } from "./tenant-api/cross-site.js";
import { tenantEventRoutes } from "./tenant-api/event-routes.js";
import { tenantOrderBulkRoutes } from "./tenant-api/order-bulk-routes.js";
import { tenantOrderExportRoutes } from "./tenant-api/order-export-routes.js";
import { tenantOrderRoutes } from "./tenant-api/order-routes.js";
import { tenantOverviewRoutes } from "./tenant-api/overview-routes.js";
import { tenantPartnerRoutes } from "./tenant-api/partner-routes.js";
import { profileRoutes, userAuthRoutes } from "./tenant-api/session-routes.js";
import { UserSessionService } from "./tenant-api/sessions.js";
import { passwordLinkRoutes, tenantTeamRoutes } from "./tenant-api/team-routes.js";
import { tenantTeamSessionRoutes } from "./tenant-api/team-session-routes.js";
import { twoFactorRoutes } from "./tenant-api/two-factor-routes.js";
import { UserTokens } from "./tenant-api/user-tokens.js";
import { tenantRoutes } from "./tenant-api/vocabulary-routes.js";
import { tenantWebhookRoutes } from "./tenant-api/webhook-routes.js";

export interface GatewayOptions {
  config: GatewayConfig;
  /** An already open store; otherwise config.databaseUrl is opened (and closed with the gateway). */
  store?: Store;
  now?: Clock;
  logger?: Logger;
}

/** The services of one gateway process, wired together; `app` is ready to listen or inject. */
export interface Gateway {
  app: FastifyInstance;
  config: GatewayConfig;
  store: Store;
  now: Clock;
  partners: PartnerAdmin;
  tenants: TenantAdmin;
  users: UserAdmin;
  vocabulary: VocabularyService;
  userTokens: UserTokens;
  signingKeys: SigningKeyRing;
  tokens: TokenService;
  authenticator: SignedRequestAuthenticator;
  orders: OrderService;
  /** Partners' webhook endpoints (the tenant API's and the CLI's operations). */
  webhooks: WebhookEndpoints;
  /** Partners' refused requests (GET /api/v1/request-log), written in batches. */
  requestLog: RequestLog;
  /** Delivers webhooks while the app listens (started by listen, stopped by close). */
  webhookWorker: WebhookWorker;
  /** The live event streams this process holds (partner and tenant). */
  streams: EventStreams;
  /** The tenants' teams: invites, roles, disabling, set-password links. */
  team: TeamService;
  /** Audited changes: logged and kept for the tenant's Activity page (domain/audit/). */
  audit: AuditTrail;
  /** Every password check of this process (user sign-in) runs through this. */
  hashing: FairHashQueue;
  /** `/ready`'s answer while the process is up; `leave()` starts the drain's first phase. */
  readiness: Readiness;
  /** Every shared resource's budgets per instance, tenant and party (config/shares.ts). */
  shares: Shares;
  close(): Promise<void>;
}

export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const logger =
    options.logger ??
    createLogger(options.config.logLevel, undefined, options.config.observability.instanceId);
  // One counter for the rate limits and the rated shares (Redis when configured).
  const rateCounter = createRateCounter(options.config.redisUrl);
  let core: Core;
  try {
    core = await openCore(options.config, { ...options, rateCounter, log: logger });
  } catch (error) {
    await rateCounter.close();
    throw error;
  }
  try {
    return await wireGateway(options, core, logger, rateCounter);
  } catch (error) {
    // A start that fails after the store opened must not leave it (and the process) alive.
    await rateCounter.close();
    if (!options.store) await core.store.close();
    throw error;
  }
}

async function wireGateway(
  options: GatewayOptions,
  core: Core,
  logger: Logger,
  rateCounter: RateCounter,
): Promise<Gateway> {
  const { config } = options;
  const { now, store, master, signingKeys, directory, partners, tenants, users, vocabulary } = core;
  const { webhooks, audit, team, shares } = core;
  const tokens = new TokenService(signingKeys, config.jwt, now);
  const throttle = new LoginThrottle(store.tenants, master.secretPepper, now, config.loginThrottle);
  const sessions = new SessionService(store, tokens, master.secretPepper, now, throttle, directory);
  const authenticator = new SignedRequestAuthenticator(
    tokens,
    directory,
    config.signature,
    now,
    new ReplayGuard(store.tenants, config.signature.maxSkewSeconds),
    shares,
  );
  const orders = new OrderService(store, now, config.lists);
  const userTokens = new UserTokens(
    signingKeys,
    { ...config.jwt, audience: config.users.audience },
    now,
  );
  const hashing = new FairHashQueue({
    concurrency: config.hashing.concurrency,
    maxQueue: config.hashing.queue,
    reserved: config.hashing.reserved,
    perSource: config.hashing.perSource,
    perAccount: config.hashing.perAccount,
  });
  // Flood hashes (addresses with failures) at nice 10; the others at normal priority.
  const lowPriorityThreads = new ScryptThreads(config.hashing.concurrency);
  const scryptThreads = new ScryptThreads(config.hashing.concurrency + config.hashing.reserved, 0);
  const userSessions = new UserSessionService(
    store.tenants,
    userTokens,
    throttle,
    config.users.scryptCost,
    now,
    hashing,
    (priority) => (priority < 2 ? scryptThreads.scrypt : lowPriorityThreads.scrypt),
    (userId, at) => store.team.recordSignIn(userId, at),
  );
  const consoleSessions = new ConsoleSessions(store.consoleSessions, store.tenants, now);
  const twoFactor = new TwoFactorService(
    store.twoFactor,
    master.twoFactorSecretKey,
    master.secretPepper,
    throttle,
    now,
  );
  const userAuthenticator = new UserAuthenticator(
    userTokens,
    store.tenants,
    shares,
    consoleSessions,
    twoFactor,
  );
  const readiness = new Readiness();

  observeRedis(rateCounter instanceof RedisRateCounter ? () => rateCounter.ready : undefined);
  observeShares(() => shares.heldNow());
  const unobserveStore = observeStore(store);
  const rateLimiter = new ClientRateLimiter(rateCounter, {
    orders: { max: config.rateLimit.ordersMax, windowMs: config.rateLimit.windowSeconds * 1000 },
    login: { max: config.rateLimit.loginMax, windowMs: config.rateLimit.windowSeconds * 1000 },
  });

  const requestLog = new RequestLog(store.requestLog, now, logger);
  const webhookWorker = new WebhookWorker(
    store,
    master.webhookSecretKey,
    config.webhooks,
    now,
    logger,
    audit,
    shares,
  );

  const streams = new EventStreams(store, config.events, now, logger, shares);
  vocabulary.onChanged(streams.announceVocabulary);

  const api: ApiDeps = {
    config,
    store,
    now,
    directory,
    partners,
    vocabulary,
    webhooks,
    audit,
    team,
    sessions,
    signingKeys,
    rateLimiter,
    orders,
    authenticator,
    requestLog,
    streams,
    userSessions,
    userAuthenticator,
    consoleSessions,
    twoFactor,
    shares,
  };
  const app = await buildApp({
    logger,
    beforeDrain: () => streams.closeAll(),
    bodyLimitBytes: config.bodyLimitBytes,
    drainMs: config.drainSeconds * 1000,
    requestTimeoutMs: config.requestTimeoutMs,
    trustProxy: config.trustProxy,
    webhooks: webhooksDocument(DELIVERED_PAYLOAD_SCHEMAS),
    routes: async (instance) => {
      instance.decorate("auditTrail", audit);
      // Delivery runs in processes that serve (not in the admin CLI's, nor under inject).
      instance.addHook("onListen", async () => webhookWorker.start());
      instance.addHook("onClose", async () => webhookWorker.stop());
      instance.addHook("onClose", async () => streams.stop());
      await installCors(instance, config.corsOrigins);
      instance.addHook("onRequest", crossSiteGuard(config.corsOrigins));
      if (config.consoleDir) await instance.register(consoleRoutes, { root: config.consoleDir });
      await instance.register(healthRoutes, { store, readiness });
      await registerPartnerApi(instance, api);
      await registerTenantApi(instance, api);
    },
  });

  const purge = schedulePurge(store, config.retention, now, logger);

  return {
    app,
    config,
    store,
    now,
    partners,
    tenants,
    users,
    vocabulary,
    signingKeys,
    tokens,
    userTokens,
    authenticator,
    orders,
    webhooks,
    requestLog,
    webhookWorker,
    audit,
    team,
    streams,
    hashing,
    readiness,
    shares,
    async close() {
      await app.close();
      await requestLog.flush();
      unobserveStore();
      await purge.stop();
      await rateLimiter.close();
      await Promise.all([scryptThreads.close(), lowPriorityThreads.close()]);
      if (!options.store) await store.close();
    },
  };
}

/**
 * A user sign-in's deadline as a multiple of GATEWAY_REQUEST_TIMEOUT_MS: its password check
 * (~0.3 s of one core at the shipped cost) can take several seconds on a busy 2-core machine,
 * and the queue in front of it already refuses what it cannot start soon (login_busy).
 */
const SIGN_IN_TIMEOUT_FACTOR = 3;

/** What the two API surfaces' routes are built from. */
interface ApiDeps {
  config: GatewayConfig;
  store: Store;
  now: Clock;
  directory: PartnerDirectory;
  partners: PartnerAdmin;
  vocabulary: VocabularyService;
  webhooks: WebhookEndpoints;
  audit: AuditTrail;
  team: TeamService;
  sessions: SessionService;
  signingKeys: SigningKeyRing;
  rateLimiter: ClientRateLimiter;
  orders: OrderService;
  authenticator: SignedRequestAuthenticator;
  requestLog: RequestLog;
  streams: EventStreams;
  userSessions: UserSessionService;
  userAuthenticator: UserAuthenticator;
  consoleSessions: ConsoleSessions;
  twoFactor: TwoFactorService;
  shares: Shares;
}

/** The partner API (/api/v1/…): partners' systems, with partner tokens and signed requests. */
async function registerPartnerApi(instance: FastifyInstance, api: ApiDeps): Promise<void> {
  const { config, store, now, directory, webhooks, sessions, signingKeys, rateLimiter } = api;
  const { orders, authenticator, requestLog, streams } = api;
  await instance.register(authRoutes, {
    sessions,
    signingKeys,
    rateLimiter,
    jwksMaxAgeSeconds: config.jwksMaxAgeSeconds,
    proveLogin: (headers, clientId) =>
      verifyLoginProof(headers, clientId, directory, config.signature.maxSkewSeconds, now),
  });
  await instance.register(orderRoutes, { orders, authenticator, rateLimiter, requestLog });
  await instance.register(partnerWebhookRoutes, {
    webhooks,
    partnerTenant: (partnerId) => store.tenants.partnerTenant(partnerId),
    authenticator,
    rateLimiter,
    requestLog,
  });
  await instance.register(requestLogRoutes, { requestLog, authenticator, rateLimiter });
  await instance.register(partnerEventRoutes, {
    streams,
    authenticator,
    tenantOf: (partnerId) => store.tenants.partnerTenant(partnerId),
  });
}

/** The tenant API (/v1/…): tenant users, with user tokens. */
async function registerTenantApi(instance: FastifyInstance, api: ApiDeps): Promise<void> {
  const { config, store, now, partners, vocabulary, webhooks, audit, team, rateLimiter } = api;
  const { orders, streams, userSessions, userAuthenticator, consoleSessions, twoFactor } = api;
  await instance.register(userAuthRoutes, {
    sessions: userSessions,
    twoFactor,
    users: store.tenants,
    rateLimiter,
    signInTimeoutMs: config.requestTimeoutMs * SIGN_IN_TIMEOUT_FACTOR,
  });
  await instance.register(consoleSessionRoutes, {
    sessions: userSessions,
    consoleSessions,
    twoFactor,
    users: store.tenants,
    rateLimiter,
    signInTimeoutMs: config.requestTimeoutMs * SIGN_IN_TIMEOUT_FACTOR,
  });
  await instance.register(profileRoutes, {
    authenticator: userAuthenticator,
    store: store.tenants,
    team,
    languages: config.users.languages,
    now,
  });
  await instance.register(tenantRoutes, { vocabulary, authenticator: userAuthenticator });
  await instance.register(tenantOrderRoutes, { orders, authenticator: userAuthenticator });
  await instance.register(tenantOverviewRoutes, {
    store: store.tenants,
    now,
    authenticator: userAuthenticator,
  });
  await instance.register(tenantOrderBulkRoutes, { orders, authenticator: userAuthenticator });
  await instance.register(tenantOrderExportRoutes, {
    orders,
    authenticator: userAuthenticator,
  });
  await instance.register(tenantPartnerRoutes, { partners, authenticator: userAuthenticator });
  await instance.register(tenantWebhookRoutes, { webhooks, authenticator: userAuthenticator });
  await instance.register(tenantAuditRoutes, { audit, authenticator: userAuthenticator });
  await instance.register(tenantEventRoutes, { streams, authenticator: userAuthenticator });
  await instance.register(tenantTeamRoutes, {
    team,
    authenticator: userAuthenticator,
    consoleSessions,
  });
  await instance.register(tenantTeamSessionRoutes, {
    team,
    consoleSessions,
    authenticator: userAuthenticator,
  });
  await instance.register(passwordLinkRoutes, { team, rateLimiter, consoleSessions });
  await instance.register(twoFactorRoutes, {
    twoFactor,
    authenticator: userAuthenticator,
    users: store.tenants,
  });
}

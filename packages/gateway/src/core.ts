/**
 * The gateway without HTTP: the store, the master keys and the services over them, wired once.
 * The HTTP gateway (gateway.ts) builds on it, and the admin CLI uses it alone, so an admin
 * command loads neither Fastify nor the routes.
 */
import { type GatewayConfig, masterKeyFile } from "./config/config.js";
import { AuditTrail } from "./domain/audit/trail.js";
import { PartnerAdmin } from "./domain/partners/admin.js";
import { PartnerDirectory } from "./domain/partners/directory.js";
import { TenantAdmin } from "./domain/tenants/admin.js";
import { UserAdmin } from "./domain/users/accounts.js";
import { smtpMailer } from "./domain/users/mail.js";
import { TeamService } from "./domain/users/team.js";
import { VocabularyService } from "./domain/vocabulary/service.js";
import { WebhookEndpoints } from "./domain/webhooks/endpoint-admin.js";
import { type Clock, systemClock } from "./lib/clock.js";
import { probedStore } from "./observability/store-probe.js";
import { deriveMasterKeys, loadOrCreateMasterKey } from "./security/master-key.js";
import { MemoryRateCounter, type RateCounter } from "./security/rate-counter.js";
import { Shares } from "./security/shares.js";
import { SigningKeyRing } from "./security/signing-keys.js";
import { openStore } from "./store/open.js";
import type { Store } from "./store/store.js";

/**
 * Store, master keys and the services that need nothing from HTTP (also what the admin CLI uses).
 * With `create: false` a missing store or master key is an error instead of a new one.
 */
export async function openCore(
  config: GatewayConfig,
  options: {
    store?: Store;
    now?: Clock;
    create?: boolean;
    /** Where rated shares count (Redis for N instances); this process alone by default. */
    rateCounter?: RateCounter;
    log?: { warn(object: object, message: string): void };
  } = {},
) {
  const now = options.now ?? systemClock;
  const create = options.create ?? true;
  const store = probedStore(
    options.store ??
      (await openStore(config.databaseUrl, {
        synchronous: config.sqliteSynchronous,
        poolMax: config.pgPoolMax,
        statementTimeoutMs: config.pgStatementTimeoutMs,
        connectTimeoutMs: config.pgConnectTimeoutMs,
        pgPooler: config.pgPooler,
        migrationLockWaitSeconds: config.pgMigrationLockWaitSeconds,
        onMigrationLockWait: (message) => process.stderr.write(`orderline-gateway: ${message}\n`),
        readerThreads: { size: config.lists.concurrency, nice: config.lists.nice },
        create,
      })),
  );
  let master: ReturnType<typeof deriveMasterKeys>;
  let signingKeys: SigningKeyRing;
  try {
    master = deriveMasterKeys(
      loadOrCreateMasterKey(config.masterKey, masterKeyFile(config), create),
    );
    signingKeys = new SigningKeyRing(
      store,
      master.keyEncryptionKey,
      now,
      (config.jwt.ttlSeconds + config.jwt.refreshGraceSeconds) * 1000,
      config.jwksMaxAgeSeconds * 1000,
    );
    await signingKeys.init();
  } catch (error) {
    // A store opened here must not outlive the failed start (its writer thread would keep the
    // process alive).
    if (!options.store) await store.close();
    throw error;
  }
  const shares = new Shares(
    config.shares,
    options.rateCounter ?? new MemoryRateCounter(),
    options.log ?? { warn: () => {} },
    now,
  );
  const directory = new PartnerDirectory(store, now, config.partnerCacheMs);
  const partners = new PartnerAdmin(store, master.secretPepper, now, directory, shares);
  const tenants = new TenantAdmin(store.tenants, now);
  const users = new UserAdmin(store.tenants, config.users, now);
  const vocabulary = new VocabularyService(store.tenants, config.users.languages, now, shares);
  const webhooks = new WebhookEndpoints(
    store,
    master.webhookSecretKey,
    config.webhooks,
    now,
    shares,
  );
  const audit = new AuditTrail(store.audit, now);
  const team = new TeamService(
    store,
    config.team,
    config.users,
    now,
    config.team.smtpUrl === undefined
      ? undefined
      : smtpMailer(config.team.smtpUrl, config.team.mailFrom),
    shares,
  );
  return {
    shares,
    team,
    audit,
    now,
    store,
    master,
    signingKeys,
    directory,
    partners,
    tenants,
    users,
    vocabulary,
    webhooks,
  };
}

/** What openCore opens: the store and the services that need nothing from HTTP. */
export type Core = Awaited<ReturnType<typeof openCore>>;

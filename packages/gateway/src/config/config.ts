import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, hostname } from "node:os";
import { dirname, join, resolve } from "node:path";
import { isPostgresUrl, redactedUrl } from "../lib/database-url.js";
import { corsOriginsFrom } from "./cors-origins.js";
import { parseMasterKey } from "./master-key-text.js";
import {
  ConfigError,
  invalidSetting,
  type Settings,
  unknownSettingWarnings,
  validatedSettings,
} from "./schema.js";
import { type ShareBudgets, shareBudgetsFrom } from "./shares.js";

/** Which private webhook addresses an operator allows (GATEWAY_WEBHOOK_ALLOW_PRIVATE). */
export type PrivateAddressPolicy = "none" | "loopback" | "all";

export { ConfigError, unknownSettingWarnings };

/**
 * How long the sign-in throttle (users/login-throttle.ts) remembers a failure; its rows are
 * useless after that. Here, below both, so the configuration needs nothing from the throttle.
 */
export const RESET_AFTER_MS = 60 * 60 * 1000;
const THROTTLE_MEMORY_SECONDS = RESET_AFTER_MS / 1000;

/** Everything the gateway can be told, with the defaults a single-machine install uses. */
export interface GatewayConfig {
  host: string;
  port: number;
  /** `sqlite:<path>` or a plain file path (embedded store), or `postgres://…` (PostgreSQL). */
  databaseUrl: string;
  /** Directory for the master key and demo files; defaults to the database's directory. */
  dataDir: string;
  /** GATEWAY_MASTER_KEY's bytes; when unset, `<dataDir>/master.key` is read or generated. */
  masterKey: Buffer | undefined;
  logLevel: string;
  jwt: {
    issuer: string;
    audience: string;
    /** Access token lifetime; the seed fixes it at 12 hours. */
    ttlSeconds: number;
    /** How long after expiry a token may still be refreshed. */
    refreshGraceSeconds: number;
    /** Maximum age of a refresh chain, counted from the original login. */
    sessionMaxSeconds: number;
  };
  signature: {
    /** Allowed difference between X-TIMESTAMP and server time, either way. */
    maxSkewSeconds: number;
  };
  /** How long a partner's status, secret version and keys are cached in one process. */
  partnerCacheMs: number;
  /** The tenant API (`/v1/…`): tenant users' tokens, passwords and languages. */
  users: UsersConfig;
  bodyLimitBytes: number;
  /**
   * SQLite commit durability. `full` (default): fsync on every commit, nothing acknowledged is
   * lost even on power failure. `normal`: survives a process crash, may lose the last commits on
   * power loss. Only for storage that makes writes durable by itself.
   */
  sqliteSynchronous: SqliteSynchronous;
  /** PostgreSQL connections per gateway process. */
  pgPoolMax: number;
  /** REDIS_URL: rate-limit windows shared by every instance; unset, each process counts alone. */
  redisUrl: string | undefined;
  /**
   * Fixed-window limits; a max of 0 turns that limit off. `ordersMax` counts per client_id,
   * `loginMax` login attempts (partner and user, right or wrong) per source address.
   */
  rateLimit: { windowSeconds: number; ordersMax: number; loginMax: number };
  /** GATEWAY_CORS_ORIGINS: origins whose browsers may call `/v1`; empty (default) allows none. */
  corsOrigins: string[];
  /**
   * GATEWAY_CONSOLE_DIR: the built tenant console served at `/console/`. Default: the `dist` of
   * the `@orderline/console` package installed beside the gateway (in the workspace,
   * `apps/console/dist`) when it exists; `off` serves none.
   */
  consoleDir: string | undefined;
  /** After SIGTERM, how long open connections are answered 503 before the listener closes. */
  drainSeconds: number;
  /**
   * After SIGTERM and before the drain: how long `/ready` answers 503 while every other request
   * is still served, so load balancers take the instance out before it refuses anything.
   */
  drainReadySeconds: number;
  /** Cache-Control max-age of the JWKS; a new signing key is published this long before it signs. */
  jwksMaxAgeSeconds: number;
  /** GATEWAY_INSTANCES: gateway processes sharing the PostgreSQL server (for the pool check). */
  instances: number;
  /** PostgreSQL: longest statement, and longest wait for a connection (store-faults). */
  pgStatementTimeoutMs: number;
  pgConnectTimeoutMs: number;
  /** GATEWAY_PG_POOLER: what sits between the gateway and PostgreSQL (store/postgres/pool.ts). */
  pgPooler: PgPooler;
  /** GATEWAY_PG_MIGRATION_LOCK_WAIT_SECONDS: how long migrate waits for another session's lock. */
  pgMigrationLockWaitSeconds: number;
  /** Longest a request may take before it is answered 503. */
  requestTimeoutMs: number;
  /** After SIGTERM, the process ends within this, whatever the store does. */
  shutdownTimeoutSeconds: number;
  /** How long bookkeeping rows are kept (store/purge.ts); orders themselves are never purged. */
  retention: RetentionConfig;
  /**
   * GATEWAY_TRUST_PROXY: which peers may set X-Forwarded-For, i.e. where the source address of a
   * request comes from. false: the socket's peer. A hop count, or addresses/CIDRs of the proxies.
   */
  trustProxy: false | number | string[];
  /** Failed logins allowed before the throttle locks (see auth/login-throttle.ts). */
  loginThrottle: LoginThrottleConfig;
  /** Password hashing (scrypt) in flight and waiting at once; beyond both, logins get 503. */
  hashing: {
    concurrency: number;
    queue: number;
    /** Hashing threads beyond `concurrency` kept for addresses without failures. */
    reserved: number;
    perSource: number;
    perAccount: number;
  };
  /** Order listings' reads at once and how long one waits for a slot; beyond it 503 list_busy. */
  lists: { concurrency: number; maxWaitMs: number; nice: number };
  /** Webhook delivery (webhooks/): where to, how long to retry, when to give up on an endpoint. */
  webhooks: WebhooksConfig;
  /** Each shared resource's budget per instance, tenant and party (config/shares.ts). */
  shares: ShareBudgets;
  /** Live event streams (domain/events/): the partner's and the tenant console's. */
  events: EventsConfig;
  /** Team management: set-password links and the mail that carries them. */
  team: TeamConfig;
  /** Prometheus metrics and the instance id in log lines (docs/deploy.md#observability). */
  observability: ObservabilityConfig;
}

export interface ObservabilityConfig {
  /** GATEWAY_INSTANCE_ID: names this process in every log line; default `<host>:<pid>`. */
  instanceId: string;
  /**
   * GATEWAY_METRICS_LISTEN: `host:port` of the separate `/metrics` listener (default
   * 127.0.0.1:9464, not the API's port); `off` serves none.
   */
  metricsListen: { host: string; port: number } | undefined;
  /** GATEWAY_METRICS_TOKEN: when set, scrapes must send `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
}

/** GATEWAY_METRICS_LISTEN: `off`, `port`, `host:port` or `[v6]:port`. */
export function metricsListenFrom(raw: string | undefined): ObservabilityConfig["metricsListen"] {
  const value = (raw ?? "").trim();
  if (value.toLowerCase() === "off") return undefined;
  if (value === "") return { host: "127.0.0.1", port: DEFAULTS.metricsPort };
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s]+)):(\d{1,5})$|^(\d{1,5})$/.exec(value);
  const port = Number(match?.[3] ?? match?.[4]);
  if (!match || port > 65535)
    throw new ConfigError(
      `GATEWAY_METRICS_LISTEN must be off, a port or host:port (e.g. 127.0.0.1:9464), got '${raw}'`,
    );
  return { host: match[1] ?? match[2] ?? "127.0.0.1", port };
}

export interface EventsConfig {
  /** GATEWAY_EVENTS_HEARTBEAT_SECONDS: a comment line this often keeps proxies from closing. */
  heartbeatSeconds: number;
  /** GATEWAY_EVENTS_POLL_MS: how often the outbox is read while streams are open. */
  pollMs: number;
  /** A stream ends after this long; the client reconnects with Last-Event-ID (fresh token). */
  maxStreamSeconds: number;
  /** How long a seq gap in the outbox holds streams back (domain/events/cursor.ts). */
  settleMs: number;
  /** How often an open stream's credentials are checked again (a disabled user's ends). */
  recheckMs: number;
}

export interface WebhooksConfig {
  /** GATEWAY_WEBHOOK_ALLOW_PRIVATE: which non-public addresses receivers may have. */
  allowPrivate: PrivateAddressPolicy;
  /** One delivery attempt, connecting to the last response byte. */
  timeoutMs: number;
  /** How long a delivery is retried after its event was queued (default 3 days). */
  retryWindowSeconds: number;
  /** An endpoint whose deliveries have failed for this long, without a success, is disabled. */
  disableAfterSeconds: number;
  /** Backoff: the wait before retry n is about base × 2^(n−1), at most max, with jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How often each instance looks for due deliveries when idle; 0 turns delivery off. */
  pollMs: number;
  /** How long a claimed delivery is this instance's (3 × timeout); then another may take it. */
  leaseMs: number;
  /** How long a rotated-out secret keeps signing deliveries beside the new one. */
  secretGraceSeconds: number;
}

export interface TeamConfig {
  /** How long an invite or reset link can be used (once). */
  passwordLinkTtlSeconds: number;
  /** GATEWAY_SMTP_URL: where mail goes; unset, no mail is sent (admins copy the links). */
  smtpUrl: string | undefined;
  /** The From of that mail. */
  mailFrom: string;
  /** GATEWAY_PUBLIC_URL: the console's address, the base of links in mail. */
  publicUrl: string | undefined;
}

function teamFrom(s: Settings): TeamConfig {
  // A link in mail must point where the operator says, never where a request's Host says.
  if (s.GATEWAY_SMTP_URL !== undefined && s.GATEWAY_PUBLIC_URL === undefined)
    throw new ConfigError(
      "GATEWAY_SMTP_URL needs GATEWAY_PUBLIC_URL (the console's public URL) for the links in mail.",
    );
  return {
    passwordLinkTtlSeconds: s.GATEWAY_PASSWORD_LINK_TTL_SECONDS,
    smtpUrl: s.GATEWAY_SMTP_URL,
    mailFrom: s.GATEWAY_MAIL_FROM ?? "Orderline <no-reply@localhost>",
    publicUrl: s.GATEWAY_PUBLIC_URL?.replace(/\/+$/, ""),
  };
}

export interface LoginThrottleConfig {
  /** Free failures for one account (client_id or email) from one source address. */
  perAccountAndAddress: number;
  /** Free failures from one source address, whatever the account. */
  perAddress: number;
  /** Free failures for one account from all addresses together: a high ceiling only. */
  perAccount: number;
}

export interface RetentionConfig {
  /** How long an Idempotency-Key is honoured (replays its order), from the order's creation. */
  idempotencySeconds: number;
  /** Refresh records of partner and user tokens, from the refresh; at least token ttl + grace. */
  refreshSeconds: number;
  /** Failed sign-in counters, from the last failure; at least the throttle's memory (1 h). */
  loginFailureSeconds: number;
  /** How often each instance purges rows past retention; 0 turns purging off. */
  purgeIntervalSeconds: number;
  /** Webhook deliveries and attempts, from their last change; at least the retry window. */
  webhookSeconds: number;
  /**
   * Order events (the webhook outbox), from their order's last event; an order's events go
   * together and only once none has a delivery left. At least the webhook retention.
   */
  orderEventSeconds: number;
  /** Audit events (the Activity page), from when they happened. */
  auditSeconds: number;
}

export type SqliteSynchronous = "full" | "normal";

/**
 * `none`: a direct connection; `session`: PgBouncer in session mode; `transaction`: PgBouncer
 * (or another pooler) in transaction mode, which keeps nothing of a session between transactions.
 */
export type PgPooler = "none" | "session" | "transaction";

export interface UsersConfig {
  /** Audience of user tokens; partner tokens (config.jwt.audience) are refused on `/v1/…`. */
  audience: string;
  /** Supported BCP 47 tags (GATEWAY_LANGUAGES); the first is a new user's default. */
  languages: string[];
  /** scrypt N for new password hashes (GATEWAY_SCRYPT_COST, a power of two). */
  scryptCost: number;
}

const DEFAULTS = {
  // Loopback unless told otherwise: `npm start` leaves demo credentials on disk, and nothing
  // should reach them from the network before an operator chooses to expose the gateway.
  host: "127.0.0.1",
  databaseUrl: "sqlite:./data/gateway.db",
  issuer: "orderline-gateway",
  audience: "orderline-partner-api",
  ttlSeconds: 12 * 60 * 60,
  bodyLimitBytes: 1024 * 1024,
  userAudience: "orderline-tenant-api",
  languages: ["en", "de", "fr", "es", "it", "nl", "pt", "pl", "sv", "ja", "zh-CN", "id"],
  scryptCost: 2 ** 17,
  loginThrottle: { perAccountAndAddress: 5, perAddress: 50, perAccount: 1000 },
  webhookRetentionSeconds: 30 * 24 * 60 * 60,
  metricsPort: 9464,
} as const;

/**
 * Password hashing is CPU-bound: one core stays free of it, so the thread serving HTTP keeps a
 * core. The cap of UV_THREADPOOL_SIZE − 2 (default 4) is from when scrypt ran on libuv's pool
 * and stays as a sane upper default.
 */
export function defaultHashConcurrency(
  env: Env = process.env,
  cores: number = availableParallelism(),
): number {
  const pool = Number(env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(pool - 2, cores - 1));
}

/**
 * Order listings' reads at once (GATEWAY_LIST_CONCURRENCY): one less than the cores, so the
 * event loop keeps one whatever the list traffic, at least one, at most 4. SQLite's reader
 * threads are as many.
 */
export function defaultListSlots(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/** GATEWAY_TRUST_PROXY: unset or "false", a hop count, or a comma-separated list of addresses/CIDRs. */
export function trustProxyFrom(raw: string | undefined): GatewayConfig["trustProxy"] {
  if (raw === undefined || raw.trim() === "" || raw.trim().toLowerCase() === "false") return false;
  const value = raw.trim();
  if (/^\d+$/.test(value)) return Number(value);
  if (value.toLowerCase() === "true")
    throw invalidSetting(
      "GATEWAY_TRUST_PROXY",
      raw,
      " (true would let any client choose its source address with X-Forwarded-For)",
    );
  const list = value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = list.find(
    (v) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/.test(v),
  );
  if (bad !== undefined) throw invalidSetting("GATEWAY_TRUST_PROXY", raw, `; '${bad}' is none`);
  return list;
}

/** A comma-separated list of BCP 47 tags, canonicalised (`en-us` → `en-US`); refuses invalid tags. */
function languagesFrom(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === "") return [...DEFAULTS.languages];
  const tags = raw
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  try {
    return [...new Set(Intl.getCanonicalLocales(tags))];
  } catch {
    throw invalidSetting("GATEWAY_LANGUAGES", raw);
  }
}

export type Env = Record<string, string | undefined>;

/**
 * The store URL, refused when it names a scheme the gateway has no store for: taken as a file
 * name, `mysql://…` would silently become a new empty SQLite store.
 */
function checkedDatabaseUrl(url: string): string {
  if (isPostgresUrl(url) || url.startsWith("sqlite:")) return url;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    throw new ConfigError(
      `DATABASE_URL (or --db) '${url.includes("@") ? redactedUrl(url) : url}' names a store the gateway does not support: use postgres://…, postgresql://…, sqlite:<path> or a file path.`,
    );
  }
  return url;
}

/** The SQLite file a `sqlite:` URL or plain path names, resolved against `cwd`. */
export function sqlitePathOf(databaseUrl: string, cwd = process.cwd()): string {
  const path = databaseUrl.startsWith("sqlite:")
    ? databaseUrl.slice("sqlite:".length)
    : databaseUrl;
  return path === ":memory:" ? path : resolve(cwd, path.replace(/^\/\/(?=\/)/, ""));
}

/** A parser's refusal as a ConfigError (exit 2), its message kept. */
function asConfigError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/** A rule between settings that each are valid alone; `message` says why it exists. */
function requireAtLeast(
  name: keyof Settings,
  value: number,
  floor: number,
  floorName: string,
  why: string,
): void {
  if (value < floor)
    throw new ConfigError(
      `${name}=${value} is not valid: it must be at least ${floorName} (${floor})${why}.`,
    );
}

function retentionFrom(
  s: Settings,
  jwt: GatewayConfig["jwt"],
  webhooks: WebhooksConfig,
): RetentionConfig {
  // A refresh record must outlive the token it guards: ttl + grace after the refresh, the token
  // can no longer be refreshed, so the record can no longer catch a reuse.
  const refreshFloor = jwt.ttlSeconds + jwt.refreshGraceSeconds;
  const webhookSeconds =
    s.GATEWAY_WEBHOOK_RETENTION_SECONDS ??
    Math.max(DEFAULTS.webhookRetentionSeconds, webhooks.retryWindowSeconds);
  const retention: RetentionConfig = {
    idempotencySeconds: s.GATEWAY_IDEMPOTENCY_RETENTION_SECONDS,
    refreshSeconds: s.GATEWAY_REFRESH_RETENTION_SECONDS ?? refreshFloor,
    loginFailureSeconds: s.GATEWAY_LOGIN_FAILURE_RETENTION_SECONDS,
    purgeIntervalSeconds: s.GATEWAY_PURGE_INTERVAL_SECONDS,
    webhookSeconds,
    orderEventSeconds: s.GATEWAY_ORDER_EVENT_RETENTION_SECONDS ?? webhookSeconds,
    auditSeconds: s.GATEWAY_AUDIT_RETENTION_SECONDS,
  };
  requireAtLeast(
    "GATEWAY_WEBHOOK_RETENTION_SECONDS",
    retention.webhookSeconds,
    webhooks.retryWindowSeconds,
    "GATEWAY_WEBHOOK_RETRY_WINDOW_SECONDS",
    ": a delivery still being retried must keep its attempts",
  );
  requireAtLeast(
    "GATEWAY_ORDER_EVENT_RETENTION_SECONDS",
    retention.orderEventSeconds,
    webhooks.retryWindowSeconds,
    "GATEWAY_WEBHOOK_RETRY_WINDOW_SECONDS",
    ": an event still being delivered must stay",
  );
  requireAtLeast(
    "GATEWAY_REFRESH_RETENTION_SECONDS",
    retention.refreshSeconds,
    refreshFloor,
    "the token lifetime plus GATEWAY_REFRESH_GRACE_SECONDS",
    ": a shorter one would let a refreshed token be refreshed again",
  );
  requireAtLeast(
    "GATEWAY_LOGIN_FAILURE_RETENTION_SECONDS",
    retention.loginFailureSeconds,
    THROTTLE_MEMORY_SECONDS,
    "how long the sign-in throttle counts failures",
    "",
  );
  return retention;
}

function webhooksFrom(s: Settings): WebhooksConfig {
  return {
    allowPrivate: s.GATEWAY_WEBHOOK_ALLOW_PRIVATE as PrivateAddressPolicy,
    timeoutMs: s.GATEWAY_WEBHOOK_TIMEOUT_MS,
    retryWindowSeconds: s.GATEWAY_WEBHOOK_RETRY_WINDOW_SECONDS,
    disableAfterSeconds: s.GATEWAY_WEBHOOK_DISABLE_AFTER_SECONDS,
    backoffBaseMs: s.GATEWAY_WEBHOOK_BACKOFF_BASE_MS,
    backoffMaxMs: s.GATEWAY_WEBHOOK_BACKOFF_MAX_MS,
    pollMs: s.GATEWAY_WEBHOOK_POLL_MS,
    // A claim outlasts the attempt it covers (and the reads and writes around it), or a second
    // instance could start the same delivery.
    leaseMs: 3 * s.GATEWAY_WEBHOOK_TIMEOUT_MS,
    secretGraceSeconds: s.GATEWAY_WEBHOOK_SECRET_GRACE_SECONDS,
  };
}

function masterKeyFrom(text: string | undefined): Buffer | undefined {
  if (text === undefined || text === "") return undefined;
  try {
    return parseMasterKey(text);
  } catch {
    throw invalidSetting("GATEWAY_MASTER_KEY", text);
  }
}

/**
 * The whole configuration from the environment (and `overrides`, which win), validated before
 * anything is opened: a bad value throws a ConfigError naming the variable and what it accepts.
 */
export function loadConfig(
  env: Env = process.env,
  overrides: Partial<GatewayConfig> = {},
): GatewayConfig {
  const s = validatedSettings(env);
  const databaseUrl = checkedDatabaseUrl(
    overrides.databaseUrl ?? s.DATABASE_URL ?? DEFAULTS.databaseUrl,
  );
  const sqlitePath = isPostgresUrl(databaseUrl) ? ":memory:" : sqlitePathOf(databaseUrl);
  const dataDir =
    overrides.dataDir ??
    s.GATEWAY_DATA_DIR ??
    (sqlitePath === ":memory:" ? resolve("data") : dirname(sqlitePath));
  const masterKey = masterKeyFrom(s.GATEWAY_MASTER_KEY);
  const webhooks = webhooksFrom(s);
  const jwt = {
    issuer: s.GATEWAY_JWT_ISSUER ?? DEFAULTS.issuer,
    audience: s.GATEWAY_JWT_AUDIENCE ?? DEFAULTS.audience,
    ttlSeconds: DEFAULTS.ttlSeconds,
    refreshGraceSeconds: s.GATEWAY_REFRESH_GRACE_SECONDS,
    sessionMaxSeconds: s.GATEWAY_SESSION_MAX_SECONDS,
  };
  const userAudience = s.GATEWAY_USER_JWT_AUDIENCE ?? DEFAULTS.userAudience;
  if (userAudience === jwt.audience)
    throw invalidSetting(
      "GATEWAY_USER_JWT_AUDIENCE",
      userAudience,
      ", different from GATEWAY_JWT_AUDIENCE",
    );
  return {
    host: s.HOST ?? DEFAULTS.host,
    port: s.PORT,
    databaseUrl,
    dataDir,
    masterKey,
    logLevel: s.LOG_LEVEL,
    jwt,
    signature: { maxSkewSeconds: s.GATEWAY_MAX_SKEW_SECONDS },
    partnerCacheMs: s.GATEWAY_PARTNER_CACHE_MS,
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
    users: {
      audience: userAudience,
      languages: languagesFrom(s.GATEWAY_LANGUAGES),
      scryptCost: Number(s.GATEWAY_SCRYPT_COST ?? DEFAULTS.scryptCost),
    },
    sqliteSynchronous: s.GATEWAY_SQLITE_SYNCHRONOUS as SqliteSynchronous,
    pgPoolMax: s.GATEWAY_PG_POOL_MAX,
    instances: s.GATEWAY_INSTANCES,
    pgStatementTimeoutMs: s.GATEWAY_PG_STATEMENT_TIMEOUT_MS,
    pgConnectTimeoutMs: s.GATEWAY_PG_CONNECT_TIMEOUT_MS,
    pgPooler: s.GATEWAY_PG_POOLER as PgPooler,
    pgMigrationLockWaitSeconds: s.GATEWAY_PG_MIGRATION_LOCK_WAIT_SECONDS,
    requestTimeoutMs: s.GATEWAY_REQUEST_TIMEOUT_MS,
    shutdownTimeoutSeconds: s.GATEWAY_SHUTDOWN_TIMEOUT_SECONDS,
    redisUrl: s.REDIS_URL,
    rateLimit: {
      windowSeconds: s.GATEWAY_RATE_LIMIT_WINDOW_SECONDS,
      ordersMax: s.GATEWAY_RATE_LIMIT_ORDERS,
      loginMax: s.GATEWAY_RATE_LIMIT_LOGINS,
    },
    corsOrigins: asConfigError(() => corsOriginsFrom(s.GATEWAY_CORS_ORIGINS)),
    consoleDir: consoleDirFrom(s.GATEWAY_CONSOLE_DIR),
    drainSeconds: s.GATEWAY_DRAIN_SECONDS,
    drainReadySeconds: s.GATEWAY_DRAIN_READY_SECONDS,
    jwksMaxAgeSeconds: s.GATEWAY_JWKS_MAX_AGE_SECONDS,
    retention: retentionFrom(s, jwt, webhooks),
    events: {
      heartbeatSeconds: s.GATEWAY_EVENTS_HEARTBEAT_SECONDS,
      pollMs: s.GATEWAY_EVENTS_POLL_MS,
      maxStreamSeconds: s.GATEWAY_EVENTS_MAX_STREAM_SECONDS,
      settleMs: 5000,
      recheckMs: 60_000,
    },
    trustProxy: trustProxyFrom(s.GATEWAY_TRUST_PROXY),
    loginThrottle: { ...DEFAULTS.loginThrottle },
    hashing: {
      concurrency: s.GATEWAY_HASH_CONCURRENCY ?? defaultHashConcurrency(env),
      queue: s.GATEWAY_HASH_QUEUE,
      // Shares of the hashing capacity (users/fair-hash-queue.ts).
      reserved: s.GATEWAY_HASH_RESERVED,
      perSource: s.GATEWAY_HASH_PER_SOURCE,
      perAccount: s.GATEWAY_HASH_PER_ACCOUNT,
    },
    lists: {
      concurrency: s.GATEWAY_LIST_CONCURRENCY ?? defaultListSlots(),
      maxWaitMs: s.GATEWAY_LIST_WAIT_MS,
      nice: s.GATEWAY_LIST_NICE,
    },
    webhooks,
    shares: shareBudgetsFrom(s),
    team: teamFrom(s),
    observability: {
      instanceId: env.GATEWAY_INSTANCE_ID || `${hostname()}:${process.pid}`,
      metricsListen: metricsListenFrom(env.GATEWAY_METRICS_LISTEN),
      metricsToken: env.GATEWAY_METRICS_TOKEN || undefined,
    },
    ...overrides,
  };
}

/**
 * The built console of the `@orderline/console` package beside the gateway: installed next to it
 * (the production install, docs/deploy.md) or, in the workspace, apps/console through its link.
 */
function bundledConsole(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve("@orderline/console/package.json");
    return join(dirname(manifest), "dist");
  } catch {
    return undefined;
  }
}

function consoleDirFrom(raw: string | undefined): string | undefined {
  if (raw === "off") return undefined;
  if (raw !== undefined && raw !== "") {
    // A directory without the built console would serve nothing but 404s, with only a warning.
    if (!existsSync(join(resolve(raw), "index.html")))
      throw invalidSetting("GATEWAY_CONSOLE_DIR", raw);
    return resolve(raw);
  }
  const bundled = bundledConsole();
  return bundled !== undefined && existsSync(join(bundled, "index.html")) ? bundled : undefined;
}

export function masterKeyFile(config: GatewayConfig): string {
  return join(config.dataDir, "master.key");
}

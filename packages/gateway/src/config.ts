import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { corsOriginsFrom } from "./http/cors.js";
import { isPostgresUrl, redactedUrl } from "./store/postgres/pool.js";
import { RESET_AFTER_MS } from "./users/login-throttle.js";
import type { PrivateAddressPolicy } from "./webhooks/address-guard.js";

/** How long the sign-in throttle remembers a failure; its rows are useless after that. */
const THROTTLE_MEMORY_SECONDS = RESET_AFTER_MS / 1000;

/** A setting the gateway cannot run with; the message names the setting and what it accepts. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Everything the gateway can be told, with the defaults a single-machine install uses. */
export interface GatewayConfig {
  host: string;
  port: number;
  /** `sqlite:<path>` or a plain file path (embedded store), or `postgres://…` (PostgreSQL). */
  databaseUrl: string;
  /** Directory for the master key and demo files; defaults to the database's directory. */
  dataDir: string;
  /** GATEWAY_MASTER_KEY; when unset, `<dataDir>/master.key` is read or generated. */
  masterKey: string | undefined;
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
   * GATEWAY_CONSOLE_DIR: the built tenant console served at `/console/`. Default: the
   * workspace's `apps/console/dist` when it exists; `off` serves none.
   */
  consoleDir: string | undefined;
  /** After SIGTERM, how long open connections are answered 503 before the listener closes. */
  drainSeconds: number;
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
  hashing: { concurrency: number; queue: number };
  /** Webhook delivery (webhooks/): where to, how long to retry, when to give up on an endpoint. */
  webhooks: WebhooksConfig;
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
  /** Deliveries attempted at once by one instance. */
  concurrency: number;
  /** Deliveries to one endpoint in flight at once, all instances together (at most concurrency). */
  endpointConcurrency: number;
  /** How long a claimed delivery is this instance's (3 × timeout); then another may take it. */
  leaseMs: number;
  /** How long a rotated-out secret keeps signing deliveries beside the new one. */
  secretGraceSeconds: number;
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
}

export type SqliteSynchronous = "full" | "normal";

export interface UsersConfig {
  /** Audience of user tokens; partner tokens (config.jwt.audience) are refused on `/v1/…`. */
  audience: string;
  /** Supported BCP 47 tags (GATEWAY_LANGUAGES); the first is a new user's default. */
  languages: string[];
  /** scrypt N for new password hashes (GATEWAY_SCRYPT_COST, a power of two). */
  scryptCost: number;
}

export const DEFAULTS = {
  port: 3000,
  // Loopback unless told otherwise: `npm start` leaves demo credentials on disk, and nothing
  // should reach them from the network before an operator chooses to expose the gateway.
  host: "127.0.0.1",
  databaseUrl: "sqlite:./data/gateway.db",
  issuer: "orderline-gateway",
  audience: "orderline-partner-api",
  ttlSeconds: 12 * 60 * 60,
  refreshGraceSeconds: 24 * 60 * 60,
  sessionMaxSeconds: 30 * 24 * 60 * 60,
  maxSkewSeconds: 300,
  partnerCacheMs: 1000,
  bodyLimitBytes: 1024 * 1024,
  pgPoolMax: 16,
  rateLimitWindowSeconds: 60,
  rateLimitOrders: 6000,
  rateLimitLogins: 60,
  userAudience: "orderline-tenant-api",
  languages: ["en", "de", "fr", "es", "it", "nl", "pt", "pl", "sv", "ja", "zh-CN", "id"],
  scryptCost: 2 ** 17,
  drainSeconds: 5,
  idempotencyRetentionSeconds: 7 * 24 * 60 * 60,
  loginFailureRetentionSeconds: 24 * 60 * 60,
  purgeIntervalSeconds: 10 * 60,
  loginThrottle: { perAccountAndAddress: 5, perAddress: 50, perAccount: 1000 },
  hashQueue: 16,
  webhooks: {
    timeoutMs: 10_000,
    retryWindowSeconds: 3 * 24 * 60 * 60,
    disableAfterSeconds: 3 * 24 * 60 * 60,
    backoffBaseMs: 30_000,
    backoffMaxMs: 60 * 60 * 1000,
    pollMs: 500,
    concurrency: 8,
    endpointConcurrency: 2,
    secretGraceSeconds: 24 * 60 * 60,
  },
  webhookRetentionSeconds: 30 * 24 * 60 * 60,
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

/** Each concurrent hash is a thread of its own holding 128 MiB while it runs. */
const MAX_HASH_CONCURRENCY = 64;

function hashConcurrencyFrom(env: Env): number {
  const value = intFrom(env, "GATEWAY_HASH_CONCURRENCY", defaultHashConcurrency(env));
  if (value < 1 || value > MAX_HASH_CONCURRENCY) {
    throw new Error(
      `GATEWAY_HASH_CONCURRENCY must be between 1 and ${MAX_HASH_CONCURRENCY}, got ${value}`,
    );
  }
  return value;
}

/** GATEWAY_TRUST_PROXY: unset or "false", a hop count, or a comma-separated list of addresses/CIDRs. */
export function trustProxyFrom(raw: string | undefined): GatewayConfig["trustProxy"] {
  if (raw === undefined || raw.trim() === "" || raw.trim().toLowerCase() === "false") return false;
  const value = raw.trim();
  if (/^\d+$/.test(value)) return Number(value);
  if (value.toLowerCase() === "true") {
    throw new Error(
      "GATEWAY_TRUST_PROXY=true would let any client choose its source address with X-Forwarded-For; name the proxies (addresses or CIDRs, comma-separated) or the number of proxy hops.",
    );
  }
  const list = value
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  const bad = list.find(
    (v) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/.test(v),
  );
  if (bad !== undefined) {
    throw new Error(
      `GATEWAY_TRUST_PROXY must be false, a hop count, or addresses/CIDRs of the proxies; '${bad}' is none of these.`,
    );
  }
  return list;
}

/** A comma-separated list of BCP 47 tags, canonicalised (`en-us` → `en-US`); refuses invalid tags. */
export function languagesFrom(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === "") return [...DEFAULTS.languages];
  const tags = raw
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  try {
    return [...new Set(Intl.getCanonicalLocales(tags))];
  } catch {
    throw new ConfigError(`GATEWAY_LANGUAGES must be comma-separated BCP 47 tags, got '${raw}'`);
  }
}

export type Env = Record<string, string | undefined>;

/**
 * The store URL, refused when it names a scheme the gateway has no store for: taken as a file
 * name, `mysql://…` would silently become a new empty SQLite store.
 */
export function checkedDatabaseUrl(url: string): string {
  if (isPostgresUrl(url) || url.startsWith("sqlite:")) return url;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    throw new ConfigError(
      `DATABASE_URL (or --db) '${url.includes("@") ? redactedUrl(url) : url}' names a store the gateway does not support: use postgres://…, postgresql://…, sqlite:<path> or a file path.`,
    );
  }
  return url;
}

function intFrom(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw))
    throw new ConfigError(`${name} must be a non-negative integer, got '${raw}'`);
  return Number(raw);
}

/** The SQLite file a `sqlite:` URL or plain path names, resolved against `cwd`. */
export function sqlitePathOf(databaseUrl: string, cwd = process.cwd()): string {
  const path = databaseUrl.startsWith("sqlite:")
    ? databaseUrl.slice("sqlite:".length)
    : databaseUrl;
  return path === ":memory:" ? path : resolve(cwd, path.replace(/^\/\/(?=\/)/, ""));
}

function synchronousFrom(value: string | undefined): SqliteSynchronous {
  if (value === undefined || value === "" || value.toLowerCase() === "full") return "full";
  if (value.toLowerCase() === "normal") return "normal";
  throw new ConfigError(`GATEWAY_SQLITE_SYNCHRONOUS must be 'full' or 'normal', got '${value}'`);
}

function retentionFrom(
  env: Env,
  jwt: GatewayConfig["jwt"],
  webhooks: WebhooksConfig,
): RetentionConfig {
  // A refresh record must outlive the token it guards: ttl + grace after the refresh, the token
  // can no longer be refreshed, so the record can no longer catch a reuse.
  const refreshFloor = jwt.ttlSeconds + jwt.refreshGraceSeconds;
  const retention = {
    idempotencySeconds: intFrom(
      env,
      "GATEWAY_IDEMPOTENCY_RETENTION_SECONDS",
      DEFAULTS.idempotencyRetentionSeconds,
    ),
    refreshSeconds: intFrom(env, "GATEWAY_REFRESH_RETENTION_SECONDS", refreshFloor),
    loginFailureSeconds: intFrom(
      env,
      "GATEWAY_LOGIN_FAILURE_RETENTION_SECONDS",
      DEFAULTS.loginFailureRetentionSeconds,
    ),
    purgeIntervalSeconds: intFrom(
      env,
      "GATEWAY_PURGE_INTERVAL_SECONDS",
      DEFAULTS.purgeIntervalSeconds,
    ),
    webhookSeconds: intFrom(
      env,
      "GATEWAY_WEBHOOK_RETENTION_SECONDS",
      Math.max(DEFAULTS.webhookRetentionSeconds, webhooks.retryWindowSeconds),
    ),
  };
  if (retention.webhookSeconds < webhooks.retryWindowSeconds)
    throw new ConfigError(
      `GATEWAY_WEBHOOK_RETENTION_SECONDS must be at least GATEWAY_WEBHOOK_RETRY_WINDOW_SECONDS (${webhooks.retryWindowSeconds}), got ${retention.webhookSeconds}: a delivery still being retried must keep its attempts.`,
    );
  if (retention.refreshSeconds < refreshFloor)
    throw new ConfigError(
      `GATEWAY_REFRESH_RETENTION_SECONDS must be at least the token lifetime plus GATEWAY_REFRESH_GRACE_SECONDS (${refreshFloor}), got ${retention.refreshSeconds}: a shorter one would let a refreshed token be refreshed again.`,
    );
  if (retention.loginFailureSeconds < THROTTLE_MEMORY_SECONDS)
    throw new ConfigError(
      `GATEWAY_LOGIN_FAILURE_RETENTION_SECONDS must be at least ${THROTTLE_MEMORY_SECONDS} (how long the sign-in throttle counts failures), got ${retention.loginFailureSeconds}.`,
    );
  if (retention.idempotencySeconds < 60)
    throw new ConfigError(
      `GATEWAY_IDEMPOTENCY_RETENTION_SECONDS must be at least 60, got ${retention.idempotencySeconds}.`,
    );
  return retention;
}

function privatePolicyFrom(raw: string | undefined): PrivateAddressPolicy {
  const value = (raw ?? "").trim().toLowerCase();
  if (value === "" || value === "none") return "none";
  if (value === "loopback" || value === "all") return value;
  throw new ConfigError(
    `GATEWAY_WEBHOOK_ALLOW_PRIVATE must be 'none', 'loopback' or 'all', got '${raw}'`,
  );
}

function webhooksFrom(env: Env): WebhooksConfig {
  const d = DEFAULTS.webhooks;
  const config: WebhooksConfig = {
    allowPrivate: privatePolicyFrom(env.GATEWAY_WEBHOOK_ALLOW_PRIVATE),
    timeoutMs: intFrom(env, "GATEWAY_WEBHOOK_TIMEOUT_MS", d.timeoutMs),
    retryWindowSeconds: intFrom(env, "GATEWAY_WEBHOOK_RETRY_WINDOW_SECONDS", d.retryWindowSeconds),
    disableAfterSeconds: intFrom(
      env,
      "GATEWAY_WEBHOOK_DISABLE_AFTER_SECONDS",
      d.disableAfterSeconds,
    ),
    backoffBaseMs: intFrom(env, "GATEWAY_WEBHOOK_BACKOFF_BASE_MS", d.backoffBaseMs),
    backoffMaxMs: intFrom(env, "GATEWAY_WEBHOOK_BACKOFF_MAX_MS", d.backoffMaxMs),
    pollMs: intFrom(env, "GATEWAY_WEBHOOK_POLL_MS", d.pollMs),
    concurrency: Math.max(1, intFrom(env, "GATEWAY_WEBHOOK_CONCURRENCY", d.concurrency)),
    // A slow receiver holds at most this many of the slots; the others keep serving the rest.
    endpointConcurrency: Math.max(
      1,
      intFrom(env, "GATEWAY_WEBHOOK_ENDPOINT_CONCURRENCY", d.endpointConcurrency),
    ),
    // A claim outlasts the attempt it covers (and the reads and writes around it), or a second
    // instance could start the same delivery.
    leaseMs: 3 * intFrom(env, "GATEWAY_WEBHOOK_TIMEOUT_MS", d.timeoutMs),
    secretGraceSeconds: intFrom(env, "GATEWAY_WEBHOOK_SECRET_GRACE_SECONDS", d.secretGraceSeconds),
  };
  if (config.timeoutMs < 100 || config.timeoutMs > 60_000)
    throw new ConfigError(
      `GATEWAY_WEBHOOK_TIMEOUT_MS must be between 100 and 60000, got ${config.timeoutMs}`,
    );
  return config;
}

export function loadConfig(
  env: Env = process.env,
  overrides: Partial<GatewayConfig> = {},
): GatewayConfig {
  const databaseUrl = checkedDatabaseUrl(
    overrides.databaseUrl ?? env.DATABASE_URL ?? DEFAULTS.databaseUrl,
  );
  const sqlitePath = isPostgresUrl(databaseUrl) ? ":memory:" : sqlitePathOf(databaseUrl);
  const dataDir =
    overrides.dataDir ??
    env.GATEWAY_DATA_DIR ??
    (sqlitePath === ":memory:" ? resolve("data") : dirname(sqlitePath));
  const webhooks = webhooksFrom(env);
  const jwt = {
    issuer: env.GATEWAY_JWT_ISSUER ?? DEFAULTS.issuer,
    audience: env.GATEWAY_JWT_AUDIENCE ?? DEFAULTS.audience,
    ttlSeconds: DEFAULTS.ttlSeconds,
    refreshGraceSeconds: intFrom(
      env,
      "GATEWAY_REFRESH_GRACE_SECONDS",
      DEFAULTS.refreshGraceSeconds,
    ),
    sessionMaxSeconds: intFrom(env, "GATEWAY_SESSION_MAX_SECONDS", DEFAULTS.sessionMaxSeconds),
  };
  return {
    host: env.HOST ?? DEFAULTS.host,
    port: intFrom(env, "PORT", DEFAULTS.port),
    databaseUrl,
    dataDir,
    masterKey: env.GATEWAY_MASTER_KEY,
    logLevel: env.LOG_LEVEL ?? "info",
    jwt,
    signature: {
      maxSkewSeconds: intFrom(env, "GATEWAY_MAX_SKEW_SECONDS", DEFAULTS.maxSkewSeconds),
    },
    partnerCacheMs: intFrom(env, "GATEWAY_PARTNER_CACHE_MS", DEFAULTS.partnerCacheMs),
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
    users: {
      audience: env.GATEWAY_USER_JWT_AUDIENCE ?? DEFAULTS.userAudience,
      languages: languagesFrom(env.GATEWAY_LANGUAGES),
      scryptCost: intFrom(env, "GATEWAY_SCRYPT_COST", DEFAULTS.scryptCost),
    },
    sqliteSynchronous: synchronousFrom(env.GATEWAY_SQLITE_SYNCHRONOUS),
    pgPoolMax: intFrom(env, "GATEWAY_PG_POOL_MAX", DEFAULTS.pgPoolMax),
    redisUrl: env.REDIS_URL === "" ? undefined : env.REDIS_URL,
    rateLimit: {
      windowSeconds: Math.max(
        1,
        intFrom(env, "GATEWAY_RATE_LIMIT_WINDOW_SECONDS", DEFAULTS.rateLimitWindowSeconds),
      ),
      ordersMax: intFrom(env, "GATEWAY_RATE_LIMIT_ORDERS", DEFAULTS.rateLimitOrders),
      loginMax: intFrom(env, "GATEWAY_RATE_LIMIT_LOGINS", DEFAULTS.rateLimitLogins),
    },
    corsOrigins: corsOriginsFrom(env.GATEWAY_CORS_ORIGINS),
    consoleDir: consoleDirFrom(env.GATEWAY_CONSOLE_DIR),
    drainSeconds: intFrom(env, "GATEWAY_DRAIN_SECONDS", DEFAULTS.drainSeconds),
    retention: retentionFrom(env, jwt, webhooks),
    trustProxy: trustProxyFrom(env.GATEWAY_TRUST_PROXY),
    loginThrottle: { ...DEFAULTS.loginThrottle },
    hashing: {
      concurrency: hashConcurrencyFrom(env),
      queue: intFrom(env, "GATEWAY_HASH_QUEUE", DEFAULTS.hashQueue),
    },
    webhooks,
    ...overrides,
  };
}

/** The bundled console next to this package in the workspace (dist/config.js → apps/console). */
const BUNDLED_CONSOLE = fileURLToPath(new URL("../../../apps/console/dist", import.meta.url));

function consoleDirFrom(raw: string | undefined): string | undefined {
  if (raw === "off") return undefined;
  if (raw !== undefined && raw !== "") return resolve(raw);
  return existsSync(join(BUNDLED_CONSOLE, "index.html")) ? BUNDLED_CONSOLE : undefined;
}

export function masterKeyFile(config: GatewayConfig): string {
  return join(config.dataDir, "master.key");
}

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { corsOriginsFrom } from "./http/cors.js";
import { isPostgresUrl } from "./store/postgres/pool.js";

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
  /** Fixed-window limits per client_id; a max of 0 turns that limit off. */
  rateLimit: { windowSeconds: number; ordersMax: number; loginMax: number };
  /** GATEWAY_CORS_ORIGINS: origins whose browsers may call `/v1`; empty (default) allows none. */
  corsOrigins: string[];
  /**
   * GATEWAY_CONSOLE_DIR: the built tenant console served at `/console/`. Default: the
   * workspace's `apps/console/dist` when it exists; `off` serves none.
   */
  consoleDir: string | undefined;
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
  host: "0.0.0.0",
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
} as const;

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
    throw new Error(`GATEWAY_LANGUAGES must be comma-separated BCP 47 tags, got '${raw}'`);
  }
}

export type Env = Record<string, string | undefined>;

function intFrom(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
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
  throw new Error(`GATEWAY_SQLITE_SYNCHRONOUS must be 'full' or 'normal', got '${value}'`);
}

export function loadConfig(
  env: Env = process.env,
  overrides: Partial<GatewayConfig> = {},
): GatewayConfig {
  const databaseUrl = overrides.databaseUrl ?? env.DATABASE_URL ?? DEFAULTS.databaseUrl;
  const sqlitePath = isPostgresUrl(databaseUrl) ? ":memory:" : sqlitePathOf(databaseUrl);
  const dataDir =
    overrides.dataDir ??
    env.GATEWAY_DATA_DIR ??
    (sqlitePath === ":memory:" ? resolve("data") : dirname(sqlitePath));
  return {
    host: env.HOST ?? DEFAULTS.host,
    port: intFrom(env, "PORT", DEFAULTS.port),
    databaseUrl,
    dataDir,
    masterKey: env.GATEWAY_MASTER_KEY,
    logLevel: env.LOG_LEVEL ?? "info",
    jwt: {
      issuer: env.GATEWAY_JWT_ISSUER ?? DEFAULTS.issuer,
      audience: env.GATEWAY_JWT_AUDIENCE ?? DEFAULTS.audience,
      ttlSeconds: DEFAULTS.ttlSeconds,
      refreshGraceSeconds: intFrom(
        env,
        "GATEWAY_REFRESH_GRACE_SECONDS",
        DEFAULTS.refreshGraceSeconds,
      ),
      sessionMaxSeconds: intFrom(env, "GATEWAY_SESSION_MAX_SECONDS", DEFAULTS.sessionMaxSeconds),
    },
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

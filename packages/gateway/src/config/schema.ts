import { Ajv } from "ajv";

/**
 * Every environment variable the gateway reads, as one JSON Schema (validated by ajv, which
 * turns the strings of the environment into numbers where the schema says so). A setting's
 * entry says what it accepts; the one-line error for a bad value is made from that entry, so
 * the accepted range is written once. Defaults that depend on other settings or on the machine
 * (data directory, retention floors, hash concurrency) are computed in config.ts.
 */
interface Setting {
  type: "integer" | "string";
  minimum?: number;
  maximum?: number;
  enum?: readonly string[];
  default?: number | string;
  /** A named check (CHECKS) for strings no JSON Schema keyword describes well. */
  check?: keyof typeof CHECKS;
  /** What the setting accepts, in words, when the keywords above do not say it. */
  accepts?: string;
}

const int = <D extends number | undefined = undefined>(
  minimum: number,
  def?: D,
  maximum?: number,
) =>
  ({
    type: "integer",
    minimum,
    ...(maximum === undefined ? {} : { maximum }),
    ...(def === undefined ? {} : { default: def }),
  }) as Setting & { type: "integer"; default: D };
const text = (extra: Partial<Setting> = {}) =>
  ({ type: "string", ...extra }) as Setting & { type: "string"; default: undefined };
const oneOf = (values: readonly string[], def: string) =>
  ({ type: "string", enum: values, default: def }) as Setting & { type: "string"; default: string };

const DAY = 24 * 60 * 60;

function parsesAsUrl(value: string, schemes: string[]): boolean {
  try {
    const url = new URL(value);
    return schemes.includes(url.protocol) && url.hostname !== "";
  } catch {
    return false;
  }
}

/** Checks of string settings; the setting's `accepts` says what passes. */
const CHECKS = {
  redisUrl: (value: string) => parsesAsUrl(value, ["redis:", "rediss:"]),
  smtpUrl: (value: string) => parsesAsUrl(value, ["smtp:", "smtps:"]),
  httpUrl: (value: string) => parsesAsUrl(value, ["http:", "https:"]),
  scryptCost: (value: string) =>
    /^\d+$/.test(value) &&
    Number.isInteger(Math.log2(Number(value))) &&
    Number(value) >= 1024 &&
    Number(value) <= 2 ** 20,
  notBlank: (value: string) => value.trim() !== "",
};

const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;

/** How long browsers and verifiers may cache `/.well-known/jwks.json` (Cache-Control max-age). */
const DEFAULT_JWKS_MAX_AGE_SECONDS = 300;

export const SETTINGS = {
  PORT: int(0, 3000, 65_535),
  HOST: text({ check: "notBlank", accepts: "an address or host name to listen on" }),
  DATABASE_URL: text({
    accepts: "postgres://…, postgresql://…, sqlite:<path> or a file path",
  }),
  LOG_LEVEL: oneOf(LOG_LEVELS, "info"),
  REDIS_URL: text({ check: "redisUrl", accepts: "a redis:// or rediss:// URL with a host" }),
  GATEWAY_DATA_DIR: text(),
  GATEWAY_MASTER_KEY: text({ accepts: "64 hex digits or 44 base64 characters (32 bytes)" }),
  GATEWAY_JWT_ISSUER: text({ check: "notBlank", accepts: "a non-empty issuer name" }),
  GATEWAY_JWT_AUDIENCE: text({ check: "notBlank", accepts: "a non-empty audience name" }),
  GATEWAY_USER_JWT_AUDIENCE: text({ check: "notBlank", accepts: "a non-empty audience name" }),
  GATEWAY_JWKS_MAX_AGE_SECONDS: int(0, DEFAULT_JWKS_MAX_AGE_SECONDS, DAY),
  GATEWAY_REFRESH_GRACE_SECONDS: int(0, DAY),
  GATEWAY_SESSION_MAX_SECONDS: int(60, 30 * DAY),
  GATEWAY_MAX_SKEW_SECONDS: int(1, 300, 3600),
  GATEWAY_PARTNER_CACHE_MS: int(0, 1000, 60_000),
  GATEWAY_LANGUAGES: text({ accepts: "comma-separated BCP 47 tags" }),
  GATEWAY_SCRYPT_COST: text({
    check: "scryptCost",
    accepts: "a power of two from 1024 to 1048576",
  }),
  GATEWAY_SQLITE_SYNCHRONOUS: oneOf(["full", "normal"], "full"),
  GATEWAY_PG_POOL_MAX: int(1, 16, 1000),
  GATEWAY_INSTANCES: int(1, 1, 1000),
  GATEWAY_PG_STATEMENT_TIMEOUT_MS: int(100, 5000, 600_000),
  GATEWAY_PG_CONNECT_TIMEOUT_MS: int(100, 3000, 60_000),
  GATEWAY_PG_POOLER: oneOf(["none", "session", "transaction"], "none"),
  GATEWAY_PG_MIGRATION_LOCK_WAIT_SECONDS: int(1, 300, DAY),
  GATEWAY_REQUEST_TIMEOUT_MS: int(100, 10_000, 600_000),
  GATEWAY_SHUTDOWN_TIMEOUT_SECONDS: int(1, 25, 3600),
  GATEWAY_RATE_LIMIT_WINDOW_SECONDS: int(1, 60, DAY),
  GATEWAY_RATE_LIMIT_ORDERS: int(0, 6000),
  GATEWAY_RATE_LIMIT_LOGINS: int(0, 60),
  GATEWAY_CORS_ORIGINS: text({ accepts: "comma-separated origins (scheme://host[:port])" }),
  // Observability (config.ts reads these; metricsListenFrom checks the address's form).
  GATEWAY_INSTANCE_ID: text(),
  GATEWAY_METRICS_LISTEN: text({ accepts: "off, a port, or host:port" }),
  GATEWAY_METRICS_TOKEN: text(),
  GATEWAY_CONSOLE_DIR: text({
    accepts: "'off' or a directory holding the built console's index.html",
  }),
  GATEWAY_DRAIN_READY_SECONDS: int(0, 5, 300),
  GATEWAY_DRAIN_SECONDS: int(0, 5, 300),
  GATEWAY_IDEMPOTENCY_RETENTION_SECONDS: int(60, 7 * DAY),
  GATEWAY_REFRESH_RETENTION_SECONDS: int(0),
  GATEWAY_LOGIN_FAILURE_RETENTION_SECONDS: int(0, DAY),
  GATEWAY_PURGE_INTERVAL_SECONDS: int(0, 600),
  GATEWAY_WEBHOOK_RETENTION_SECONDS: int(0),
  GATEWAY_ORDER_EVENT_RETENTION_SECONDS: int(0),
  GATEWAY_AUDIT_RETENTION_SECONDS: int(DAY, 365 * DAY),
  // Team management: set-password links, and mail when an SMTP server is configured.
  GATEWAY_PASSWORD_LINK_TTL_SECONDS: int(300, 3 * DAY, 30 * DAY),
  GATEWAY_SMTP_URL: text({ check: "smtpUrl", accepts: "an smtp:// or smtps:// URL with a host" }),
  GATEWAY_MAIL_FROM: text({ check: "notBlank", accepts: "a sender address for mail" }),
  GATEWAY_PUBLIC_URL: text({
    check: "httpUrl",
    accepts: "the console's public http(s):// URL (links in mail point there)",
  }),
  GATEWAY_TRUST_PROXY: text({
    accepts: "false, a hop count, or comma-separated addresses/CIDRs of the proxies",
  }),
  GATEWAY_HASH_CONCURRENCY: int(1, undefined, 64),
  GATEWAY_HASH_QUEUE: int(0, 16, 10_000),
  GATEWAY_HASH_RESERVED: int(0, 1, 64),
  GATEWAY_HASH_PER_SOURCE: int(1, 2, 10_000),
  GATEWAY_HASH_PER_ACCOUNT: int(1, 2, 10_000),
  GATEWAY_LIST_CONCURRENCY: int(1, undefined, 64),
  GATEWAY_LIST_WAIT_MS: int(1, 2_000, 60_000),
  GATEWAY_LIST_NICE: int(0, 10, 19),
  GATEWAY_WEBHOOK_ALLOW_PRIVATE: oneOf(["none", "loopback", "all"], "none"),
  GATEWAY_WEBHOOK_TIMEOUT_MS: int(100, 10_000, 60_000),
  GATEWAY_WEBHOOK_RETRY_WINDOW_SECONDS: int(0, 3 * DAY),
  GATEWAY_WEBHOOK_DISABLE_AFTER_SECONDS: int(0, 3 * DAY),
  GATEWAY_WEBHOOK_BACKOFF_BASE_MS: int(1, 30_000),
  GATEWAY_WEBHOOK_BACKOFF_MAX_MS: int(1, 60 * 60 * 1000),
  GATEWAY_WEBHOOK_POLL_MS: int(0, 500),
  GATEWAY_WEBHOOK_ENDPOINT_CONCURRENCY: int(1, 2, 1000),
  GATEWAY_WEBHOOK_CONCURRENCY: int(1, 8, 1000),
  GATEWAY_WEBHOOK_SECRET_GRACE_SECONDS: int(0, DAY),
  GATEWAY_EVENTS_HEARTBEAT_SECONDS: int(1, 15, 300),
  GATEWAY_EVENTS_POLL_MS: int(50, 1000, 60_000),
  GATEWAY_EVENTS_MAX_STREAMS: int(0, 1000, 100_000),
  GATEWAY_EVENTS_MAX_STREAMS_PER_CLIENT: int(1, 5, 1000),
  GATEWAY_EVENTS_MAX_STREAMS_PER_TENANT: int(1, 100, 100_000),
  GATEWAY_EVENTS_MAX_STREAM_SECONDS: int(10, 3600, DAY),
  GATEWAY_EVENTS_MAX_REPLAY: int(0, 1000, 1_000_000),
  GATEWAY_EVENTS_MAX_REPLAYS: int(1, 4, 1000),
  GATEWAY_EVENTS_MAX_REPLAYS_PER_TENANT: int(1, 1, 1000),
  // Shares (config/shares.ts): each tenant's and party's part of what every party shares.
  GATEWAY_SHARE_STREAM_OPENS_PER_TENANT: int(0, 300, 1_000_000),
  GATEWAY_SHARE_STREAM_OPENS_PER_PARTY: int(0, 30, 1_000_000),
  GATEWAY_SHARE_TEST_SENDS_PER_PARTNER: int(0, 100, 1_000_000),
  GATEWAY_SHARE_TEST_SENDS_PER_ENDPOINT: int(0, 20, 1_000_000),
  GATEWAY_WEBHOOK_PARTNER_CONCURRENCY: int(1, undefined, 1000),
  GATEWAY_SHARE_REFUSALS_PER_PARTY: int(0, 60, 1_000_000),
  GATEWAY_SHARE_TENANT_READS_PER_TENANT: int(0, 3000, 1_000_000),
  GATEWAY_SHARE_TENANT_READS_PER_USER: int(0, 600, 1_000_000),
  GATEWAY_SHARE_MAILS_PER_TENANT: int(0, 200, 1_000_000),
  GATEWAY_SHARE_MAILS_PER_RECIPIENT: int(0, 5, 1_000_000),
  GATEWAY_SHARE_PARTNERS_PER_TENANT: int(1, 100, 100_000),
  GATEWAY_SHARE_VOCABULARY_KEYS: int(1, 2000, 100_000),
  GATEWAY_SHARE_VOCABULARY_BYTES: int(1024, 262_144, 8_388_608),
  GATEWAY_SHARE_VOCABULARY_NAMESPACES: int(1, 50, 10_000),
} as const satisfies Record<string, Setting>;

/** GATEWAY_* names read by something other than the server (so not worth a warning). */
const READ_ELSEWHERE = new Set(["GATEWAY_URL"]);

export type SettingName = keyof typeof SETTINGS;
type ValueOf<S> = S extends { type: "integer" } ? number : string;
type HasDefault<S> = S extends { default: number | string } ? true : false;
/** The environment after validation: numbers where the schema says integer, defaults filled. */
export type Settings = {
  [K in SettingName]: HasDefault<(typeof SETTINGS)[K]> extends true
    ? ValueOf<(typeof SETTINGS)[K]>
    : ValueOf<(typeof SETTINGS)[K]> | undefined;
};

const schemaOf = ({ accepts: _accepts, check, ...keywords }: Setting) => ({
  ...keywords,
  ...(check === undefined ? {} : { check }),
});

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false });
ajv.addKeyword({
  keyword: "check",
  type: "string",
  schemaType: "string",
  validate: (name: keyof typeof CHECKS, value: string) => CHECKS[name](value),
  errors: false,
});
const validate = ajv.compile({
  type: "object",
  properties: Object.fromEntries(
    Object.entries(SETTINGS).map(([name, setting]) => [name, schemaOf(setting)]),
  ),
});

/** What a setting accepts, in words, from its schema entry. */
function acceptedBy(setting: Setting): string {
  if (setting.accepts) return setting.accepts;
  if (setting.enum) return `one of ${setting.enum.map((v) => `'${v}'`).join(", ")}`;
  if (setting.type === "integer") {
    const { minimum = 0, maximum } = setting;
    return maximum === undefined
      ? `an integer of at least ${minimum}`
      : `an integer from ${minimum} to ${maximum}`;
  }
  return "a string";
}

/** A value as an error may show it: secrets are never echoed, URLs lose their password. */
function shown(name: string, value: string): string {
  if (name === "GATEWAY_MASTER_KEY") return "(hidden)";
  return `'${value.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@")}'`;
}

/** A setting the gateway cannot run with; the message names the setting and what it accepts. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export function invalidSetting(name: SettingName, value: string, why = ""): ConfigError {
  const setting: Setting = SETTINGS[name];
  return new ConfigError(
    `${name}=${shown(name, value)} is not valid: it must be ${acceptedBy(setting)}${why}.`,
  );
}

/**
 * The known settings of `env`, validated and typed. An empty value counts as unset; enum values
 * are compared without case. Throws a ConfigError for the first bad value.
 */
export function validatedSettings(env: Record<string, string | undefined>): Settings {
  const input: Record<string, string | number> = {};
  for (const [name, setting] of Object.entries(SETTINGS) as [SettingName, Setting][]) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    input[name] = setting.enum ? raw.trim().toLowerCase() : raw;
  }
  if (!validate(input)) {
    const error = validate.errors?.[0];
    const name = (error?.instancePath.slice(1) ?? "") as SettingName;
    throw invalidSetting(name, env[name] ?? "");
  }
  return input as unknown as Settings;
}

/** Levenshtein distance, for did-you-mean. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** One warning per GATEWAY_* variable the gateway does not know, with the nearest known name. */
export function unknownSettingWarnings(env: Record<string, string | undefined>): string[] {
  const known = Object.keys(SETTINGS);
  return Object.keys(env)
    .filter((name) => name.startsWith("GATEWAY_") && !(name in SETTINGS))
    .filter((name) => !READ_ELSEWHERE.has(name))
    .sort()
    .map((name) => {
      const [nearest] = known
        .map((candidate) => ({ candidate, d: distance(name, candidate) }))
        .sort((x, y) => x.d - y.d);
      const hint =
        nearest && nearest.d <= Math.max(3, Math.floor(name.length / 4))
          ? ` Did you mean ${nearest.candidate}?`
          : "";
      return `Unknown setting ${name} is ignored.${hint}`;
    });
}

import type { ErrorCode } from "../problems/catalogue.js";
import type { SettingName, Settings } from "./schema.js";

/**
 * The catalogue of shared resources: what one tenant, partner or user may take of what every
 * party shares. Each share has budgets at nested levels (the instance's, each tenant's, each
 * party's within it, and for some a third level such as a webhook endpoint); `security/shares.ts`
 * enforces them all the same way, `/metrics` shows them by name, and docs/deploy.md ("Shares")
 * has one row per entry, kept in step by a test.
 *
 * Kinds: `held` counts places in use at once on this instance (a stream, a delivery slot) and
 * a level of 0 allows none; `rated` counts uses per window (through Redis when configured, so
 * the budget is for all instances together) and a level of 0 turns that level off; `sized`
 * bounds how many of something a tenant may keep (partners, vocabulary keys).
 */
export type ShareLevel = "instance" | "tenant" | "party" | "item";
type ShareKind = "held" | "rated" | "sized";

interface LevelSpec {
  /** The environment variable that sets this level. */
  setting: SettingName;
  /** The default when the setting has none of its own in the schema (derived from others). */
  derive?: (s: Settings) => number;
}

export interface ShareSpec {
  kind: ShareKind;
  /** Rated shares: the length of the fixed window the budget counts in. */
  windowSeconds?: number;
  /** The catalogue code a refusal answers with. */
  code: ErrorCode;
  /** What one unit is, in a refusal's words ("event streams"). */
  unit: string;
  levels: Partial<Record<ShareLevel, LevelSpec>>;
}

export const SHARES = {
  streams: {
    kind: "held",
    code: "too_many_streams",
    unit: "event streams",
    levels: {
      instance: { setting: "GATEWAY_EVENTS_MAX_STREAMS" },
      tenant: { setting: "GATEWAY_EVENTS_MAX_STREAMS_PER_TENANT" },
      party: { setting: "GATEWAY_EVENTS_MAX_STREAMS_PER_CLIENT" },
    },
  },
  stream_opens: {
    kind: "rated",
    windowSeconds: 60,
    code: "rate_limited",
    unit: "event stream opens",
    levels: {
      tenant: { setting: "GATEWAY_SHARE_STREAM_OPENS_PER_TENANT" },
      party: { setting: "GATEWAY_SHARE_STREAM_OPENS_PER_PARTY" },
    },
  },
  replay_events: {
    kind: "sized",
    code: "too_many_streams",
    unit: "replayed events",
    levels: { party: { setting: "GATEWAY_EVENTS_MAX_REPLAY" } },
  },
  replays: {
    kind: "held",
    code: "too_many_streams",
    unit: "event stream replays running",
    levels: {
      instance: { setting: "GATEWAY_EVENTS_MAX_REPLAYS" },
      tenant: { setting: "GATEWAY_EVENTS_MAX_REPLAYS_PER_TENANT" },
    },
  },
  test_sends: {
    kind: "rated",
    windowSeconds: 60,
    code: "rate_limited",
    unit: "webhook test events",
    levels: {
      party: { setting: "GATEWAY_SHARE_TEST_SENDS_PER_PARTNER" },
      item: { setting: "GATEWAY_SHARE_TEST_SENDS_PER_ENDPOINT" },
    },
  },
  webhook_slots: {
    kind: "held",
    code: "rate_limited",
    unit: "webhook deliveries in flight",
    levels: {
      instance: { setting: "GATEWAY_WEBHOOK_CONCURRENCY" },
      party: {
        setting: "GATEWAY_WEBHOOK_PARTNER_CONCURRENCY",
        derive: (s) => Math.max(1, Math.floor(s.GATEWAY_WEBHOOK_CONCURRENCY / 4)),
      },
      item: { setting: "GATEWAY_WEBHOOK_ENDPOINT_CONCURRENCY" },
    },
  },
  refusals: {
    kind: "rated",
    windowSeconds: 60,
    code: "rate_limited",
    unit: "refused requests",
    levels: { party: { setting: "GATEWAY_SHARE_REFUSALS_PER_PARTY" } },
  },
  tenant_reads: {
    kind: "rated",
    windowSeconds: 60,
    code: "rate_limited",
    unit: "tenant API reads",
    levels: {
      tenant: { setting: "GATEWAY_SHARE_TENANT_READS_PER_TENANT" },
      party: { setting: "GATEWAY_SHARE_TENANT_READS_PER_USER" },
    },
  },
  mails: {
    kind: "rated",
    windowSeconds: 3600,
    code: "rate_limited",
    unit: "mails",
    levels: {
      tenant: { setting: "GATEWAY_SHARE_MAILS_PER_TENANT" },
      party: { setting: "GATEWAY_SHARE_MAILS_PER_RECIPIENT" },
    },
  },
  partners: {
    kind: "sized",
    code: "partner_limit",
    unit: "partners",
    levels: { tenant: { setting: "GATEWAY_SHARE_PARTNERS_PER_TENANT" } },
  },
  vocabulary_keys: {
    kind: "sized",
    code: "overrides_invalid",
    unit: "vocabulary keys in one namespace",
    levels: { item: { setting: "GATEWAY_SHARE_VOCABULARY_KEYS" } },
  },
  vocabulary_bytes: {
    kind: "sized",
    code: "overrides_invalid",
    unit: "bytes of one namespace's overrides in one language",
    levels: { item: { setting: "GATEWAY_SHARE_VOCABULARY_BYTES" } },
  },
  vocabulary_namespaces: {
    kind: "sized",
    code: "overrides_invalid",
    unit: "vocabulary namespaces",
    levels: { tenant: { setting: "GATEWAY_SHARE_VOCABULARY_NAMESPACES" } },
  },
} as const satisfies Record<string, ShareSpec>;

export type ShareName = keyof typeof SHARES;
type OfKind<K extends ShareKind> = {
  [N in ShareName]: (typeof SHARES)[N]["kind"] extends K ? N : never;
}[ShareName];
export type HeldShare = OfKind<"held">;
export type RatedShare = OfKind<"rated">;
export type SizedShare = OfKind<"sized">;

/** Each share's budget per level, as configured. */
export type ShareBudgets = { [N in ShareName]: Partial<Record<ShareLevel, number>> };

export const LEVEL_ORDER: readonly ShareLevel[] = ["instance", "tenant", "party", "item"];

/** The budgets the settings give: a level's own setting, else its derived default. */
export function shareBudgetsFrom(s: Settings): ShareBudgets {
  const budgets = {} as ShareBudgets;
  for (const [name, spec] of Object.entries(SHARES) as [ShareName, ShareSpec][]) {
    const levels: Partial<Record<ShareLevel, number>> = {};
    for (const [level, { setting, derive }] of Object.entries(spec.levels) as [
      ShareLevel,
      LevelSpec,
    ][]) {
      const value = s[setting];
      levels[level] = typeof value === "number" ? value : (derive?.(s) ?? 0);
    }
    budgets[name] = levels;
  }
  return budgets;
}

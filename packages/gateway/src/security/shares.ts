import {
  type HeldShare,
  LEVEL_ORDER,
  type RatedShare,
  SHARES,
  type ShareBudgets,
  type ShareLevel,
  type ShareName,
  type ShareSpec,
  type SizedShare,
} from "../config/shares.js";
import { countShareRefusal } from "../observability/metrics.js";
import { ApiError } from "../problems/api-error.js";
import { consumeOrAllow, type RateCounter, type WarnLog } from "./rate-counter.js";

/**
 * Who uses a shared resource: its tenant, the party within it (`partner:<id>`, `user:<id>`,
 * `address:<bucket>` …) and, for shares with a third level, the item (`endpoint:<id>`). An empty
 * tenant (an anonymous caller) skips the tenant level; an absent item skips the item level.
 */
export interface Sharer {
  tenant: string;
  party: string;
  item?: string;
}

/** Gives a held place back; calling it again does nothing. */
export type Release = () => void;

const LEVEL_WORDS: Record<ShareLevel, string> = {
  instance: "on this instance",
  tenant: "for this tenant",
  party: "for this caller",
  item: "for this item",
};

/** Seconds a refused holder is told to wait: places free as streams and deliveries end. */
const HELD_RETRY_AFTER_SECONDS = 5;
/** Above this many remembered refusals, expired ones are swept on the next refusal. */
const REFUSALS_SWEPT_ABOVE = 10_000;

const idAt = (level: ShareLevel, who: Sharer): string | undefined => {
  if (level === "instance") return "*";
  if (level === "tenant") return who.tenant === "" ? undefined : who.tenant;
  if (level === "party") return who.party;
  return who.item;
};

/** The levels of `share` that have a budget and apply to `who`, outermost first. */
function levelsOf(share: ShareName, budgets: ShareBudgets, who: Sharer) {
  const spec: ShareSpec = SHARES[share];
  const out: { level: ShareLevel; id: string; budget: number }[] = [];
  for (const level of LEVEL_ORDER) {
    const budget = budgets[share][level];
    const id = idAt(level, who);
    if (spec.levels[level] === undefined || budget === undefined || id === undefined) continue;
    out.push({ level, id, budget });
  }
  return out;
}

/**
 * Every shared resource's budgets (config/shares.ts) enforced in one place: held places counted
 * in this process, rated uses counted in windows over the rate counter (Redis when configured,
 * so every instance counts together), sizes checked against their bounds. A refusal is a 429 (or
 * the share's code) naming the share and the level whose budget was spent, counted in
 * `orderline_share_refusals_total`.
 */
export class Shares {
  readonly #held = new Map<string, number>();
  /** `share|level|id` → when its current window ends (ms): a refused rated sharer, no I/O to ask. */
  readonly #refusedUntil = new Map<string, number>();

  constructor(
    readonly budgets: ShareBudgets,
    private readonly counter: RateCounter,
    private readonly log: WarnLog,
    private readonly now: () => number = Date.now,
  ) {}

  /** A place of a held share, or a refusal naming the level that is full. */
  hold(share: HeldShare, who: Sharer): Release {
    const taken = this.#take(share, who);
    if (typeof taken === "function") return taken;
    const { level, budget } = taken;
    countShareRefusal(share, level);
    throw refusal(
      share,
      level,
      `${budget} ${SHARES[share].unit} are in use ${LEVEL_WORDS[level]}, its share`,
      HELD_RETRY_AFTER_SECONDS,
    );
  }

  /** The same as hold, undefined instead of a refusal (a worker that simply waits its turn). */
  tryHold(share: HeldShare, who: Sharer): Release | undefined {
    const taken = this.#take(share, who);
    return typeof taken === "function" ? taken : undefined;
  }

  #take(share: HeldShare, who: Sharer): Release | { level: ShareLevel; budget: number } {
    const levels = levelsOf(share, this.budgets, who);
    for (const { level, id, budget } of levels)
      if ((this.#held.get(`${share}|${level}|${id}`) ?? 0) >= budget) return { level, budget };
    const keys = levels.map(({ level, id }) => `${share}|${level}|${id}`);
    for (const key of keys) this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const key of keys) {
        const left = (this.#held.get(key) ?? 1) - 1;
        if (left <= 0) this.#held.delete(key);
        else this.#held.set(key, left);
      }
    };
  }

  /** Places held now at `level` for `id` (the instance's total by default). */
  held(share: HeldShare, level: ShareLevel = "instance", id = "*"): number {
    return this.#held.get(`${share}|${level}|${id}`) ?? 0;
  }

  /** Every held share's places in use on this instance (the `orderline_share_held` gauge). */
  heldNow(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, spec] of Object.entries(SHARES) as [ShareName, ShareSpec][])
      if (spec.kind === "held") out[name] = this.held(name as HeldShare);
    return out;
  }

  /**
   * Counts one use of a rated share at each of its levels; a 429 with Retry-After when a
   * level's budget for the current window is spent. A counter that cannot be reached allows.
   */
  async take(share: RatedShare, who: Sharer): Promise<void> {
    const spec: ShareSpec = SHARES[share];
    const windowMs = (spec.windowSeconds ?? 60) * 1000;
    const levels = levelsOf(share, this.budgets, who).filter(({ budget }) => budget > 0);
    const counted = await Promise.all(
      levels.map(async (entry) => ({
        ...entry,
        consumed: await consumeOrAllow(
          this.counter,
          `share:${share}:${entry.level}:${entry.id}`,
          windowMs,
          this.log,
        ),
      })),
    );
    const over = counted.find(({ consumed, budget }) => consumed && consumed.count > budget);
    if (over?.consumed === undefined) return;
    const retryAfter = Math.max(1, Math.ceil(over.consumed.resetMs / 1000));
    this.#noteRefused(`${share}|${over.level}|${over.id}`, this.now() + over.consumed.resetMs);
    countShareRefusal(share, over.level);
    throw refusal(
      share,
      over.level,
      `More than ${over.budget} ${spec.unit} in ${windowWords(windowMs)} ${LEVEL_WORDS[over.level]}`,
      retryAfter,
    );
  }

  /** The level whose refusal of `who` lasts longest in its current window, and until when. */
  #refusal(share: RatedShare, who: Sharer): { level: ShareLevel; until: number } | undefined {
    // Nobody refused lately: the common case, asked three times per signed request.
    if (this.#refusedUntil.size === 0) return undefined;
    let found: { level: ShareLevel; until: number } | undefined;
    for (const { level, id } of levelsOf(share, this.budgets, who)) {
      const until = this.#refusedUntil.get(`${share}|${level}|${id}`) ?? 0;
      if (until > this.now() && until > (found?.until ?? 0)) found = { level, until };
    }
    return found;
  }

  /**
   * Seconds until `who` may use a rated share again when it was refused in its current window
   * (0 when not): in-process, no I/O, so that a caller already over its budget is turned away
   * before any costly check.
   */
  refusedFor(share: RatedShare, who: Sharer): number {
    const found = this.#refusal(share, who);
    return found === undefined ? 0 : Math.ceil((found.until - this.now()) / 1000);
  }

  /** The same refusal take() gives, for a caller refusedFor() names. */
  refusedError(share: RatedShare, who: Sharer): ApiError | undefined {
    const found = this.#refusal(share, who);
    if (found === undefined) return undefined;
    countShareRefusal(share, found.level);
    return refusal(
      share,
      found.level,
      `The ${SHARES[share].unit} ${LEVEL_WORDS[found.level]} are spent`,
      Math.ceil((found.until - this.now()) / 1000),
    );
  }

  #noteRefused(key: string, until: number): void {
    if (this.#refusedUntil.size > REFUSALS_SWEPT_ABOVE) {
      const now = this.now();
      for (const [k, at] of this.#refusedUntil) if (at <= now) this.#refusedUntil.delete(k);
    }
    this.#refusedUntil.set(key, until);
  }

  /** A sized share's bounds per level. */
  bound(share: SizedShare): Partial<Record<ShareLevel, number>> {
    return this.budgets[share];
  }

  /** Refuses, with the share's code, a `count` beyond the share's (first) bound. */
  checkSize(share: SizedShare, count: number, detail?: string): void {
    const spec: ShareSpec = SHARES[share];
    const level = LEVEL_ORDER.find((l) => spec.levels[l] !== undefined) ?? "tenant";
    const bound = this.budgets[share][level] ?? Number.POSITIVE_INFINITY;
    if (count <= bound) return;
    countShareRefusal(share, level);
    throw new ApiError(
      spec.code,
      detail ?? `At most ${bound} ${spec.unit} ${LEVEL_WORDS[level]}; this would make ${count}.`,
      { share, share_level: level, limit: bound },
    );
  }
}

function windowWords(ms: number): string {
  const seconds = ms / 1000;
  if (seconds % 3600 === 0) return seconds === 3600 ? "an hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "a minute" : `${seconds / 60} minutes`;
  return `${seconds} s`;
}

function refusal(share: ShareName, level: ShareLevel, why: string, retryAfter: number): ApiError {
  return new ApiError(
    SHARES[share].code,
    `${why}; retry in ${retryAfter} s.`,
    { retry_after: retryAfter, share, share_level: level },
    { retryAfterSeconds: retryAfter },
  );
}

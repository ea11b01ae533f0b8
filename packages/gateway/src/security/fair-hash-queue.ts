/** Thrown by `FairHashQueue.run` when a check is refused for load: share, queue full, pushed out. */
export class QueueFull extends Error {
  override name = "QueueFull";

  constructor(
    /** A fair estimate of when a slot frees up, in whole seconds (at least 1). */
    readonly retryAfterSeconds: number,
  ) {
    super("password hashing is busy");
  }
}

import { BoundedCache } from "../lib/bounded-cache.js";

/**
 * Who asks for a password check, as the sign-in throttle sees it. Lower priority numbers go
 * first: 0 an address that signed in successfully lately, 1 an address with no recent failed
 * sign-ins, 2 an address with recent failures (what a guessing flood is made of). The queue
 * itself moves a priority-1 address it keeps refusing for load to 2 (see FairHashQueue).
 */
export interface HashTicket {
  source: string;
  account: string;
  priority: 0 | 1 | 2;
}

interface HashShares {
  /** Checks in flight at once for addresses with failures (priority 2). */
  concurrency: number;
  /**
   * Further checks in flight at once, for addresses that are not flooding (priorities 0 and
   * 1) only: a guessing flood never holds these, so a clean address's check never waits for
   * one of the flood's hashes, which run at nice 10 and crawl when the cores are busy.
   * ScryptThreads must have concurrency + reserved threads.
   */
  reserved: number;
  maxQueue: number;
  /** Checks in flight and waiting at once from one source address. */
  perSource: number;
  /**
   * Checks in flight and waiting at once for one account from flooding addresses (priority
   * 2): a flood on one account gets no more than this, and a clean address is never refused
   * for the flood's share.
   */
  perAccount: number;
}

/**
 * Load refusals, each within STRIKE_WINDOW_MS of the one before, after which a clean address counts as flooding
 * (priority 2): a person told to retry later does so once or twice, a flood's address comes
 * straight back. Until then its refusals cost it nothing.
 */
export const STRIKES = 3;
export const STRIKE_WINDOW_MS = 60_000;

interface Waiting {
  /** The ticket with the priority the queue judged it at. */
  ticket: HashTicket;
  start: () => void;
  refuse: (error: QueueFull) => void;
}

/**
 * The password-hashing capacity of one process, shared fairly so a flood from many addresses
 * cannot starve a sign-in from another. A source (or an account, for flooding addresses) over
 * its share is refused at once, before any hashing, with 503 login_busy; waiting checks start
 * best priority first, then in arrival order; and when the queue is full a newcomer of a better
 * priority takes the place of the newest waiting check of the worst priority, which is refused
 * instead. Only addresses that are not flooding hold the `reserved` threads, so their checks
 * never wait for a flood's hash however slowly the machine runs it.
 *
 * Flooding is what the throttle says (recent failures) or what the queue sees: an address it
 * refused STRIKES times within STRIKE_WINDOW_MS. The second matters because refusals are not
 * failures: a flood's address refused for load before its first hash would otherwise stay
 * "clean" for ever, take clean places and hold the account's share against the owner.
 */
export class FairHashQueue {
  #active = 0;
  readonly #waiting: Waiting[] = [];
  readonly #bySource = new Map<string, number>();
  readonly #byAccount = new Map<string, number>();
  readonly #strikes = new BoundedCache<string, number>(100_000);
  #averageMs = 0;

  constructor(
    readonly shares: HashShares,
    private readonly clock: () => number = performance.now.bind(performance),
  ) {
    for (const [name, value] of Object.entries(shares)) {
      const least = name === "maxQueue" || name === "reserved" ? 0 : 1;
      if (!Number.isInteger(value) || value < least)
        throw new Error(
          `${name} must be a ${least === 0 ? "non-negative" : "positive"} integer, got ${value}`,
        );
    }
  }

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  #refusal(ahead = this.#active + this.#waiting.length): QueueFull {
    return new QueueFull(
      Math.max(1, Math.ceil((ahead * this.#averageMs) / this.shares.concurrency / 1000)),
    );
  }

  /** The priority the queue serves a check at: a clean address it keeps refusing is a flood's. */
  #judge(ticket: HashTicket): HashTicket {
    if (ticket.priority !== 1) return ticket;
    return this.#strikesOf(ticket.source) >= STRIKES ? { ...ticket, priority: 2 } : ticket;
  }

  /** A refusal for load, counted against its source (see STRIKES). */
  #strike(source: string): QueueFull {
    const now = this.clock();
    this.#strikes.set(source, this.#strikesOf(source) + 1, now + STRIKE_WINDOW_MS);
    return this.#refusal();
  }

  /** Whether the queue counts `source` as flooding (refused STRIKES times lately). */
  flooding(source: string): boolean {
    return this.#judge({ source, account: "", priority: 1 }).priority === 2;
  }

  #count(map: Map<string, number>, key: string, delta: number): void {
    const next = (map.get(key) ?? 0) + delta;
    if (next <= 0) map.delete(key);
    else map.set(key, next);
  }

  #hold(ticket: HashTicket, delta: number): void {
    this.#count(this.#bySource, ticket.source, delta);
    if (ticket.priority === 2) this.#count(this.#byAccount, ticket.account, delta);
  }

  #cleanSlots(): number {
    return this.shares.concurrency + this.shares.reserved;
  }

  #freshWaiting(): number {
    return this.#waiting.filter((w) => w.ticket.priority === 1).length;
  }

  #strikesOf(source: string): number {
    return this.#strikes.get(source, this.clock()) ?? 0;
  }

  /** Of the clean checks waiting, the one whose address was refused most (the oldest of them). */
  #mostRefusedFresh(): Waiting | undefined {
    let most: Waiting | undefined;
    for (const entry of this.#waiting) {
      if (entry.ticket.priority !== 1) continue;
      if (!most || this.#strikesOf(entry.ticket.source) > this.#strikesOf(most.ticket.source))
        most = entry;
    }
    return most;
  }

  /** Whether a check of `priority` may start now: a flooding address never takes the reserve. */
  #canStart(priority: HashTicket["priority"]): boolean {
    return this.#active < (priority < 2 ? this.#cleanSlots() : this.shares.concurrency);
  }

  /**
   * The refusal a check of `priority` from `source` would get right now (over its share, or no
   * place to start, wait or push out), or undefined: lets a caller refuse a flood before doing
   * any other work for it. A refusal it returns counts as given (a strike against the source).
   */
  refusalFor(source: string, asked: HashTicket["priority"]): QueueFull | undefined {
    const { priority } = this.#judge({ source, account: "", priority: asked });
    if ((this.#bySource.get(source) ?? 0) >= this.shares.perSource) return this.#strike(source);
    if (this.#canStart(priority) && !this.#waiting[0]) return undefined;
    if (this.#waiting.length < this.shares.maxQueue) return undefined;
    const last = this.#waiting.at(-1);
    return !last || last.ticket.priority <= priority ? this.#strike(source) : undefined;
  }

  /** Waits for a place by priority; rejects with QueueFull when refused or pushed out. */
  #enter(ticket: HashTicket): Promise<void> {
    // Nobody better waits (the queue is sorted): a check that may start, starts.
    const head = this.#waiting[0];
    if (this.#canStart(ticket.priority) && (!head || head.ticket.priority > ticket.priority)) {
      this.#active += 1;
      return Promise.resolve();
    }
    // First contact from a flood's addresses looks like a clean sign-in: at most one round of
    // the threads clean checks may use waits, and a newcomer takes the place of the one whose
    // address was refused most, the oldest of those: a flood's addresses arrive together, and
    // each comes back at once after a refusal, while a person arrives on their own later.
    if (ticket.priority === 1 && this.#freshWaiting() >= this.#cleanSlots()) {
      const displaced = this.#mostRefusedFresh();
      if (!displaced || this.#strikesOf(displaced.ticket.source) < this.#strikesOf(ticket.source))
        return Promise.reject(this.#strike(ticket.source));
      this.#waiting.splice(this.#waiting.indexOf(displaced), 1);
      displaced.refuse(this.#strike(displaced.ticket.source));
    }
    if (this.#waiting.length >= this.shares.maxQueue) {
      // The queue is sorted by (priority, arrival): its last entry is the newest of the worst
      // priority, and it leaves if it is worse than the newcomer.
      const last = this.#waiting.at(-1);
      if (!last || last.ticket.priority <= ticket.priority)
        return Promise.reject(this.#strike(ticket.source));
      this.#waiting.pop();
      last.refuse(this.#strike(last.ticket.source));
    }
    return new Promise<void>((start, refuse) => {
      const entry: Waiting = { ticket, start, refuse };
      // Kept sorted by (priority, arrival): the head is the next to start.
      const at = this.#waiting.findIndex((w) => w.ticket.priority > ticket.priority);
      if (at < 0) this.#waiting.push(entry);
      else this.#waiting.splice(at, 0, entry);
    });
  }

  /**
   * Runs `task` when the check's turn comes; `task` is told the priority the check was served
   * at (where to hash it: a flooding address on the low-priority threads).
   */
  async run<T>(
    asked: HashTicket,
    task: (priority: HashTicket["priority"]) => Promise<T>,
  ): Promise<T> {
    const ticket = this.#judge(asked);
    // Over its share: refused before any hashing, and before taking a place in the queue.
    if ((this.#bySource.get(ticket.source) ?? 0) >= this.shares.perSource)
      throw this.#strike(ticket.source);
    if (
      ticket.priority === 2 &&
      (this.#byAccount.get(ticket.account) ?? 0) >= this.shares.perAccount
    )
      throw this.#strike(ticket.source);
    this.#hold(ticket, 1);
    try {
      await this.#enter(ticket);
    } catch (error) {
      this.#hold(ticket, -1);
      throw error;
    }
    const started = this.clock();
    try {
      return await task(ticket.priority);
    } finally {
      const took = this.clock() - started;
      this.#averageMs = this.#averageMs === 0 ? took : this.#averageMs * 0.8 + took * 0.2;
      this.#hold(ticket, -1);
      this.#active -= 1;
      // The best waiting checks start while they may (the reserve only for clean addresses).
      for (let next = this.#waiting[0]; next && this.#canStart(next.ticket.priority); ) {
        this.#waiting.shift();
        this.#active += 1;
        next.start();
        next = this.#waiting[0];
      }
    }
  }
}

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

/**
 * Who asks for a password check, as the sign-in throttle sees it. Lower priority numbers go
 * first: 0 an address that signed in successfully lately, 1 an address with no recent failed
 * sign-ins, 2 an address with recent failures (what a guessing flood is made of).
 */
export interface HashTicket {
  source: string;
  account: string;
  priority: 0 | 1 | 2;
}

export interface HashShares {
  /** Checks in flight at once for addresses with failures (priority 2). */
  concurrency: number;
  /**
   * Further checks in flight at once, for addresses that recently signed in to the account
   * (priority 0) only: a guessing flood never holds these, so the owner's check never waits
   * for one of its hashes. ScryptThreads must have concurrency + reserved threads.
   */
  reserved: number;
  maxQueue: number;
  /** Checks in flight and waiting at once from one source address. */
  perSource: number;
  /**
   * Checks in flight and waiting at once for one account from addresses that have not signed
   * in to it lately (priorities 1 and 2): a flood on one account gets no more than this.
   */
  perAccount: number;
}

interface Waiting {
  ticket: HashTicket;
  start: () => void;
  refuse: (error: QueueFull) => void;
}

/**
 * The password-hashing capacity of one process, shared fairly so a flood from many addresses
 * cannot starve a sign-in from another. A source (or an account, for addresses that have not
 * signed in to it lately) over its share is refused at once, before any hashing, with 503 login_busy; waiting checks
 * start best priority first, then in arrival order; and when the queue is full a newcomer of a
 * better priority takes the place of the newest waiting check of the worst priority, which is
 * refused instead. Only addresses that recently signed in to the account hold the `reserved`
 * threads, so their checks never wait for a flood's hash.
 */
export class FairHashQueue {
  #active = 0;
  readonly #waiting: Waiting[] = [];
  readonly #bySource = new Map<string, number>();
  readonly #byAccount = new Map<string, number>();
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

  #count(map: Map<string, number>, key: string, delta: number): void {
    const next = (map.get(key) ?? 0) + delta;
    if (next <= 0) map.delete(key);
    else map.set(key, next);
  }

  #hold(ticket: HashTicket, delta: number): void {
    this.#count(this.#bySource, ticket.source, delta);
    if (ticket.priority > 0) this.#count(this.#byAccount, ticket.account, delta);
  }

  /** Whether a check of `priority` may start now: only known addresses take the reserve. */
  #canStart(priority: HashTicket["priority"]): boolean {
    return this.#active < this.shares.concurrency + (priority === 0 ? this.shares.reserved : 0);
  }

  /**
   * The refusal a check of `priority` from `source` would get right now (over its share, or no
   * place to start, wait or push out), or undefined: lets a caller refuse a flood before doing
   * any other work for it.
   */
  refusalFor(source: string, priority: HashTicket["priority"]): QueueFull | undefined {
    if ((this.#bySource.get(source) ?? 0) >= this.shares.perSource) return this.#refusal();
    if (this.#canStart(priority) && !this.#waiting[0]) return undefined;
    if (this.#waiting.length < this.shares.maxQueue) return undefined;
    const last = this.#waiting.at(-1);
    return !last || last.ticket.priority <= priority ? this.#refusal() : undefined;
  }

  /** Waits for a place by priority; rejects with QueueFull when refused or pushed out. */
  #enter(ticket: HashTicket): Promise<void> {
    // Nobody better waits (the queue is sorted): a check that may start, starts.
    const head = this.#waiting[0];
    if (this.#canStart(ticket.priority) && (!head || head.ticket.priority > ticket.priority)) {
      this.#active += 1;
      return Promise.resolve();
    }
    if (this.#waiting.length >= this.shares.maxQueue) {
      // The queue is sorted by (priority, arrival): its last entry is the newest of the worst
      // priority, and it leaves if it is worse than the newcomer.
      const last = this.#waiting.at(-1);
      if (!last || last.ticket.priority <= ticket.priority) return Promise.reject(this.#refusal());
      this.#waiting.pop();
      last.refuse(this.#refusal());
    }
    return new Promise<void>((start, refuse) => {
      const entry: Waiting = { ticket, start, refuse };
      // Kept sorted by (priority, arrival): the head is the next to start.
      const at = this.#waiting.findIndex((w) => w.ticket.priority > ticket.priority);
      if (at < 0) this.#waiting.push(entry);
      else this.#waiting.splice(at, 0, entry);
    });
  }

  async run<T>(ticket: HashTicket, task: () => Promise<T>): Promise<T> {
    // Over its share: refused before any hashing, and before taking a place in the queue.
    if ((this.#bySource.get(ticket.source) ?? 0) >= this.shares.perSource) throw this.#refusal();
    if (ticket.priority > 0 && (this.#byAccount.get(ticket.account) ?? 0) >= this.shares.perAccount)
      throw this.#refusal();
    this.#hold(ticket, 1);
    try {
      await this.#enter(ticket);
    } catch (error) {
      this.#hold(ticket, -1);
      throw error;
    }
    const started = this.clock();
    try {
      return await task();
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

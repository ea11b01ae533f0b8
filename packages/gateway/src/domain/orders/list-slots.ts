/** Thrown by `ListSlots.run` when a listing found no slot in time or no place to wait. */
export class ListsBusy extends Error {
  override name = "ListsBusy";

  constructor(
    /** When a slot is likely free again, in whole seconds (at least 1). */
    readonly retryAfterSeconds: number,
  ) {
    super("order listings are busy");
  }
}

interface ListSlotShares {
  /** Listing reads in flight at once, across everyone. */
  slots: number;
  /** How long a listing may wait for a slot before it is refused. */
  maxWaitMs: number;
  /** Listings one principal (a partner, a tenant) may have waiting at once. */
  perPrincipalQueue: number;
}

interface Waiter {
  start: () => void;
  refuse: (error: ListsBusy) => void;
  timer: NodeJS.Timeout;
}

/**
 * How many listing reads (pages, counts, searches, export pages) run at once, so list traffic
 * can take at most a share of the machine whatever its rate. A listing that finds every slot
 * taken waits, in a queue of its principal; freed slots go to the principals in turn (round
 * robin), so one partner looping listings waits behind its own reads, not everyone's. A listing
 * that waited `maxWaitMs`, or whose principal already has `perPrincipalQueue` waiting, is
 * refused (503 list_busy with Retry-After).
 */
export class ListSlots {
  #active = 0;
  /** Waiting listings by principal; a Map keeps the turn order (next turn: the first key). */
  readonly #queues = new Map<string, Waiter[]>();
  #averageMs = 0;

  constructor(
    readonly shares: ListSlotShares,
    private readonly clock: () => number = performance.now.bind(performance),
  ) {
    for (const [name, value] of Object.entries(shares))
      if (!Number.isInteger(value) || value < 1)
        throw new Error(`${name} must be a positive integer, got ${value}`);
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    let n = 0;
    for (const queue of this.#queues.values()) n += queue.length;
    return n;
  }

  #refusal(): ListsBusy {
    const ahead = this.#active + this.waiting;
    const ms = Math.max(this.#averageMs * (ahead / this.shares.slots), this.shares.maxWaitMs);
    return new ListsBusy(Math.max(1, Math.ceil(ms / 1000)));
  }

  #enter(principal: string): Promise<void> {
    if (this.#active < this.shares.slots && this.#queues.size === 0) {
      this.#active += 1;
      return Promise.resolve();
    }
    const queue = this.#queues.get(principal) ?? [];
    if (queue.length >= this.shares.perPrincipalQueue) return Promise.reject(this.#refusal());
    return new Promise<void>((start, refuse) => {
      const waiter: Waiter = {
        start,
        refuse,
        timer: setTimeout(() => {
          const mine = this.#queues.get(principal);
          const at = mine?.indexOf(waiter) ?? -1;
          if (mine === undefined || at < 0) return;
          mine.splice(at, 1);
          if (mine.length === 0) this.#queues.delete(principal);
          refuse(this.#refusal());
        }, this.shares.maxWaitMs),
      };
      queue.push(waiter);
      this.#queues.set(principal, queue);
    });
  }

  /** The next principal's oldest waiting listing takes the freed slot; its turn ends. */
  #handOver(): void {
    while (this.#active < this.shares.slots) {
      const next = this.#queues.entries().next();
      if (next.done) return;
      const [principal, queue] = next.value;
      const waiter = queue.shift() as Waiter;
      this.#queues.delete(principal);
      if (queue.length > 0) this.#queues.set(principal, queue);
      clearTimeout(waiter.timer);
      this.#active += 1;
      waiter.start();
    }
  }

  async run<T>(principal: string, read: () => Promise<T>): Promise<T> {
    await this.#enter(principal);
    const started = this.clock();
    try {
      return await read();
    } finally {
      const took = this.clock() - started;
      this.#averageMs = this.#averageMs === 0 ? took : this.#averageMs * 0.8 + took * 0.2;
      this.#active -= 1;
      this.#handOver();
    }
  }
}

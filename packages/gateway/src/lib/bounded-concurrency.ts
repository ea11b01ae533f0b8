/** Thrown by `BoundedConcurrency.run` when every slot is busy and the queue is full. */
export class QueueFull extends Error {
  override name = "QueueFull";

  constructor(
    /** A fair estimate of when a slot frees up, in whole seconds (at least 1). */
    readonly retryAfterSeconds: number,
  ) {
    super("every slot is busy and the queue is full");
  }
}

/**
 * Runs at most `concurrency` tasks at once; up to `maxQueue` more wait in arrival order, and
 * beyond that `run` fails at once with QueueFull rather than letting work pile up. Keeps a moving
 * average of task durations to say how long a refused caller should wait.
 */
export class BoundedConcurrency {
  #active = 0;
  readonly #waiting: (() => void)[] = [];
  #averageMs = 0;

  constructor(
    readonly concurrency: number,
    readonly maxQueue: number,
    private readonly clock: () => number = performance.now.bind(performance),
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error(`concurrency must be a positive integer, got ${concurrency}`);
    if (!Number.isInteger(maxQueue) || maxQueue < 0)
      throw new Error(`maxQueue must be a non-negative integer, got ${maxQueue}`);
  }

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active < this.concurrency) {
      this.#active += 1;
    } else if (this.#waiting.length < this.maxQueue) {
      // The slot is handed over by the finishing task, so #active already counts this one.
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      const ahead = this.#active + this.#waiting.length;
      throw new QueueFull(
        Math.max(1, Math.ceil((ahead * this.#averageMs) / this.concurrency / 1000)),
      );
    }
    const started = this.clock();
    try {
      return await task();
    } finally {
      const took = this.clock() - started;
      this.#averageMs = this.#averageMs === 0 ? took : this.#averageMs * 0.8 + took * 0.2;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }
}

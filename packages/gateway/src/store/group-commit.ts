/**
 * Group commit: jobs that arrive while batches are being committed wait and go together in the
 * next batch, so one commit (one fsync) makes many orders durable and batches grow with the
 * load. At most `maxInFlight` batches are in flight (1 for SQLite's single writer; a few for
 * PostgreSQL, whose connections commit in parallel); a lone job goes at the next turn of the
 * event loop.
 */
export type BatchOutcome<R> = { ok: true; value: R } | { ok: false; error: Error };

export class GroupCommit<J, R> {
  #queue: { job: J; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  #scheduled = false;
  readonly #inFlight = new Set<Promise<void>>();

  constructor(
    private readonly runBatch: (jobs: J[]) => Promise<BatchOutcome<R>[]>,
    private readonly maxBatch = 512,
    private readonly maxInFlight = 1,
  ) {}

  submit(job: J): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ job, resolve, reject });
      if (!this.#scheduled && this.#inFlight.size < this.maxInFlight) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Resolves once every submitted job has been committed or failed. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0 || this.#queue.length > 0) {
      await (this.#inFlight.size > 0
        ? Promise.race(this.#inFlight)
        : new Promise((r) => setImmediate(r)));
    }
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#inFlight.size >= this.maxInFlight || this.#queue.length === 0) return;
    const batch = this.#queue.splice(0, this.maxBatch);
    const inFlight: Promise<void> = this.runBatch(batch.map((item) => item.job)).then(
      (results) => {
        batch.forEach((item, i) => {
          const result = results[i];
          if (result?.ok) item.resolve(result.value);
          else item.reject(result?.error ?? new Error("missing batch result"));
        });
      },
      // The commit itself failed: nothing in the batch is durable.
      (error: unknown) => {
        for (const item of batch) item.reject(error);
      },
    );
    this.#inFlight.add(inFlight);
    inFlight.finally(() => {
      this.#inFlight.delete(inFlight);
      // At the next turn of the event loop, not now: the requests whose bytes arrived with this
      // batch's answer are read first and join the next batch (SQLite's batches under the
      // 64-connection bench grew by about a fifth), and much of a commit's cost is per batch
      // (bench/writer-batches.mjs); idle, the turn comes at once.
      if (this.#queue.length > 0 && !this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }
}

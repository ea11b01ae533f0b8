import { Worker } from "node:worker_threads";

/**
 * The code a pool's thread runs: it receives `workerData` and sets its nice value first (Linux
 * nice values are per thread, so `setPriority(0, …)` in a worker changes that thread only;
 * elsewhere it may fail, and the thread keeps the normal priority), then answers each message
 * with `{ value }` or `{ error }`. Evaluated as a CommonJS script, so it runs the same from the
 * sources (tests) and from dist. `body` defines `handle(message)`, returning the value.
 */
export function threadSource(body: string): string {
  return `
const { parentPort, workerData } = require("node:worker_threads");
try { require("node:os").setPriority(0, workerData.nice); } catch {}
${body}
parentPort.on("message", (message) => {
  try {
    parentPort.postMessage({ value: handle(message) });
  } catch (error) {
    parentPort.postMessage({ error: { message: String(error && error.message ? error.message : error), code: error && error.code } });
  }
});`;
}

/** What a thread posts when its handler throws. */
interface PostedError {
  message: string;
  code?: string;
}

interface ThreadPoolOptions {
  /** From threadSource. */
  source: string;
  /** Given to every thread; `nice` is its priority. */
  workerData: { nice: number } & Record<string, unknown>;
  /** Threads at most; they start on first use. */
  size: number;
  /** A job not answered by then is refused with `timedOut()` and its thread replaced. */
  timeoutMs?: number;
  /** How long close() waits for threads still inside a call (unbounded when not given). */
  closeWaitMs?: number;
  /** The error of a job whose handler threw. */
  failed: (posted: PostedError) => Error;
  /** The error of a job refused because the pool is closed. */
  closed: () => Error;
  /** The error of a job whose thread died under it. */
  died: (error: Error) => Error;
  /** The error of a job past `timeoutMs`. */
  timedOut?: () => Error;
}

interface Job {
  message: unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

/**
 * A few worker threads at a chosen CPU priority for work that must not hold the event loop
 * (password hashing, heavy store reads). Jobs beyond the threads wait here in order. A thread
 * that dies, or (with `timeoutMs`) does not answer in time, fails its job and is replaced for
 * the jobs waiting: no caller waits on it for ever. Idle threads do not keep a process alive.
 */
export class ThreadPool<M, V> {
  readonly #idle: Worker[] = [];
  readonly #busy = new Map<Worker, Job>();
  readonly #waiting: Job[] = [];
  /** Threads given up on (timed out or closed): terminated, their exit expected. */
  readonly #retired = new Set<Worker>();
  #closed = false;

  constructor(private readonly options: ThreadPoolOptions) {}

  /** Threads running now, busy or idle. */
  get threads(): number {
    return this.#idle.length + this.#busy.size;
  }

  run(message: M): Promise<V> {
    return new Promise<unknown>((resolve, reject) => {
      if (this.#closed) {
        reject(this.options.closed());
        return;
      }
      const job: Job = { message, resolve, reject };
      const worker =
        this.#idle.pop() ?? (this.threads < this.options.size ? this.#spawn() : undefined);
      if (worker) this.#start(worker, job);
      else this.#waiting.push(job);
    }) as Promise<V>;
  }

  #spawn(): Worker {
    const worker = new Worker(this.options.source, {
      eval: true,
      workerData: this.options.workerData,
    });
    worker.unref();
    worker.on("message", (answer: { value?: unknown; error?: PostedError }) => {
      const job = this.#finish(worker);
      if (answer.error) job?.reject(this.options.failed(answer.error));
      else job?.resolve(answer.value);
      if (job) this.#next(worker);
    });
    const died = (error: Error) => {
      if (this.#retired.delete(worker)) return;
      const job = this.#finish(worker);
      const at = this.#idle.indexOf(worker);
      if (at >= 0) this.#idle.splice(at, 1);
      job?.reject(this.options.died(error));
      this.#startWaiting();
    };
    worker.on("error", died);
    worker.on("exit", (code) => died(new Error(`exited with code ${code}`)));
    return worker;
  }

  #finish(worker: Worker): Job | undefined {
    const job = this.#busy.get(worker);
    this.#busy.delete(worker);
    if (job?.timer) clearTimeout(job.timer);
    return job;
  }

  #start(worker: Worker, job: Job): void {
    this.#busy.set(worker, job);
    const { timeoutMs, timedOut } = this.options;
    if (timeoutMs !== undefined && timedOut)
      job.timer = setTimeout(() => this.#giveUp(worker, timedOut()), timeoutMs);
    worker.postMessage(job.message);
  }

  /** A job past its time: refused, its thread terminated (a call in it cannot be interrupted). */
  #giveUp(worker: Worker, error: Error): void {
    const job = this.#finish(worker);
    this.#retired.add(worker);
    void worker.terminate();
    job?.reject(error);
    this.#startWaiting();
  }

  #next(worker: Worker): void {
    const job = this.#waiting.shift();
    if (job && !this.#closed) this.#start(worker, job);
    else this.#idle.push(worker);
  }

  /** After a thread was lost: waiting jobs get a new one while there is room. */
  #startWaiting(): void {
    while (!this.#closed && this.#waiting.length > 0 && this.threads < this.options.size) {
      this.#start(this.#spawn(), this.#waiting.shift() as Job);
    }
  }

  /** Refuses what waits or runs and stops every thread. */
  async close(): Promise<void> {
    this.#closed = true;
    const error = this.options.closed();
    for (const job of this.#waiting.splice(0)) job.reject(error);
    const workers = [...this.#idle.splice(0), ...this.#busy.keys()];
    for (const worker of [...this.#busy.keys()]) this.#finish(worker)?.reject(error);
    for (const worker of workers) this.#retired.add(worker);
    const stopped = Promise.all(workers.map((w) => w.terminate()));
    const { closeWaitMs } = this.options;
    if (closeWaitMs === undefined) {
      await stopped;
      return;
    }
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([
      stopped,
      new Promise((resolve) => {
        bound = setTimeout(resolve, closeWaitMs);
        bound.unref();
      }),
    ]);
    clearTimeout(bound);
  }
}

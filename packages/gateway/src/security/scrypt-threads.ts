import { type ScryptOptions, scrypt } from "node:crypto";
import { Worker } from "node:worker_threads";

/** scrypt with Node's signature, as a promise. */
export type Scrypt = (
  password: string,
  salt: Buffer,
  keyLength: number,
  options: ScryptOptions,
) => Promise<Buffer>;

/** Node's own asynchronous scrypt: libuv's thread pool (what the admin CLI uses). */
export const scryptOnPool: Scrypt = (password, salt, keyLength, options) =>
  new Promise((resolve, reject) =>
    scrypt(password, salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

// Evaluated as a CommonJS script, so it runs the same from the sources (tests) and from dist.
// setPriority(0, …) in a worker changes the calling thread only (Linux nice values are per
// thread); elsewhere it may fail, and the thread keeps the normal priority.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { scryptSync } = require("node:crypto");
try { require("node:os").setPriority(0, workerData.nice); } catch {}
parentPort.on("message", ({ password, salt, keyLength, options }) => {
  try {
    const key = scryptSync(password, Buffer.from(salt), keyLength, options);
    parentPort.postMessage({ key });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  }
});`;

interface Job {
  message: { password: string; salt: Uint8Array; keyLength: number; options: ScryptOptions };
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

/**
 * Password hashing on worker threads of its own, each at a lower CPU priority (nice 10), off
 * libuv's thread pool: hashing is CPU-bound, and at normal priority a few hashes take the CPU
 * from the thread that serves HTTP (and, on the pool, its slots from everything else).
 * `size` threads; more calls wait here in order (callers bound them with FairHashQueue).
 */
export class ScryptThreads {
  readonly #idle: Worker[] = [];
  readonly #busy = new Map<Worker, Job>();
  readonly #waiting: Job[] = [];
  #spawned = 0;
  #closed = false;

  /** Threads start on first use, so a gateway that nobody signs in to starts none. */
  constructor(
    private readonly size: number,
    private readonly nice = 10,
  ) {}

  #spawn(): Worker {
    this.#spawned += 1;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { nice: this.nice } });
    // Idle hashing threads must not keep a finished process alive.
    worker.unref();
    worker.on("message", (answer: { key?: Uint8Array; error?: string }) => {
      const job = this.#busy.get(worker);
      this.#busy.delete(worker);
      if (answer.key) job?.resolve(Buffer.from(answer.key));
      else job?.reject(new Error(answer.error ?? "scrypt failed"));
      this.#release(worker);
    });
    worker.on("error", (error) => {
      const job = this.#busy.get(worker);
      this.#busy.delete(worker);
      job?.reject(error);
      this.#spawned -= 1;
      const next = this.#waiting.shift();
      if (next && !this.#closed) this.#start(this.#spawn(), next);
    });
    return worker;
  }

  #release(worker: Worker): void {
    const next = this.#waiting.shift();
    if (next) this.#start(worker, next);
    else this.#idle.push(worker);
  }

  #start(worker: Worker, job: Job): void {
    this.#busy.set(worker, job);
    worker.postMessage(job.message);
  }

  readonly scrypt: Scrypt = (password, salt, keyLength, options) =>
    new Promise((resolve, reject) => {
      if (this.#closed) {
        reject(new Error("password hashing threads are closed"));
        return;
      }
      const job = { message: { password, salt, keyLength, options }, resolve, reject };
      const worker = this.#idle.pop() ?? (this.#spawned < this.size ? this.#spawn() : undefined);
      if (worker) this.#start(worker, job);
      else this.#waiting.push(job);
    });

  async close(): Promise<void> {
    this.#closed = true;
    const error = new Error("password hashing threads are closed");
    for (const job of this.#waiting.splice(0)) job.reject(error);
    const workers = [...this.#idle.splice(0), ...this.#busy.keys()];
    for (const job of this.#busy.values()) job.reject(error);
    this.#busy.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

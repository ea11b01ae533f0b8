import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { defaultListSlots } from "../../config/config.js";
import { StoreOutageError } from "../outage.js";
import { fromWire, type WireError } from "./order-writer.js";

// Evaluated as a CommonJS script, so it runs the same from the sources (tests) and from dist.
// setPriority(0, …) in a worker changes the calling thread only (Linux nice values are per
// thread); elsewhere it may fail, and the thread keeps the normal priority. Each statement is
// its own read transaction on a WAL snapshot: it sees every commit made before it started.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
try { require("node:os").setPriority(0, workerData.nice); } catch {}
const Database = require(workerData.driver);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
db.pragma("busy_timeout = 5000");
const statements = new Map();
parentPort.on("message", ({ sql, params }) => {
  try {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    parentPort.postMessage({ rows: statement.all(...params) });
  } catch (error) {
    parentPort.postMessage({ error: { message: String(error && error.message ? error.message : error), code: error && error.code } });
  }
});`;

const DRIVER = createRequire(import.meta.url).resolve("better-sqlite3");

export interface ReaderOptions {
  /** Threads at most; each holds one read-only connection (default: defaultListSlots). */
  size?: number;
  /** The threads' nice value: reads yield the CPU to the threads serving HTTP and writing. */
  nice?: number;
  /** A read not answered by then fails as an outage and its thread is replaced. */
  timeoutMs?: number;
}

interface Read {
  sql: string;
  params: unknown[];
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
}

/**
 * The heavy reads of the embedded store (listings, counts, searches, exports) on a few worker
 * threads, each with a read-only connection over WAL, at a lower CPU priority: a read that
 * takes long blocks a reader thread, never the event loop that serves creates, and when the
 * cores are busy the reads wait for them rather than the creates. Threads start on first use.
 * A read that fails to answer in `timeoutMs` (a stuck query) or whose thread dies is refused as
 * an outage (503 store_unavailable) and the thread replaced: no request waits on it for ever.
 */
export class ReaderThreads {
  readonly #idle: Worker[] = [];
  readonly #busy = new Map<Worker, Read>();
  readonly #waiting: Read[] = [];
  /** Threads given up on (timed out): terminated, not waited for. */
  readonly #retired = new Set<Worker>();
  readonly #size: number;
  readonly #nice: number;
  readonly #timeoutMs: number;
  #closed = false;

  constructor(
    private readonly path: string,
    options: ReaderOptions = {},
  ) {
    // As many as listings may read at once (more would only queue for the same cores).
    this.#size = options.size ?? defaultListSlots();
    this.#nice = options.nice ?? 10;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Threads running now, busy or idle (for tests and metrics). */
  get threads(): number {
    return this.#idle.length + this.#busy.size;
  }

  rows<R>(sql: string, params: unknown[]): Promise<R[]> {
    return new Promise<unknown[]>((resolve, reject) => {
      if (this.#closed) {
        reject(new StoreOutageError("the store's reader threads are closed"));
        return;
      }
      const read: Read = { sql, params, resolve, reject };
      const worker = this.#idle.pop() ?? (this.threads < this.#size ? this.#spawn() : undefined);
      if (worker) this.#start(worker, read);
      else this.#waiting.push(read);
    }) as Promise<R[]>;
  }

  #spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.path, nice: this.#nice, driver: DRIVER },
    });
    // Idle readers must not keep a finished process alive (a pending read's timer does).
    worker.unref();
    worker.on("message", (answer: { rows?: unknown[]; error?: WireError }) => {
      const read = this.#finish(worker);
      if (answer.rows) read?.resolve(answer.rows);
      else read?.reject(fromWire(answer.error ?? { message: "read failed" }));
      if (read) this.#next(worker);
    });
    const died = (error: Error) => {
      if (this.#retired.delete(worker)) return;
      const read = this.#finish(worker);
      const at = this.#idle.indexOf(worker);
      if (at >= 0) this.#idle.splice(at, 1);
      read?.reject(new StoreOutageError(`a store reader thread failed: ${error.message}`));
      this.#startWaiting();
    };
    worker.on("error", died);
    worker.on("exit", (code) => died(new Error(`exited with code ${code}`)));
    return worker;
  }

  #finish(worker: Worker): Read | undefined {
    const read = this.#busy.get(worker);
    this.#busy.delete(worker);
    if (read?.timer) clearTimeout(read.timer);
    return read;
  }

  #start(worker: Worker, read: Read): void {
    this.#busy.set(worker, read);
    read.timer = setTimeout(() => this.#giveUp(worker), this.#timeoutMs);
    worker.postMessage({ sql: read.sql, params: read.params });
  }

  /** A read past its time: refused, and its thread replaced (SQLite cannot be interrupted). */
  #giveUp(worker: Worker): void {
    const read = this.#finish(worker);
    this.#retired.add(worker);
    void worker.terminate();
    read?.reject(new StoreOutageError(`a store read took longer than ${this.#timeoutMs} ms`));
    this.#startWaiting();
  }

  #next(worker: Worker): void {
    const read = this.#waiting.shift();
    if (read && !this.#closed) this.#start(worker, read);
    else this.#idle.push(worker);
  }

  /** After a thread was lost: waiting reads get a new one while there is room. */
  #startWaiting(): void {
    while (!this.#closed && this.#waiting.length > 0 && this.threads < this.#size) {
      const read = this.#waiting.shift() as Read;
      this.#start(this.#spawn(), read);
    }
  }

  /** Refuses what waits or runs and stops every thread (a stuck one is not waited for). */
  async close(): Promise<void> {
    this.#closed = true;
    const error = new StoreOutageError("the store's reader threads are closed");
    for (const read of this.#waiting.splice(0)) read.reject(error);
    const workers = [...this.#idle.splice(0), ...this.#busy.keys()];
    for (const worker of [...this.#busy.keys()]) this.#finish(worker)?.reject(error);
    for (const worker of workers) this.#retired.add(worker);
    // A thread inside a long SQLite call stops only when the call returns: not waited for
    // beyond a second (its read was refused above; the process may exit under it).
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(workers.map((w) => w.terminate())),
      new Promise((resolve) => {
        bound = setTimeout(resolve, 1_000);
        bound.unref();
      }),
    ]);
    clearTimeout(bound);
  }
}

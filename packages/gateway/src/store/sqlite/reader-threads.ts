import { createRequire } from "node:module";
import { defaultListSlots } from "../../config/config.js";
import { ThreadPool, threadSource } from "../../lib/thread-pool.js";
import { StoreOutageError } from "../outage.js";
import { fromWire } from "./order-writer.js";

// Each statement is its own read transaction on a WAL snapshot: it sees every commit made
// before it started.
const SOURCE = threadSource(`
const Database = require(workerData.driver);
const db = new Database(workerData.path, { readonly: true, fileMustExist: true });
db.pragma("busy_timeout = 5000");
const statements = new Map();
const handle = ({ sql, params }) => {
  let statement = statements.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
  }
  return statement.all(...params);
};`);

const DRIVER = createRequire(import.meta.url).resolve("better-sqlite3");

export interface ReaderOptions {
  /** Threads at most; each holds one read-only connection (default: defaultListSlots). */
  size?: number;
  /** The threads' nice value: reads yield the CPU to the threads serving HTTP and writing. */
  nice?: number;
  /** A read not answered by then fails as an outage and its thread is replaced. */
  timeoutMs?: number;
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
  readonly #pool: ThreadPool<{ sql: string; params: unknown[] }, unknown[]>;

  constructor(path: string, options: ReaderOptions = {}) {
    const timeoutMs = options.timeoutMs ?? 10_000;
    this.#pool = new ThreadPool({
      source: SOURCE,
      workerData: { path, nice: options.nice ?? 10, driver: DRIVER },
      // As many as listings may read at once (more would only queue for the same cores).
      size: options.size ?? defaultListSlots(),
      timeoutMs,
      // A thread inside a long SQLite call stops only when the call returns: not waited for
      // beyond a second (its read was refused; the process may exit under it).
      closeWaitMs: 1_000,
      failed: (posted) => fromWire(posted),
      closed: () => new StoreOutageError("the store's reader threads are closed"),
      died: (error) => new StoreOutageError(`a store reader thread failed: ${error.message}`),
      timedOut: () => new StoreOutageError(`a store read took longer than ${timeoutMs} ms`),
    });
  }

  /** Threads running now, busy or idle (for tests and metrics). */
  get threads(): number {
    return this.#pool.threads;
  }

  rows<R>(sql: string, params: unknown[]): Promise<R[]> {
    return this.#pool.run({ sql, params }) as Promise<R[]>;
  }

  /** Refuses what waits or runs and stops every thread (a stuck one is not waited for). */
  close(): Promise<void> {
    return this.#pool.close();
  }
}

import { type ScryptOptions, scrypt } from "node:crypto";
import { ThreadPool, threadSource } from "../lib/thread-pool.js";

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

const SOURCE = threadSource(`
const { scryptSync } = require("node:crypto");
const handle = ({ password, salt, keyLength, options }) =>
  scryptSync(password, Buffer.from(salt), keyLength, options);`);

const CLOSED = "password hashing threads are closed";

type Job = { password: string; salt: Uint8Array; keyLength: number; options: ScryptOptions };

/**
 * Password hashing on worker threads of its own, each at a lower CPU priority (nice 10), off
 * libuv's thread pool: hashing is CPU-bound, and at normal priority a few hashes take the CPU
 * from the thread that serves HTTP (and, on the pool, its slots from everything else).
 * `size` threads, started on first use (a gateway that nobody signs in to starts none); more
 * calls wait in order (callers bound them with FairHashQueue).
 */
export class ScryptThreads {
  readonly #pool: ThreadPool<Job, Uint8Array>;

  constructor(size: number, nice = 10) {
    this.#pool = new ThreadPool({
      source: SOURCE,
      workerData: { nice },
      size,
      failed: (posted) => new Error(posted.message),
      closed: () => new Error(CLOSED),
      died: (error) => error,
    });
  }

  readonly scrypt: Scrypt = async (password, salt, keyLength, options) =>
    Buffer.from(await this.#pool.run({ password, salt, keyLength, options }));

  close(): Promise<void> {
    return this.#pool.close();
  }
}

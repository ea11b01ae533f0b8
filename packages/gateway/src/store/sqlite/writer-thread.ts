import { parentPort, workerData } from "node:worker_threads";
import type { SqliteSynchronous } from "../../config/config.js";
import type { NonceClaim } from "../tenant-store.js";
import { openConnection } from "./connection.js";
import { createNonceWriter } from "./nonce-writer.js";
import {
  createOrderWriter,
  fromWireJob,
  toWire,
  toWireResult,
  type WireJob,
} from "./order-writer.js";

/**
 * The order writer thread: owns one connection and commits batches of order creations (and of
 * replay-guard nonces), so the fsync of each commit and the wait for the write lock block this
 * thread, never the one serving HTTP.
 */
const port = parentPort;
if (port) {
  const { path, synchronous } = workerData as { path: string; synchronous: SqliteSynchronous };
  const db = openConnection(path, synchronous);
  // The writer's statement and savepoint journals in memory, not in temporary files: write
  // system calls per order fewer, and they are scratch, never read after a crash. (Only here:
  // a reader's large sort stays free to spill to disk.)
  db.pragma("temp_store = MEMORY");
  const write = createOrderWriter(db);
  const claim = createNonceWriter(db);
  type Message =
    | { id: number; jobs: WireJob[] }
    | { id: number; nonces: NonceClaim[] }
    | { close: true };
  port.on("message", (message: Message) => {
    if ("close" in message) {
      db.close();
      port.close();
      return;
    }
    if ("nonces" in message) {
      try {
        port.postMessage({ id: message.id, claimed: claim(message.nonces) });
      } catch (error) {
        port.postMessage({ id: message.id, error: toWire(error) });
      }
      return;
    }
    try {
      const results = write(message.jobs.map(fromWireJob)).map(toWireResult);
      port.postMessage({ id: message.id, results });
    } catch (error) {
      port.postMessage({ id: message.id, error: toWire(error) });
    }
  });
}

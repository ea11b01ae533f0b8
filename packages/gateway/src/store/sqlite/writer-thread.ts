import { parentPort, workerData } from "node:worker_threads";
import type { SqliteSynchronous } from "../../config/config.js";
import { openConnection } from "./connection.js";
import { type CreateJob, createOrderWriter, toWire } from "./order-writer.js";

/**
 * The order writer thread: owns one connection and commits batches of order creations, so the
 * fsync of each commit blocks this thread, never the one serving HTTP.
 */
const port = parentPort;
if (port) {
  const { path, synchronous } = workerData as { path: string; synchronous: SqliteSynchronous };
  const db = openConnection(path, synchronous);
  const write = createOrderWriter(db);
  port.on("message", (message: { id: number; jobs: CreateJob[] } | { close: true }) => {
    if ("close" in message) {
      db.close();
      port.close();
      return;
    }
    try {
      const results = write(message.jobs).map((r) =>
        r.ok ? r : { ok: false, error: toWire(r.error) },
      );
      port.postMessage({ id: message.id, results });
    } catch (error) {
      port.postMessage({ id: message.id, error: toWire(error) });
    }
  });
}

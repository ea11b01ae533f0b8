import Database from "better-sqlite3";
import type { SqliteSynchronous } from "../../config/config.js";

/**
 * Opens a connection with the durability settings of the embedded store: WAL, so readers never
 * wait for the writer, and synchronous=FULL, so a commit is on disk (fsync) before it returns
 * and an acknowledged order survives a power cut, not only a crash.
 */
export function openConnection(
  path: string,
  synchronous: SqliteSynchronous = "full",
): Database.Database {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${synchronous === "normal" ? "NORMAL" : "FULL"}`);
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  return db;
}

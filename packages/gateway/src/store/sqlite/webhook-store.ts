import type Database from "better-sqlite3";
import { SqlWebhookStore, sqliteDispatch, UNDISPATCHED } from "../sql-webhook-store.js";
import { SqliteRunner } from "./runner.js";

/** The webhook store on the embedded connection; one process delivers, so no row locks. */
export class SqliteWebhookStore extends SqlWebhookStore {
  constructor(db: Database.Database) {
    super(new SqliteRunner(db));
  }

  /**
   * Orders and moves queue their deliveries as they write their events (QUEUE_EVENT); this only
   * catches rows written undispatched (by a build before that), and reads before it writes.
   */
  async dispatchEvents(limit: number, at: number): Promise<number> {
    const [pending] = await this.sql.rows(`${UNDISPATCHED.replace("LIMIT ?", "LIMIT 1")}`, []);
    if (pending === undefined) return 0;
    const [, marked] = await this.sql.atomically(sqliteDispatch(limit, at));
    return marked?.changes ?? 0;
  }
}

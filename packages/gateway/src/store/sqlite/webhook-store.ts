import type Database from "better-sqlite3";
import { SqlWebhookStore, sqliteDispatch } from "../sql-webhook-store.js";
import { SqliteRunner } from "./runner.js";

/** The webhook store on the embedded connection; one process delivers, so no row locks. */
export class SqliteWebhookStore extends SqlWebhookStore {
  constructor(db: Database.Database) {
    super(new SqliteRunner(db));
  }

  async dispatchEvents(limit: number, at: number): Promise<number> {
    const [, marked] = await this.sql.atomically(sqliteDispatch(limit, at));
    return marked?.changes ?? 0;
  }
}

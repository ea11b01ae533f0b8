import type pg from "pg";
import { queueStatement, SqlWebhookStore, UNDISPATCHED } from "../sql-webhook-store.js";
import { PostgresRunner } from "./runner.js";

/**
 * The fan-out as one statement: the batch is read once (one snapshot), locked with SKIP LOCKED so
 * instances fanning out at once take disjoint events, queued and marked together.
 */
const DISPATCH = `WITH batch AS (${UNDISPATCHED} FOR UPDATE SKIP LOCKED),
  queued AS (${queueStatement("batch")})
  UPDATE order_events SET dispatched_at = ? WHERE seq IN (SELECT seq FROM batch)`;

/** The webhook store on PostgreSQL: claims skip rows other instances hold. */
export class PostgresWebhookStore extends SqlWebhookStore {
  constructor(pool: pg.Pool) {
    super(new PostgresRunner(pool), "FOR UPDATE OF d SKIP LOCKED");
  }

  async dispatchEvents(limit: number, at: number): Promise<number> {
    return this.sql.changes(DISPATCH, [limit, at, at, at, at]);
  }
}

import type pg from "pg";
import { queueStatement, SqlWebhookStore, UNDISPATCHED } from "../sql-webhook-store.js";
import { listenOn } from "./listen.js";
import { PostgresRunner } from "./runner.js";

/**
 * The fan-out as one statement: the batch is read once (one snapshot), locked with SKIP LOCKED so
 * instances fanning out at once take disjoint events, queued and marked together.
 */
const DISPATCH = `WITH batch AS (${UNDISPATCHED} FOR UPDATE SKIP LOCKED),
  queued AS (${queueStatement("batch")})
  UPDATE order_events SET dispatched_at = ? WHERE seq IN (SELECT seq FROM batch)`;

/** What migration 018's triggers notify when webhook work is written (deliveries, events to fan out). */
const WORK_CHANNEL = "orderline_webhooks";

/** The webhook store on PostgreSQL: claims skip rows other instances hold. */
export class PostgresWebhookStore extends SqlWebhookStore {
  constructor(
    private readonly pool: pg.Pool,
    /** False behind a transaction pooler: the worker's polls find the work (pool.ts). */
    private readonly listens = true,
  ) {
    super(new PostgresRunner(pool), "FOR UPDATE OF d SKIP LOCKED");
  }

  async dispatchEvents(limit: number, at: number): Promise<number> {
    return this.sql.changes(DISPATCH, [limit, at, at, at, at]);
  }

  /**
   * Wakes `listener` on the notifications migration 018's triggers send when deliveries or
   * events still to fan out are written, on any instance (listen.ts holds the connection); once more each time
   * the LISTEN is (re)established, for work written while no one listened.
   */
  onWork(listener: () => void): () => Promise<void> {
    if (!this.listens) return async () => {};
    return listenOn(this.pool, [WORK_CHANNEL], () => listener(), listener);
  }
}

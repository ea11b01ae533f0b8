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

/** The channel migration 013's triggers notify (orderline_webhooks_notify). */
const WORK_CHANNEL = "orderline_webhooks";

/** The webhook store on PostgreSQL: claims skip rows other instances hold. */
export class PostgresWebhookStore extends SqlWebhookStore {
  constructor(private readonly pool: pg.Pool) {
    super(new PostgresRunner(pool), "FOR UPDATE OF d SKIP LOCKED");
  }

  async dispatchEvents(limit: number, at: number): Promise<number> {
    return this.sql.changes(DISPATCH, [limit, at, at, at, at]);
  }

  /**
   * LISTENs on one connection of the pool (held until stopped) for the notifications migration
   * 013's triggers send when events or deliveries are written, on any instance. A lost
   * connection is replaced a second later; meanwhile the worker's polling still finds the work.
   */
  onWork(listener: () => void): () => Promise<void> {
    let held: { client: pg.PoolClient; release: (error?: Error) => void } | undefined;
    let stopped = false;
    let retry: NodeJS.Timeout | undefined;
    const listen = async () => {
      try {
        const connected = await this.pool.connect();
        // A client may report several errors, or one after it was released on stop: it goes
        // back to the pool once, or pg-pool throws from inside the error event.
        let released = false;
        const release = (error?: Error) => {
          if (released) return;
          released = true;
          connected.release(error);
        };
        held = { client: connected, release };
        connected.on("notification", listener);
        connected.on("error", (error) => {
          if (held?.client === connected) held = undefined;
          release(error);
          if (!stopped && !retry) retry = setTimeout(relisten, 1000).unref();
        });
        await connected.query(`LISTEN ${WORK_CHANNEL}`);
        if (stopped) release();
        else listener(); // work written while no one listened
      } catch {
        if (!stopped && !retry) retry = setTimeout(relisten, 1000).unref();
      }
    };
    const relisten = () => {
      retry = undefined;
      void listen();
    };
    void listen();
    return async () => {
      stopped = true;
      clearTimeout(retry);
      const listening = held;
      held = undefined;
      if (listening) {
        await listening.client.query(`UNLISTEN ${WORK_CHANNEL}`).catch(() => {});
        listening.release();
      }
    };
  }
}

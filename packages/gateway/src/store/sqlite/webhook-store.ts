import type Database from "better-sqlite3";
import { SqlWebhookStore, sqliteDispatch, UNDISPATCHED } from "../sql-webhook-store.js";
import type { ClaimedDelivery, ClaimShares } from "../webhook-store.js";
import { SqliteRunner } from "./runner.js";

/** Whether an enabled endpoint has a delivery due and unlocked (params: now, now). */
const ANY_DUE = `SELECT 1 FROM webhook_endpoints w JOIN webhook_deliveries d ON d.endpoint_id = w.id
   WHERE w.enabled = 1 AND d.state = 'pending' AND d.next_attempt_at <= ? AND d.locked_until <= ?
   LIMIT 1`;

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

  /**
   * Reads before it writes, like dispatchEvents: the claim is an UPDATE, so it waits for the
   * write lock, which the order writer thread holds through each batch's commit; run from the
   * HTTP thread at every poll, that held up every request for milliseconds (up to tens under
   * load, measured) even with no endpoint at all.
   */
  override async claimDeliveries(
    now: number,
    lockedUntil: number,
    lease: string,
    limit: number,
    perEndpoint?: number,
    shares?: ClaimShares,
  ): Promise<ClaimedDelivery[]> {
    const [due] = await this.sql.rows(ANY_DUE, [now, now]);
    if (due === undefined) return [];
    return super.claimDeliveries(now, lockedUntil, lease, limit, perEndpoint, shares);
  }
}

import { type OrderEventRow, type Statement, toEvent } from "./order-moves.js";
import type { SqlRunner } from "./sql-runner.js";
import type { OrderEventRecord } from "./store.js";
import type {
  ClaimedDelivery,
  ClaimShares,
  DeliveryAttemptRecord,
  FinishedAttempt,
  WebhookEndpointChange,
  WebhookEndpointRecord,
  WebhookStore,
  WebhookTestEventRecord,
} from "./webhook-store.js";
import { TEST_EVENT_TYPE } from "./webhook-store.js";

interface EndpointRow {
  id: string;
  partner_id: string;
  url: string;
  events: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: number | null;
  enabled: number;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
  last_success_at: number | null;
  failing_since: number | null;
}

interface AttemptRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: "succeeded" | "failed";
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  attempted_at: number;
}

interface ClaimRow {
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempts: number;
  created_at: number;
  lease: string;
  locked_until: number;
}

const toEndpoint = (r: EndpointRow): WebhookEndpointRecord => ({
  id: r.id,
  partnerId: r.partner_id,
  url: r.url,
  events: JSON.parse(r.events) as string[],
  secretSealed: r.secret_sealed,
  previousSecretSealed: r.previous_secret_sealed,
  previousSecretUntil: r.previous_secret_until,
  enabled: Number(r.enabled) === 1,
  disabledReason: r.disabled_reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  lastSuccessAt: r.last_success_at,
  failingSince: r.failing_since,
});

const toAttempt = (r: AttemptRow): DeliveryAttemptRecord => ({
  id: r.id,
  endpointId: r.endpoint_id,
  eventId: r.event_id,
  eventType: r.event_type,
  attempt: r.attempt,
  status: r.status,
  responseStatus: r.response_status,
  durationMs: r.duration_ms,
  error: r.error,
  attemptedAt: r.attempted_at,
});

/**
 * Queues an event for one endpoint, due now, with a fresh retry window: a new delivery or a
 * finished one made pending. An attempt in flight keeps its lock (no second delivery at the same
 * time) but loses its claim (lease NULL): finishing, it cannot mark the resent delivery done; it
 * frees it. Params: endpoint, event, type, at, at, at.
 */
const RESEND = `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, state, attempts, next_attempt_at, locked_until, lease, created_at, updated_at)
   VALUES (?, ?, ?, 'pending', 0, ?, 0, NULL, ?, ?)
   ON CONFLICT (endpoint_id, event_id) DO UPDATE SET state = 'pending', lease = NULL, next_attempt_at = excluded.next_attempt_at, created_at = excluded.created_at, updated_at = excluded.updated_at`;

/** The delivered type of an outbox row `e`: a status change goes out as `order.<to_status>`. */
const DELIVERED_TYPE =
  "CASE WHEN e.type = 'order.created' THEN 'order.created' ELSE 'order.' || e.to_status END";

/**
 * Queues the outbox rows of `batch` (a subquery aliased `e`) for every enabled endpoint of their
 * partner that subscribes to their type. `events` is a JSON array of fixed `order.<word>` names,
 * so looking for the quoted name in its text is an exact match in both dialects. (`WHERE 1 = 1`
 * lets SQLite parse ON CONFLICT after INSERT … SELECT.) `at`: the queueing time, three `?`
 * params by default, or an expression over `e` (`e.created_at`). `join`: SQLite's `CROSS JOIN`
 * keeps the batch the outer loop whatever the planner estimates.
 */
export const queueStatement = (batch: string, at = "?", join = "JOIN"): string =>
  `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, state, attempts, next_attempt_at, locked_until, lease, created_at, updated_at)
   SELECT w.id, e.id, ${DELIVERED_TYPE}, 'pending', 0, CAST(${at} AS BIGINT), 0, NULL, CAST(${at} AS BIGINT), CAST(${at} AS BIGINT)
   FROM ${batch} e ${join} webhook_endpoints w ON w.partner_id = e.partner_id AND w.enabled = 1
     AND (w.events = '["*"]' OR w.events LIKE '%"' || ${DELIVERED_TYPE} || '"%')
   WHERE 1 = 1
   ON CONFLICT (endpoint_id, event_id) DO NOTHING`;

/**
 * Queues one event (by id; params: at, at, at, event id) in the transaction that writes it: how
 * the embedded store fans out, so its single writer is not contended by a second fan-out write.
 */
export const QUEUE_EVENT = queueStatement("(SELECT * FROM order_events WHERE id = ?)");

/**
 * Queues the events from seq `?` to seq `?`, each at its own creation time: a SQLite writer
 * batch's created orders, whose events are the newest rows, in one statement when the batch
 * ends instead of one per order. The events are the outer loop (a rowid range), each searching
 * its partner's endpoints, never a scan of every endpoint.
 */
export const QUEUE_EVENTS_BETWEEN = queueStatement(
  "(SELECT * FROM order_events WHERE seq BETWEEN ? AND ?)",
  "e.created_at",
  "CROSS JOIN",
);

export const UNDISPATCHED =
  "SELECT * FROM order_events WHERE dispatched_at IS NULL ORDER BY seq LIMIT ?";

/**
 * Due deliveries of enabled endpoints, leased in one statement, taking turns across partners and,
 * within a partner, across its endpoints: each endpoint offers its `cap` oldest due deliveries
 * (an index range per endpoint), less those it has in flight on any instance; every endpoint's
 * first comes before its second, and every partner's first before any partner's second, each
 * partner offering at most `perPartner`. So a slow endpoint holds at most `cap` attempts, and a
 * partner with many endpoints does not fill a claim before another partner's turn. Partners the
 * claiming instance has no slot for (`skipped`, as many `?` at the end of the params) offer none.
 * The locking level repeats "pending, due and unlocked": PostgreSQL re-checks that level's
 * conditions on a row another instance claimed meanwhile (the inner levels read the statement's
 * snapshot), so a row claimed since is skipped, not claimed twice.
 * Params: lockedUntil, lease, now (updated_at), now (due), now (unlocked), now (in flight),
 * now (due), now (unlocked), cap, ...skipped partners, cap, perPartner, limit. `lock` as in
 * purgeStatement.
 */
const claimStatement = (lock: string, skipped: number): string =>
  `UPDATE webhook_deliveries SET locked_until = ?, lease = ?, attempts = attempts + 1, updated_at = ?
   WHERE (endpoint_id, event_id) IN (
     SELECT d.endpoint_id, d.event_id FROM webhook_deliveries d
     WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND d.locked_until <= ?
       AND (d.endpoint_id, d.event_id) IN (
       SELECT endpoint_id, event_id FROM (
         SELECT endpoint_id, event_id, next_attempt_at, turn,
           ROW_NUMBER() OVER (PARTITION BY partner_id ORDER BY turn, next_attempt_at, event_id) AS partner_turn
         FROM (
           SELECT c.endpoint_id, c.event_id, c.next_attempt_at, w.partner_id,
             ROW_NUMBER() OVER (PARTITION BY c.endpoint_id ORDER BY c.next_attempt_at, c.event_id) AS turn,
             (SELECT COUNT(*) FROM webhook_deliveries f
               WHERE f.endpoint_id = c.endpoint_id AND f.state = 'pending' AND f.locked_until > ?) AS busy
           FROM webhook_endpoints w JOIN webhook_deliveries c ON c.endpoint_id = w.id
           WHERE w.enabled = 1 AND c.event_id IN (
             SELECT e.event_id FROM webhook_deliveries e
             WHERE e.endpoint_id = w.id AND e.state = 'pending' AND e.next_attempt_at <= ? AND e.locked_until <= ?
             ORDER BY e.next_attempt_at LIMIT ?)${skipped > 0 ? ` AND w.partner_id NOT IN (${Array(skipped).fill("?").join(", ")})` : ""}
         ) turns
         WHERE turn + busy <= ?
       ) shares
       WHERE partner_turn <= ?
       ORDER BY partner_turn, turn, next_attempt_at LIMIT ?)${lock ? ` ${lock}` : ""})
   RETURNING endpoint_id, event_id, event_type, attempts, created_at, lease, locked_until`;

/**
 * The webhook store in SQL both dialects run, over a dialect's runner. `lock` is the row-locking
 * clause for claims (PostgreSQL: `FOR UPDATE OF d SKIP LOCKED`); the fan-out is the one
 * operation each dialect words itself (`dispatchEvents`).
 */
export abstract class SqlWebhookStore implements WebhookStore {
  readonly #lock: string;
  /** The claim statement without skipped partners (the usual case), built once. */
  readonly #claim: string;

  constructor(
    protected readonly sql: SqlRunner,
    lock = "",
  ) {
    this.#lock = lock;
    this.#claim = claimStatement(lock, 0);
  }

  abstract dispatchEvents(limit: number, at: number): Promise<number>;

  async createEndpoint(e: WebhookEndpointRecord): Promise<void> {
    await this.sql.changes(
      "INSERT INTO webhook_endpoints (id, partner_id, url, events, secret_sealed, previous_secret_sealed, previous_secret_until, enabled, disabled_reason, created_at, updated_at, last_success_at, failing_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      [
        e.id,
        e.partnerId,
        e.url,
        JSON.stringify(e.events),
        e.secretSealed,
        e.previousSecretSealed,
        e.previousSecretUntil,
        e.enabled ? 1 : 0,
        e.disabledReason,
        e.createdAt,
        e.updatedAt,
        e.lastSuccessAt,
        e.failingSince,
      ],
    );
  }

  async listEndpoints(partnerId: string): Promise<WebhookEndpointRecord[]> {
    const rows = await this.sql.rows<EndpointRow>(
      "SELECT * FROM webhook_endpoints WHERE partner_id = ? ORDER BY created_at, id",
      [partnerId],
    );
    return rows.map(toEndpoint);
  }

  async findEndpoint(
    partnerId: string,
    endpointId: string,
  ): Promise<WebhookEndpointRecord | undefined> {
    const [row] = await this.sql.rows<EndpointRow>(
      "SELECT * FROM webhook_endpoints WHERE partner_id = ? AND id = ?",
      [partnerId, endpointId],
    );
    return row && toEndpoint(row);
  }

  async endpointForDelivery(
    endpointId: string,
  ): Promise<{ endpoint: WebhookEndpointRecord; clientId: string } | undefined> {
    const [row] = await this.sql.rows<EndpointRow & { client_id: string }>(
      "SELECT w.*, p.client_id AS client_id FROM webhook_endpoints w JOIN partners p ON p.id = w.partner_id WHERE w.id = ?",
      [endpointId],
    );
    return row && { endpoint: toEndpoint(row), clientId: row.client_id };
  }

  async updateEndpoint(
    partnerId: string,
    endpointId: string,
    change: WebhookEndpointChange,
  ): Promise<WebhookEndpointRecord | undefined> {
    const sets: string[] = ["updated_at = ?"];
    const params: unknown[] = [change.at];
    if (change.url !== undefined) {
      sets.push("url = ?");
      params.push(change.url);
    }
    if (change.events !== undefined) {
      sets.push("events = ?");
      params.push(JSON.stringify(change.events));
    }
    if (change.enabled === true) {
      sets.push("enabled = 1", "disabled_reason = NULL", "failing_since = NULL");
    } else if (change.enabled === false) {
      sets.push("enabled = 0", "disabled_reason = ?");
      params.push(change.disabledReason ?? null);
    }
    const [row] = await this.sql.rows<EndpointRow>(
      `UPDATE webhook_endpoints SET ${sets.join(", ")} WHERE partner_id = ? AND id = ? RETURNING *`,
      [...params, partnerId, endpointId],
    );
    return row && toEndpoint(row);
  }

  async deleteEndpoint(partnerId: string, endpointId: string): Promise<boolean> {
    return (
      (await this.sql.changes("DELETE FROM webhook_endpoints WHERE partner_id = ? AND id = ?", [
        partnerId,
        endpointId,
      ])) === 1
    );
  }

  async rotateEndpointSecret(
    partnerId: string,
    endpointId: string,
    secretSealed: string,
    previousUntil: number | null,
    at: number,
  ): Promise<boolean> {
    // Assignments in one UPDATE read the row as it was: the previous secret is the replaced one.
    const changed = await this.sql.changes(
      "UPDATE webhook_endpoints SET previous_secret_sealed = CASE WHEN CAST(? AS BIGINT) IS NULL THEN NULL ELSE secret_sealed END, previous_secret_until = CAST(? AS BIGINT), secret_sealed = ?, updated_at = ? WHERE partner_id = ? AND id = ?",
      [previousUntil, previousUntil, secretSealed, at, partnerId, endpointId],
    );
    return changed === 1;
  }

  async listAttempts(endpointId: string, limit: number): Promise<DeliveryAttemptRecord[]> {
    const rows = await this.sql.rows<AttemptRow>(
      "SELECT * FROM webhook_attempts WHERE endpoint_id = ? ORDER BY attempted_at DESC, id DESC LIMIT ?",
      [endpointId, limit],
    );
    return rows.map(toAttempt);
  }

  async findEvent(partnerId: string, eventId: string): Promise<OrderEventRecord | undefined> {
    const [row] = await this.sql.rows<OrderEventRow>(
      "SELECT * FROM order_events WHERE partner_id = ? AND id = ?",
      [partnerId, eventId],
    );
    return row && toEvent(row);
  }

  async orderEvents(orderId: string): Promise<OrderEventRecord[]> {
    const rows = await this.sql.rows<OrderEventRow>(
      "SELECT * FROM order_events WHERE order_id = ? ORDER BY seq",
      [orderId],
    );
    return rows.map(toEvent);
  }

  async resend(endpointId: string, eventId: string, eventType: string, at: number): Promise<void> {
    await this.sql.changes(RESEND, [endpointId, eventId, eventType, at, at, at]);
  }

  async queueTestEvent(e: WebhookTestEventRecord): Promise<void> {
    const at = e.createdAt;
    await this.sql.atomically([
      {
        sql: "INSERT INTO webhook_test_events (id, partner_id, endpoint_id, created_at) VALUES (?, ?, ?, ?)",
        params: [e.id, e.partnerId, e.endpointId, at],
      },
      { sql: RESEND, params: [e.endpointId, e.id, TEST_EVENT_TYPE, at, at, at] },
    ]);
  }

  async countTestEvents(endpointId: string, since: number): Promise<number> {
    const [row] = await this.sql.rows<{ n: number | string }>(
      "SELECT count(*) AS n FROM webhook_test_events WHERE created_at >= ? AND endpoint_id = ?",
      [since, endpointId],
    );
    return Number(row?.n ?? 0);
  }

  async findTestEvent(
    partnerId: string,
    eventId: string,
  ): Promise<WebhookTestEventRecord | undefined> {
    const [row] = await this.sql.rows<{
      id: string;
      partner_id: string;
      endpoint_id: string;
      created_at: number | string;
    }>("SELECT * FROM webhook_test_events WHERE partner_id = ? AND id = ?", [partnerId, eventId]);
    return (
      row && {
        id: row.id,
        partnerId: row.partner_id,
        endpointId: row.endpoint_id,
        createdAt: Number(row.created_at),
      }
    );
  }

  async claimDeliveries(
    now: number,
    lockedUntil: number,
    lease: string,
    limit: number,
    perEndpoint = limit,
    shares: ClaimShares = {},
  ): Promise<ClaimedDelivery[]> {
    const skipped = shares.skipPartners ?? [];
    const statement =
      skipped.length === 0 ? this.#claim : claimStatement(this.#lock, skipped.length);
    const rows = await this.sql.rows<ClaimRow>(statement, [
      lockedUntil,
      lease,
      now,
      now,
      now,
      now,
      now,
      now,
      perEndpoint,
      ...skipped,
      perEndpoint,
      shares.perPartner ?? limit,
      limit,
    ]);
    return rows.map((r) => ({
      endpointId: r.endpoint_id,
      eventId: r.event_id,
      eventType: r.event_type,
      attempt: r.attempts,
      createdAt: r.created_at,
      lease: r.lease,
      lockedUntil: r.locked_until,
    }));
  }

  async releaseClaims(claims: ClaimedDelivery[]): Promise<void> {
    if (claims.length === 0) return;
    await this.sql.atomically(claims.flatMap(releaseStatements));
  }

  async finishAttempts(finished: FinishedAttempt[]): Promise<{ disabled: boolean }[]> {
    const statements = finished.flatMap(attemptStatements);
    const results = await this.sql.atomically(statements);
    // Each failed attempt's last statement is its disabling UPDATE.
    let at = 0;
    return finished.map((f) => {
      at += f.attempt.status === "succeeded" ? 4 : 5;
      return { disabled: f.attempt.status === "failed" && results[at - 1]?.changes === 1 };
    });
  }

  async backlog(now: number): Promise<{ pending: number; oldestDueAt: number | null }> {
    const [queued] = await this.sql.rows<{ n: number | string }>(BACKLOG, [BACKLOG_COUNT_LIMIT]);
    const [due] = await this.sql.rows<{ at: number | null }>(OLDEST_DUE, [now]);
    const [unsent] = await this.sql.rows<{ created_at: number }>(OLDEST_UNDISPATCHED, []);
    const times = [due?.at, unsent?.created_at].filter((t) => t != null).map(Number);
    return {
      pending: Number(queued?.n ?? 0),
      oldestDueAt: times.length === 0 ? null : Math.min(...times),
    };
  }
}

/** A metrics scrape counts at most this many pending deliveries (bounded cost). */
export const BACKLOG_COUNT_LIMIT = 100_000;
// Deliveries of disabled endpoints stay pending but are nobody's work: not backlog.
const PENDING = `FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
  WHERE d.state = 'pending' AND e.enabled = 1`;
const BACKLOG = `SELECT count(*) AS n FROM (SELECT 1 AS one ${PENDING} LIMIT ?) AS pending`;
// Due since then and not delivered yet (the webhook_deliveries_due index).
const OLDEST_DUE = `SELECT min(d.next_attempt_at) AS at ${PENDING} AND d.next_attempt_at <= ?`;
const OLDEST_UNDISPATCHED =
  "SELECT created_at FROM order_events WHERE dispatched_at IS NULL ORDER BY seq LIMIT 1";

/** One attempt's record: the attempt row, the delivery, the endpoint's times. */
function attemptStatements(f: FinishedAttempt): Statement[] {
  const a = f.attempt;
  const at = a.attemptedAt;
  const key = [a.endpointId, a.eventId];
  const statements: Statement[] = [
    {
      // Not when the endpoint (and with it the delivery) was deleted meanwhile.
      sql: "INSERT INTO webhook_attempts (id, endpoint_id, event_id, event_type, attempt, status, response_status, duration_ms, error, attempted_at) SELECT ?, ?, ?, ?, CAST(? AS BIGINT), ?, CAST(? AS BIGINT), CAST(? AS BIGINT), ?, CAST(? AS BIGINT) WHERE EXISTS (SELECT 1 FROM webhook_deliveries WHERE endpoint_id = ? AND event_id = ?)",
      params: [
        a.id,
        a.endpointId,
        a.eventId,
        a.eventType,
        a.attempt,
        a.status,
        a.responseStatus,
        a.durationMs,
        a.error,
        at,
        ...key,
      ],
    },
    deliveryUpdate(f, at),
    {
      // Resent while this attempt ran: the resend's attempt may start now.
      sql: "UPDATE webhook_deliveries SET locked_until = 0 WHERE endpoint_id = ? AND event_id = ? AND lease IS NULL AND locked_until = ?",
      params: [...key, f.lockedUntil],
    },
  ];
  if (a.status === "succeeded") {
    statements.push({
      sql: "UPDATE webhook_endpoints SET last_success_at = ?, failing_since = NULL WHERE id = ?",
      params: [at, a.endpointId],
    });
  } else {
    statements.push(
      {
        sql: "UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, CAST(? AS BIGINT)) WHERE id = ?",
        params: [at, a.endpointId],
      },
      {
        sql: "UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ? AND enabled = 1 AND failing_since <= ?",
        params: [f.disabledReason, at, a.endpointId, f.disableFailingSince],
      },
    );
  }
  return statements;
}

/**
 * Hands a claimed delivery back untried: unlocked, its attempt not counted. A resend that took
 * the claim over meanwhile (lease NULL, our lock) is freed the same way an attempt's finish
 * frees it.
 */
function releaseStatements(c: ClaimedDelivery): Statement[] {
  return [
    {
      sql: "UPDATE webhook_deliveries SET locked_until = 0, lease = NULL, attempts = attempts - 1 WHERE endpoint_id = ? AND event_id = ? AND lease = ?",
      params: [c.endpointId, c.eventId, c.lease],
    },
    {
      sql: "UPDATE webhook_deliveries SET locked_until = 0 WHERE endpoint_id = ? AND event_id = ? AND lease IS NULL AND locked_until = ?",
      params: [c.endpointId, c.eventId, c.lockedUntil],
    },
  ];
}

/** Moves the delivery on after an attempt, only while the claim is still this one's. */
function deliveryUpdate(f: FinishedAttempt, at: number): Statement {
  const where = "WHERE endpoint_id = ? AND event_id = ? AND lease = ?";
  const key = [f.attempt.endpointId, f.attempt.eventId, f.lease];
  switch (f.next.kind) {
    case "succeeded":
      return {
        sql: `UPDATE webhook_deliveries SET state = 'succeeded', locked_until = 0, lease = NULL, updated_at = ? ${where}`,
        params: [at, ...key],
      };
    case "failed":
      return {
        sql: `UPDATE webhook_deliveries SET state = 'failed', locked_until = 0, lease = NULL, updated_at = ? ${where}`,
        params: [at, ...key],
      };
    case "retry":
      return {
        sql: `UPDATE webhook_deliveries SET next_attempt_at = ?, locked_until = 0, lease = NULL, updated_at = ? ${where}`,
        params: [f.next.at, at, ...key],
      };
  }
}

/** The embedded store's fan-out: one IMMEDIATE transaction, so no writer comes in between. */
export function sqliteDispatch(limit: number, at: number): Statement[] {
  return [
    { sql: queueStatement(`(${UNDISPATCHED})`), params: [at, at, at, limit] },
    {
      sql: `UPDATE order_events SET dispatched_at = ? WHERE seq IN (SELECT seq FROM order_events WHERE dispatched_at IS NULL ORDER BY seq LIMIT ?)`,
      params: [at, limit],
    },
  ];
}

import type { ExpiringTable } from "./tenant-store.js";

/** Each expiring table's key and time columns. */
const EXPIRING: Record<ExpiringTable, { key: string; time: string }> = {
  token_refreshes: { key: "jti", time: "refreshed_at" },
  user_token_refreshes: { key: "jti", time: "refreshed_at" },
  idempotency_keys: { key: "(partner_id, idem_key)", time: "created_at" },
  login_failures: { key: "account_key", time: "last_failed_at" },
  revoked_sessions: { key: "sid", time: "expires_at" },
  console_sessions: { key: "id", time: "expires_at" },
  webhook_attempts: { key: "id", time: "attempted_at" },
  // A delivery's attempts go with it (ON DELETE CASCADE).
  webhook_deliveries: { key: "(endpoint_id, event_id)", time: "updated_at" },
  order_events: { key: "seq", time: "created_at" },
  request_nonces: { key: "nonce_key", time: "expires_at" },
  webhook_test_events: { key: "id", time: "created_at" },
  partner_request_log: { key: "id", time: "at" },
  audit_events: { key: "seq", time: "created_at" },
  password_links: { key: "token_hash", time: "expires_at" },
  second_factor_challenges: { key: "secret_hash", time: "expires_at" },
};

/**
 * Order events go by order, all at once: only when every event of the order is past the cutoff,
 * fanned out, and has no delivery left (deliveries go first, by webhook retention). A resend
 * needs its event, and a delivery's body counts the order's earlier events.
 */
function orderEventsPurge(lock: string): string {
  return `DELETE FROM order_events WHERE seq IN (SELECT e.seq FROM order_events e, (SELECT CAST(? AS BIGINT) AS t) cutoff WHERE e.created_at < cutoff.t AND NOT EXISTS (SELECT 1 FROM order_events n WHERE n.order_id = e.order_id AND (n.created_at >= cutoff.t OR n.dispatched_at IS NULL OR EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = n.id))) LIMIT ?${lock ? ` ${lock.replace("FOR UPDATE", "FOR UPDATE OF e")}` : ""})`;
}

/**
 * At most `limit` rows older than a cutoff, by primary key: one short transaction per batch, so
 * a purge never holds the write lock long. `lock` is a row-locking clause for the dialects that
 * have one (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so purges racing on several instances take
 * disjoint rows instead of waiting on, or deadlocking over, each other's).
 */
export function purgeStatement(table: ExpiringTable, lock = ""): string {
  if (table === "order_events") return orderEventsPurge(lock);
  const { key, time } = EXPIRING[table];
  const columns = key.replace(/[()]/g, "");
  return `DELETE FROM ${table} WHERE ${key} IN (SELECT ${columns} FROM ${table} WHERE ${time} < ? LIMIT ?${lock ? ` ${lock}` : ""})`;
}

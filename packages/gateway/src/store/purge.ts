import type { RetentionConfig } from "../config/config.js";
import type { Clock } from "../lib/clock.js";
import type { Store } from "./store.js";
import type { ExpiringTable } from "./tenant-store.js";

/** A partner's refused requests are kept this long (GET /api/v1/request-log: the last 7 days). */
export const REQUEST_LOG_RETENTION_MS = 7 * 24 * 3600 * 1000;

/** Rows deleted per statement: each batch is one short transaction. */
const PURGE_BATCH = 1000;

type PurgeReport = Record<ExpiringTable, number>;

/** The time before which a table's rows are past retention. */
function cutoffs(retention: RetentionConfig, now: number): PurgeReport {
  const refresh = now - retention.refreshSeconds * 1000;
  return {
    token_refreshes: refresh,
    user_token_refreshes: refresh,
    idempotency_keys: now - retention.idempotencySeconds * 1000,
    login_failures: now - retention.loginFailureSeconds * 1000,
    // A revoked session's row carries its own end: no token of the session outlives it.
    revoked_sessions: now,
    // Past its absolute end a console session signs nobody in, ended or not.
    console_sessions: now,
    webhook_attempts: now - retention.webhookSeconds * 1000,
    webhook_deliveries: now - retention.webhookSeconds * 1000,
    // After the deliveries: an event goes only once none is left.
    order_events: now - retention.orderEventSeconds * 1000,
    // A nonce row carries the end of its request's timestamp window.
    request_nonces: now,
    // After the deliveries, like order events: a test event is resendable while it is listed.
    webhook_test_events: now - retention.webhookSeconds * 1000,
    partner_request_log: now - REQUEST_LOG_RETENTION_MS,
    audit_events: now - retention.auditSeconds * 1000,
    // A set-password link carries its own end; used or not, past it nothing can use it.
    password_links: now,
    // A sign-in's second-factor challenge lasts minutes; past its end nothing redeems it.
    second_factor_challenges: now,
  };
}

/**
 * Deletes the bookkeeping rows past retention, batch after batch until a batch comes back short.
 * Safe with any number of instances at once: each statement deletes only expired rows, so two
 * purges racing delete each row once between them and leave every live row alone.
 */
export async function purgeExpired(
  store: Store,
  retention: RetentionConfig,
  now: number,
  batch = PURGE_BATCH,
): Promise<PurgeReport> {
  const report = {} as PurgeReport;
  for (const [table, before] of Object.entries(cutoffs(retention, now)) as [
    ExpiringTable,
    number,
  ][]) {
    let total = 0;
    for (;;) {
      const deleted = await store.tenants.deleteExpired(table, before, batch);
      total += deleted;
      if (deleted < batch) break;
      // Let requests waiting for the store in between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    report[table] = total;
  }
  return report;
}

interface PurgeLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Runs `purgeExpired` every `retention.purgeIntervalSeconds` (with up to 10 % jitter, so the
 * instances of a deployment do not all purge at the same moment). `stop` waits for a running
 * purge, so the store can be closed after it.
 */
export function schedulePurge(
  store: Store,
  retention: RetentionConfig,
  now: Clock,
  log: PurgeLog,
): { stop(): Promise<void> } {
  const intervalMs = retention.purgeIntervalSeconds * 1000;
  if (intervalMs <= 0) return { stop: async () => {} };
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    timer = setTimeout(tick, intervalMs * (1 + Math.random() * 0.1));
    timer.unref();
  };
  const tick = () => {
    running = purgeExpired(store, retention, now())
      .then(
        (deleted) => {
          if (Object.values(deleted).some((n) => n > 0))
            log.info({ event: "purge", deleted }, "expired bookkeeping rows deleted");
        },
        (error: unknown) =>
          log.warn({ event: "purge_failed", err: (error as Error).message }, "purge failed"),
      )
      .finally(next);
  };
  next();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

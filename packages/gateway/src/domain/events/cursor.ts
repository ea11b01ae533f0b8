/**
 * Where a live event stream stands, and which outbox events it may pass on yet. Pure functions.
 *
 * Outbox seqs are drawn when a row is inserted, not when its transaction commits: on PostgreSQL
 * an event may become visible after one with a higher seq. A reader that moved its cursor past a
 * missing seq would never see that event. So a gap holds the stream back until the event after
 * it is `settleMs` old: by then the transaction that drew the missing seq (before that event's)
 * has committed or will never (rolled back, or its event was purged).
 */

interface Sequenced {
  seq: number;
  createdAt: number;
}

/** The leading events of `events` (in seq order, all after `afterSeq`) safe to pass on now. */
export function settledEvents<E extends Sequenced>(
  events: readonly E[],
  afterSeq: number,
  now: number,
  settleMs: number,
): E[] {
  const settled: E[] = [];
  let expected = afterSeq + 1;
  for (const event of events) {
    if (event.seq !== expected && event.createdAt > now - settleMs) break;
    settled.push(event);
    expected = event.seq + 1;
  }
  return settled;
}

/**
 * Where a feed starting now begins: after the newest of `recent` (newest first) that is settled
 * and every younger one the gap rule lets through; what is held back is read again later.
 * 0 on an empty outbox.
 */
export function initialHead<E extends Sequenced>(
  recent: readonly E[],
  now: number,
  settleMs: number,
): number {
  if (recent.length === 0) return 0;
  const oldestFirst = [...recent].reverse();
  const base = oldestFirst.findLastIndex((event) => event.createdAt <= now - settleMs);
  const from = base < 0 ? (oldestFirst[0] as E).seq - 1 : (oldestFirst[base] as E).seq;
  const settled = settledEvents(oldestFirst.slice(base + 1), from, now, settleMs);
  return settled.at(-1)?.seq ?? from;
}

/**
 * The tenant stream's resume point, sent as each event's SSE `id`: the last order event passed
 * on (`evt_…`, or `-` before any) and the time of the newest vocabulary change passed on.
 */
export interface TenantCursor {
  eventId: string | null;
  vocabularyAt: number;
}

const TENANT_CURSOR = /^(evt_[A-Za-z0-9_-]{1,80}|-)@(\d{1,15})$/;

export const encodeTenantCursor = (cursor: TenantCursor): string =>
  `${cursor.eventId ?? "-"}@${cursor.vocabularyAt}`;

/** undefined when `text` is not an id the tenant stream sent. */
export function parseTenantCursor(text: string): TenantCursor | undefined {
  const match = TENANT_CURSOR.exec(text);
  if (!match) return undefined;
  return {
    eventId: match[1] === "-" ? null : (match[1] as string),
    vocabularyAt: Number(match[2]),
  };
}

/**
 * A partner stream's resume point: the public id of the last event passed on, or `-` when the
 * stream started before the partner had any (resume from its first).
 */
export const PARTNER_EVENT_ID = /^(evt_[A-Za-z0-9_-]{1,80}|-)$/;

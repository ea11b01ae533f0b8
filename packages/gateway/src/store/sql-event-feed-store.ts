import type {
  EventFeedStore,
  EventOrder,
  EventScope,
  FeedEventRecord,
  StreamSignal,
  VocabularyChange,
} from "./event-feed-store.js";
import { type OrderEventRow, type OrderHistoryRow, toChange, toEvent } from "./order-moves.js";
import { type OrderRow, toOrder } from "./rows.js";
import type { SqlRunner } from "./sql-runner.js";

type FeedRow = OrderEventRow & { tenant_id: string | null };

const toFeedEvent = (r: FeedRow): FeedEventRecord => ({ ...toEvent(r), tenantId: r.tenant_id });

const SELECT = "SELECT e.*, p.tenant_id FROM order_events e JOIN partners p ON p.id = e.partner_id";

/** The scope's condition on `e` (migration 017's (partner_id, seq) index serves both). */
function scopeCondition(scope: EventScope | undefined): { sql: string; params: unknown[] } {
  if (scope === undefined) return { sql: "", params: [] };
  if ("partnerId" in scope) return { sql: " AND e.partner_id = ?", params: [scope.partnerId] };
  return {
    sql: " AND e.partner_id IN (SELECT id FROM partners WHERE tenant_id = ?)",
    params: [scope.tenantId],
  };
}

/**
 * `ids` for an `IN (…)` list, repeated up to the next power of two (at least 8): a handful of
 * statement texts for every page size, so prepared statements and plans are reused.
 */
function inList(ids: readonly string[]): { sql: string; params: string[] } {
  let size = 8;
  while (size < ids.length) size *= 2;
  const params = [...ids, ...Array<string>(size - ids.length).fill(ids[0] as string)];
  return { sql: params.map(() => "?").join(", "), params };
}

/** The event feed's reads in SQL both dialects run; signalling is the dialect's. */
export abstract class SqlEventFeedStore implements EventFeedStore {
  /**
   * `replays`: where a stream's catch-up reads run (its scoped pages and their orders), apart
   * from the feed's quick reads where the dialect has such a place (SQLite: its reader threads,
   * at a lower CPU priority). By default like any other read.
   */
  constructor(
    protected readonly sql: SqlRunner,
    private readonly replays: Pick<SqlRunner, "rows"> = sql,
  ) {}

  async latestEvents(limit: number): Promise<FeedEventRecord[]> {
    const rows = await this.sql.rows<FeedRow>(`${SELECT} ORDER BY e.seq DESC LIMIT ?`, [limit]);
    return rows.map(toFeedEvent);
  }

  async eventsAfter(
    afterSeq: number,
    limit: number,
    scope?: EventScope,
  ): Promise<FeedEventRecord[]> {
    const where = scopeCondition(scope);
    // A scoped read is a stream's catch-up; the feed's own reads are unscoped.
    const runner = scope === undefined ? this.sql : this.replays;
    const rows = await runner.rows<FeedRow>(
      `${SELECT} WHERE e.seq > ?${where.sql} ORDER BY e.seq LIMIT ?`,
      [afterSeq, ...where.params, limit],
    );
    return rows.map(toFeedEvent);
  }

  async latestEventId(atOrBefore: number, scope: EventScope): Promise<string | undefined> {
    const where = scopeCondition(scope);
    const [row] = await this.sql.rows<{ id: string }>(
      `SELECT e.id FROM order_events e WHERE e.seq <= ?${where.sql} ORDER BY e.seq DESC LIMIT 1`,
      [atOrBefore, ...where.params],
    );
    return row?.id;
  }

  async eventSeq(eventId: string, scope: EventScope): Promise<number | undefined> {
    const where = scopeCondition(scope);
    const [row] = await this.sql.rows<{ seq: number }>(
      `SELECT e.seq FROM order_events e WHERE e.id = ?${where.sql}`,
      [eventId, ...where.params],
    );
    return row === undefined ? undefined : Number(row.seq);
  }

  async eventOrders(orderIds: readonly string[]): Promise<Map<string, EventOrder>> {
    const ids = [...new Set(orderIds)];
    const found = new Map<string, EventOrder>();
    if (ids.length === 0) return found;
    const list = inList(ids);
    const [orders, events, history] = await Promise.all([
      this.replays.rows<
        OrderRow & { client_id: string; partner_name: string; tenant_id: string | null }
      >(
        `SELECT o.*, p.client_id AS client_id, p.name AS partner_name, p.tenant_id AS tenant_id FROM sales_orders o JOIN partners p ON p.id = o.partner_id WHERE o.id IN (${list.sql})`,
        list.params,
      ),
      this.replays.rows<OrderEventRow>(
        `SELECT * FROM order_events WHERE order_id IN (${list.sql}) ORDER BY seq`,
        list.params,
      ),
      this.replays.rows<OrderHistoryRow>(
        `SELECT * FROM order_history WHERE order_id IN (${list.sql}) ORDER BY order_id, seq`,
        list.params,
      ),
    ]);
    for (const row of orders)
      found.set(row.id, {
        order: toOrder(row),
        clientId: row.client_id,
        partnerName: row.partner_name,
        tenantId: row.tenant_id,
        events: [],
        history: [],
      });
    for (const row of events) found.get(row.order_id)?.events.push(toEvent(row));
    for (const row of history) found.get(row.order_id)?.history.push(toChange(row));
    return found;
  }

  async vocabularyChangedSince(tenantId: string, since: number): Promise<VocabularyChange[]> {
    const rows = await this.sql.rows<{ namespace: string; language: string; updated_at: number }>(
      "SELECT namespace, language, updated_at FROM tenant_overrides WHERE tenant_id = ? AND updated_at > ? ORDER BY updated_at",
      [tenantId, since],
    );
    return rows.map((r) => ({
      namespace: r.namespace,
      language: r.language,
      updatedAt: Number(r.updated_at),
    }));
  }

  abstract publish(signal: StreamSignal): Promise<void>;
  abstract onSignal(listener: (signal: StreamSignal) => void): () => Promise<void>;
}

/** A signal as sent between instances; anything else (a foreign NOTIFY) is ignored. */
export function parseSignal(text: string): StreamSignal | undefined {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value.at !== "number") return undefined;
    if (
      value.type === "vocabulary.changed" &&
      typeof value.tenantId === "string" &&
      typeof value.namespace === "string" &&
      typeof value.language === "string"
    )
      return value as unknown as StreamSignal;
    if (value.type === "access.changed" && typeof value.party === "string")
      return value as unknown as StreamSignal;
  } catch {}
  return undefined;
}

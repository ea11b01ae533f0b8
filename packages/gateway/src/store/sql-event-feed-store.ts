import type {
  EventFeedStore,
  EventScope,
  FeedEventRecord,
  TenantSignal,
  VocabularyChange,
} from "./event-feed-store.js";
import { type OrderEventRow, toEvent } from "./order-moves.js";
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

/** The event feed's reads in SQL both dialects run; signalling is the dialect's. */
export abstract class SqlEventFeedStore implements EventFeedStore {
  constructor(protected readonly sql: SqlRunner) {}

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
    const rows = await this.sql.rows<FeedRow>(
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

  abstract publish(signal: TenantSignal): Promise<void>;
  abstract onSignal(listener: (signal: TenantSignal) => void): () => Promise<void>;
}

/** A signal as sent between instances; anything else (a foreign NOTIFY) is ignored. */
export function parseSignal(text: string): TenantSignal | undefined {
  try {
    const value = JSON.parse(text) as Partial<TenantSignal>;
    if (
      value.type === "vocabulary.changed" &&
      typeof value.tenantId === "string" &&
      typeof value.namespace === "string" &&
      typeof value.language === "string" &&
      typeof value.at === "number"
    )
      return value as TenantSignal;
  } catch {}
  return undefined;
}

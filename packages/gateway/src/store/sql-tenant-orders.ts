import {
  type ListDialect,
  type ListWindow,
  newestFirst,
  oldestFirst,
  partnerOrdersStatement,
} from "./order-moves.js";
import {
  COUNT_CAP,
  countStatement,
  numberStatement,
  orderNumberQuery,
  searchStatement,
  textContains,
  windowFloorStatement,
} from "./order-search.js";
import { type OrderRow, toOrder } from "./rows.js";
import type { SqlRunner } from "./sql-runner.js";
import type {
  OrderCount,
  TenantListOptions,
  TenantOrderPage,
  TenantOrderRecord,
} from "./tenant-store.js";

const TENANT_ORDERS =
  "SELECT o.*, p.client_id AS client_id, p.name AS partner_name FROM sales_orders o JOIN partners p ON p.id = o.partner_id WHERE p.tenant_id = ?";

/**
 * A tenant's orders across its partners in SQL both dialects understand: pages merged from each
 * partner's bounded listing or search, counts within one budget, one order by id.
 */
export class SqlTenantOrders {
  constructor(
    private readonly sql: Pick<SqlRunner, "rows">,
    /** Where the heavy reads run (pages, counts, searches): SqlTenantStore.listRows. */
    private readonly listRows: <R>(sql: string, params: unknown[]) => Promise<R[]>,
    /** How this dialect words the listing statements (partnerOrdersStatement). */
    private readonly listDialect: ListDialect,
  ) {}

  async #one<R>(sql: string, params: unknown[]): Promise<R | undefined> {
    return (await this.sql.rows<R>(sql, params))[0];
  }

  /** Reads of a tenant's listed partners in flight, by tenant and named partner. */
  readonly #partnersReading = new Map<string, Promise<ListedPartner[]>>();

  /**
   * The tenant's partners a listing reads: all, or the one it names. A listing's page and its
   * count ask at once: they share one read (in flight only, nothing is kept after it).
   */
  #listedPartners(tenantId: string, clientId: string | undefined): Promise<ListedPartner[]> {
    const key = `${tenantId}\u0000${clientId ?? ""}`;
    let reading = this.#partnersReading.get(key);
    if (reading === undefined) {
      reading = this.sql
        .rows<ListedPartner>(
          `SELECT id, client_id, name FROM partners WHERE tenant_id = ?${clientId === undefined ? "" : " AND client_id = ?"}`,
          clientId === undefined ? [tenantId] : [tenantId, clientId],
        )
        .finally(() => this.#partnersReading.delete(key));
      this.#partnersReading.set(key, reading);
    }
    return reading;
  }

  /**
   * One partner's part of a page: its plain listing range when it has no search or the search
   * names the partner itself; else its bounded search, with the window's last order when the
   * window was full (nothing beyond it was looked at).
   */
  async #partnerPage(
    partner: ListedPartner,
    options: TenantListOptions,
  ): Promise<{ rows: OrderRow[]; floor?: { seq: number; created_at: number } }> {
    const numbered = numberOnly(options.q);
    if (numbered !== undefined) {
      const { sql, params } = numberStatement(partner.id, numbered, options);
      return { rows: await this.listRows<OrderRow>(sql, params) };
    }
    const q = searchOf(partner, options.q);
    if (q === undefined) {
      const { sql, params } = partnerOrdersStatement(partner.id, options, this.listDialect);
      return { rows: await this.listRows<OrderRow>(sql, params) };
    }
    const search = searchStatement(partner.id, q, options, this.listDialect);
    const floor = windowFloorStatement(partner.id, options, this.listDialect);
    const [rows, [last]] = await Promise.all([
      this.listRows<OrderRow>(search.sql, search.params),
      this.listRows<{ seq: number; created_at: number }>(floor.sql, floor.params),
    ]);
    return last
      ? { rows, floor: { seq: Number(last.seq), created_at: Number(last.created_at) } }
      : { rows };
  }

  /**
   * Each partner's page (an index range of at most `limit + 1` rows, partnerOrdersStatement,
   * or a bounded search of it) merged in listing order: bounded by the tenant's partners times
   * the page (or the search window), never by its orders.
   */
  async listTenantOrders(tenantId: string, options: TenantListOptions): Promise<TenantOrderPage> {
    const partners = await this.#listedPartners(tenantId, options.clientId);
    const parts = await Promise.all(partners.map((p) => this.#partnerPage(p, options)));
    const order = options.oldestFirst ? oldestFirst : newestFirst;
    // Past the nearest floor, some partner's orders were not looked at: the page stops there.
    const [cut] = parts.flatMap((p) => (p.floor ? [p.floor] : [])).sort(order);
    const rows = parts
      .flatMap((p) => p.rows)
      .sort(order)
      .filter((row) => cut === undefined || order(row, cut) <= 0);
    const shown = rows.slice(0, options.limit);
    const last = shown.at(-1);
    const nextBeforeSeq =
      rows.length > options.limit && last ? last.seq : cut === undefined ? null : cut.seq;
    const byId = new Map(partners.map((p) => [p.id, p]));
    return {
      nextBeforeSeq,
      orders: shown.map((row) => {
        const partner = byId.get(row.partner_id);
        return {
          ...toOrder(row),
          clientId: partner?.client_id ?? "",
          partnerName: partner?.name ?? "",
        };
      }),
    };
  }

  async countTenantOrders(tenantId: string, options: TenantListOptions): Promise<OrderCount> {
    const { beforeSeq: _cursor, ...top } = options;
    const partners = await this.#listedPartners(tenantId, options.clientId);
    const numbered = numberOnly(options.q);
    if (numbered !== undefined) {
      const found = await Promise.all(
        partners.map(async (p) => {
          const { sql, params } = numberStatement(p.id, numbered, { ...top, limit: 1 });
          return (await this.listRows(sql, params)).length;
        }),
      );
      return { count: found.reduce((sum, n) => sum + n, 0), exact: true };
    }
    const searches = partners.map((partner) => ({ partner, q: searchOf(partner, options.q) }));
    const [plain, counts] = await Promise.all([
      this.#countPlain(
        searches.flatMap(({ partner, q }) => (q === undefined ? [partner] : [])),
        top,
      ),
      Promise.all(
        searches.flatMap(({ partner, q }) =>
          q === undefined ? [] : [this.#countSearched(partner, q, top)],
        ),
      ),
    ]);
    const count = counts.reduce((sum, c) => sum + c.n, plain);
    return {
      count: Math.min(count, COUNT_CAP),
      exact: count <= COUNT_CAP && counts.every((c) => c.exact),
    };
  }

  /**
   * The unsearched partners' orders, counted one partner after another against one budget of
   * COUNT_CAP + 1 index entries for the whole tenant: the count's cost is bounded by the cap,
   * not by the cap times the tenant's partners.
   */
  async #countPlain(partners: ListedPartner[], options: ListWindow): Promise<number> {
    let counted = 0;
    for (const partner of partners) {
      const budget = COUNT_CAP + 1 - counted;
      if (budget <= 0) break;
      const { sql, params } = countStatement(
        partner.id,
        undefined,
        options,
        this.listDialect,
        budget,
      );
      const [row] = await this.listRows<{ n: number | string }>(sql, params);
      counted += Number(row?.n ?? 0);
    }
    return counted;
  }

  /** A search counts within its window: exact only when the window held every order. */
  async #countSearched(
    partner: ListedPartner,
    q: string,
    options: ListWindow,
  ): Promise<{ n: number; exact: boolean }> {
    const { sql, params } = countStatement(partner.id, q, options, this.listDialect);
    const [row] = await this.listRows<{ n: number | string }>(sql, params);
    const floor = windowFloorStatement(partner.id, options, this.listDialect);
    const full = (await this.listRows(floor.sql, floor.params)).length > 0;
    return { n: Number(row?.n ?? 0), exact: !full };
  }

  async findTenantOrder(tenantId: string, orderId: string): Promise<TenantOrderRecord | undefined> {
    const row = await this.#one<OrderRow & { client_id: string; partner_name: string }>(
      `${TENANT_ORDERS} AND o.id = ?`,
      [tenantId, orderId],
    );
    return row && { ...toOrder(row), clientId: row.client_id, partnerName: row.partner_name };
  }
}

interface ListedPartner {
  id: string;
  client_id: string;
  name: string;
}

/** The number a search for `SO-…` names: only orders with that number are listed. */
const numberOnly = (q: string | undefined): number | undefined => {
  const query = q === undefined ? undefined : orderNumberQuery(q);
  return query?.prefixed ? query.number : undefined;
};

/** The text a partner's orders are searched for: none when there is no search or the partner itself matches (by a word, not digits). */
const searchOf = (partner: ListedPartner, q: string | undefined): string | undefined =>
  q === undefined ||
  // Digits name an order: a client_id that happens to contain them does not list all its orders.
  (orderNumberQuery(q) === undefined &&
    (textContains(partner.name, q) || textContains(partner.client_id, q)))
    ? undefined
    : q;

import { defaultListSlots } from "../../config/config.js";
import type { Clock } from "../../lib/clock.js";
import { priceOf } from "../../lib/money.js";
import { newId } from "../../lib/random.js";
import { sha256Hex, stableStringify } from "../../lib/stable-json.js";
import { countOrderCreated, countOrderMove } from "../../observability/metrics.js";
import { rememberEventTrace } from "../../observability/tracing.js";
import { ApiError } from "../../problems/api-error.js";
import { requestReplayed } from "../../security/request-replayed.js";
import type {
  OrderFilter,
  OrderScope,
  ProductLine,
  SalesOrderRecord,
  Store,
} from "../../store/store.js";
import type { NonceClaim } from "../../store/tenant-store.js";
import type { PartnerView } from "../partners/directory.js";
import type { UserContext } from "../users/user-context.js";
import { type Mover, nextStatuses, type OrderAction, transitionFor } from "./lifecycle.js";
import { ListSlots, ListsBusy } from "./list-slots.js";
import { historyOf, INITIAL_STATUS, type OrderData, toOrderData } from "./representation.js";
import {
  type TenantFilterQuery,
  type TenantOrderData,
  tenantOptionsOf,
  toTenantOrderData,
} from "./tenant-orders.js";

export interface CreateOrderBody {
  customer_code: string;
  site_code: string;
  sales_name: string;
  address: string;
  purchase_order_no?: string | null;
  currency?: string | null;
  /** unit_price arrives as a JSON number or a decimal string (checked by the schema). */
  products: (Omit<ProductLine, "unit_price"> & { unit_price?: number | string })[];
}

/** The ETag of an order version: changes with every status change. */
export const etagOf = (version: number): string => `"${version}"`;

/** If-Match as a version: `"3"`, `W/"3"` or `3`; `*` (any) is undefined; garbage is NaN. */
function versionOf(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined || ifMatch.trim() === "*") return undefined;
  const match = /^\s*(?:W\/)?"?([1-9][0-9]{0,9})"?\s*$/.exec(ifMatch);
  return match ? Number(match[1]) : Number.NaN;
}

export {
  historyOf,
  type OrderChange,
  type OrderData,
  toOrderData,
} from "./representation.js";

const CURSOR_PREFIX = "v1:";

export function encodeCursor(seq: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${seq}`).toString("base64url");
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, "base64url").toString("utf8");
  const seq = text.startsWith(CURSOR_PREFIX)
    ? Number(text.slice(CURSOR_PREFIX.length))
    : Number.NaN;
  if (!Number.isSafeInteger(seq) || seq < 1) {
    throw new ApiError(
      "cursor_invalid",
      "The cursor is not one this API returned; start again without it.",
    );
  }
  return seq;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The order as its creation answered it: a replay repeats that answer byte for byte (as Stripe
 * replays a stored response), whatever happened to the order since; GET shows it now. Built
 * from the order rather than stored with the key: its first state is known, and a stored body
 * would be a large column more per keyed create.
 */
const asCreated = (order: SalesOrderRecord): SalesOrderRecord => ({
  ...order,
  status: INITIAL_STATUS,
  version: 1,
  updatedAt: order.createdAt,
});

/** Sales order use cases for an authenticated partner. */
/** One page of a newest-first listing, whichever orders it lists, with the opaque cursor. */
async function listPage<O extends SalesOrderRecord>(
  read: (options: { limit: number; beforeSeq?: number; filter?: OrderFilter }) => Promise<{
    orders: O[];
    nextBeforeSeq: number | null;
  }>,
  limit: number,
  cursor: string | undefined,
  clientIdOf: (order: O) => string,
  filter: OrderFilter = {},
): Promise<{ data: OrderData[]; next_cursor: string | null }> {
  const beforeSeq = cursor === undefined ? undefined : decodeCursor(cursor);
  const page = await read(
    beforeSeq === undefined ? { limit, filter } : { limit, beforeSeq, filter },
  );
  return {
    data: page.orders.map((o) => toOrderData(o, clientIdOf(o))),
    next_cursor: page.nextBeforeSeq === null ? null : encodeCursor(page.nextBeforeSeq),
  };
}

export class OrderService {
  constructor(
    private readonly store: Store,
    private readonly now: Clock,
    /** The listing reads running at once (pages, counts, export pages) and their wait. */
    lists: { concurrency: number; maxWaitMs: number } = {
      concurrency: defaultListSlots(),
      maxWaitMs: 2_000,
    },
  ) {
    this.lists = new ListSlots({
      slots: lists.concurrency,
      maxWaitMs: lists.maxWaitMs,
      perPrincipalQueue: 8,
    });
  }

  private readonly lists: ListSlots;

  /** A listing read in a slot of `principal`'s; 503 list_busy when none frees up in time. */
  async #inSlot<T>(principal: string, read: () => Promise<T>): Promise<T> {
    try {
      return await this.lists.run(principal, read);
    } catch (error) {
      if (!(error instanceof ListsBusy)) throw error;
      throw new ApiError(
        "list_busy",
        `Too many order listings are running right now; retry in ${error.retryAfterSeconds} s.`,
        { retry_after: error.retryAfterSeconds },
        { retryAfterSeconds: error.retryAfterSeconds },
      );
    }
  }

  /**
   * `nonce`: the signed request's replay-guard nonce, stored in the order's transaction (see
   * Store.createOrder): an exact copy of a request whose order committed is refused as a replay,
   * unless it carries the Idempotency-Key, which replays the first answer.
   */
  async create(
    partner: PartnerView,
    body: CreateOrderBody,
    idempotencyKey: string | undefined,
    nonce?: NonceClaim,
  ): Promise<{ order: OrderData; replayed: boolean }> {
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new ApiError(
        "idempotency_key_invalid",
        "Idempotency-Key must be 1–255 printable ASCII characters without spaces.",
      );
    }
    const createdAt = this.now();
    // A line is copied only when its price came as a decimal string (object rest and spread
    // per line were a few µs of every create).
    const products = body.products.map(
      (line): ProductLine =>
        typeof line.unit_price === "string"
          ? { ...line, unit_price: priceOf(line.unit_price) }
          : (line as ProductLine),
    );
    const id = newId(createdAt);
    // Before the commit: a webhook worker may pick the event up before this call returns.
    rememberEventTrace(id, INITIAL_STATUS);
    const outcome = await this.store.createOrder(
      {
        id,
        partnerId: partner.id,
        purchaseOrderNo: body.purchase_order_no ?? null,
        currency: body.currency ?? null,
        customerCode: body.customer_code,
        siteCode: body.site_code,
        salesName: body.sales_name,
        address: body.address,
        products,
        status: INITIAL_STATUS,
        createdAt,
      },
      idempotencyKey === undefined
        ? undefined
        : { key: idempotencyKey, requestHash: sha256Hex(stableStringify(body)) },
      nonce,
    );
    if (outcome.kind === "created") countOrderCreated();
    switch (outcome.kind) {
      case "created":
        return { order: toOrderData(outcome.order, partner.clientId), replayed: false };
      case "replayed":
        return { order: toOrderData(asCreated(outcome.order), partner.clientId), replayed: true };
      case "request_replayed":
        throw requestReplayed("create");
      case "idempotency_mismatch":
        throw new ApiError(
          "idempotency_key_mismatch",
          "This Idempotency-Key was already used with a different request body; use a new key for a new order.",
        );
      case "duplicate_purchase_order": {
        const existing = toOrderData(outcome.existing, partner.clientId);
        throw new ApiError(
          "duplicate_purchase_order",
          `Order ${existing.order_number} (id ${existing.id}) already has purchase_order_no '${existing.purchase_order_no}'.`,
          {
            existing_order: {
              id: existing.id,
              order_number: existing.order_number,
              created_at: existing.created_at,
            },
          },
        );
      }
    }
  }

  async get(partner: PartnerView, id: string): Promise<OrderData> {
    const order = await this.store.findOrder(partner.id, id);
    // Another partner's order is reported exactly like a missing one.
    if (!order)
      throw new ApiError("order_not_found", `No sales order with id '${id}' for this partner.`);
    return this.#withHistory(order, partner.clientId, false);
  }

  async list(
    partner: PartnerView,
    limit: number,
    cursor?: string,
    filter: OrderFilter = {},
  ): Promise<{ data: OrderData[]; next_cursor: string | null }> {
    return listPage(
      (options) =>
        this.#inSlot(`partner:${partner.id}`, () => this.store.listOrders(partner.id, options)),
      limit,
      cursor,
      () => partner.clientId,
      filter,
    );
  }

  async #withHistory(
    order: SalesOrderRecord,
    clientId: string,
    showUsers: boolean,
  ): Promise<OrderData> {
    const changes = await this.store.orderHistory(order.id);
    return {
      ...toOrderData(order, clientId),
      history: historyOf(order, clientId, changes, showUsers),
    };
  }

  /** The partner withdraws an order the tenant has not accepted yet. */
  async cancelForPartner(partner: PartnerView, id: string, reason: string): Promise<OrderData> {
    const order = await this.#move("cancel", "partner", {
      id,
      scope: { partnerId: partner.id },
      actor: { type: "partner", id: partner.id, name: partner.clientId },
      reason,
      ifMatch: undefined,
    });
    return this.#withHistory(order, partner.clientId, false);
  }

  /** A tenant user moves one of its partners' orders (tenant-routes.ts checks the role). */
  async moveForTenant(
    context: UserContext,
    id: string,
    action: OrderAction,
    reason: string | null,
    ifMatch: string | undefined,
  ): Promise<TenantOrderData> {
    const order = await this.#move(action, "tenant", {
      id,
      scope: { tenantId: context.tenant.id },
      actor: { type: "user", id: context.user.id, name: context.user.email },
      reason,
      ifMatch,
    });
    return this.getForTenant(context.tenant.id, order.id);
  }

  async #move(
    action: OrderAction,
    mover: Mover,
    request: {
      id: string;
      scope: OrderScope;
      actor: { type: "partner" | "user"; id: string; name: string };
      reason: string | null;
      ifMatch: string | undefined;
    },
  ): Promise<SalesOrderRecord> {
    const expectedVersion = versionOf(request.ifMatch);
    if (Number.isNaN(expectedVersion)) {
      throw new ApiError(
        "order_version_mismatch",
        "If-Match must be the order's ETag (as GET returned it) or *.",
      );
    }
    const transition = transitionFor(action, mover);
    rememberEventTrace(request.id, transition.to);
    const outcome = await this.store.moveOrder({
      orderId: request.id,
      scope: request.scope,
      from: transition.from,
      to: transition.to,
      ...(expectedVersion === undefined ? {} : { expectedVersion }),
      actor: request.actor,
      reason: request.reason,
      at: this.now(),
    });
    switch (outcome.kind) {
      case "moved":
        countOrderMove(outcome.order.status);
        return outcome.order;
      case "not_found":
        throw new ApiError("order_not_found", `No sales order with id '${request.id}' here.`);
      case "stale":
        throw new ApiError(
          "order_version_mismatch",
          `The order changed since you read it: it is now version ${outcome.order.version} (${outcome.order.status}). Read it again and decide.`,
          { current_status: outcome.order.status, current_version: outcome.order.version },
          { etag: etagOf(outcome.order.version) },
        );
      case "illegal": {
        const allowed = nextStatuses(outcome.order.status, mover);
        throw new ApiError(
          "order_transition_invalid",
          `Cannot ${action} an order that is ${outcome.order.status}; from ${outcome.order.status} it can move to ${allowed.length ? allowed.join(", ") : "nothing (final)"}.`,
          { current_status: outcome.order.status, allowed_next: allowed },
          { etag: etagOf(outcome.order.version) },
        );
      }
    }
  }

  /** One order of a tenant's partners; another tenant's order is reported like a missing one. */
  async getForTenant(tenantId: string, id: string): Promise<TenantOrderData> {
    const order = await this.store.tenants.findTenantOrder(tenantId, id);
    if (!order)
      throw new ApiError("order_not_found", `No sales order with id '${id}' for this tenant.`);
    const changes = await this.store.orderHistory(order.id);
    return {
      ...toTenantOrderData(order),
      history: historyOf(order, order.clientId, changes, true),
    };
  }

  /** The orders of a tenant's partners, a page at a time, filtered, searched and counted. */
  async listForTenant(
    tenantId: string,
    query: TenantFilterQuery & { limit: number; cursor?: string },
  ): Promise<{
    data: TenantOrderData[];
    next_cursor: string | null;
    total: { count: number; exact: boolean };
  }> {
    const beforeSeq = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const options = {
      ...tenantOptionsOf(query),
      limit: query.limit,
      ...(beforeSeq === undefined ? {} : { beforeSeq }),
    };
    const [page, total] = await this.#inSlot(`tenant:${tenantId}`, () =>
      Promise.all([
        this.store.tenants.listTenantOrders(tenantId, options),
        this.store.tenants.countTenantOrders(tenantId, options),
      ]),
    );
    return {
      data: page.orders.map(toTenantOrderData),
      next_cursor: page.nextBeforeSeq === null ? null : encodeCursor(page.nextBeforeSeq),
      total,
    };
  }

  /**
   * Every order matching the filters, page by page (`pageSize` each), at most `max`: for the
   * CSV export and the bulk moves' "all matching", which never hold more than a page at once.
   */
  async *matchingForTenant(
    tenantId: string,
    query: TenantFilterQuery,
    max: number,
    pageSize = 100,
  ): AsyncGenerator<TenantOrderData[]> {
    let beforeSeq: number | undefined;
    let left = max;
    while (left > 0) {
      const limit = Math.min(pageSize, left);
      const options = {
        ...tenantOptionsOf(query),
        limit,
        ...(beforeSeq === undefined ? {} : { beforeSeq }),
      };
      // A slot per page: a long export does not hold one while its client reads.
      const page = await this.#inSlot(`tenant:${tenantId}`, () =>
        this.store.tenants.listTenantOrders(tenantId, options),
      );
      left -= page.orders.length;
      if (page.orders.length > 0) yield page.orders.map(toTenantOrderData);
      if (page.nextBeforeSeq === null) return;
      beforeSeq = page.nextBeforeSeq;
    }
  }
}

import type pg from "pg";
import { redactedUrl } from "../../lib/database-url.js";
import { newId } from "../../lib/random.js";
import { type BatchOutcome, GroupCommit } from "../group-commit.js";
import {
  EVENTS_AFTER,
  findInScope,
  HISTORY_OF,
  historyStatement,
  moveEventStatement,
  moveStatement,
  type OrderEventRow,
  type OrderHistoryRow,
  partnerOrdersStatement,
  toChange,
  toEvent,
  whyNotMoved,
} from "../order-moves.js";
import { isStoreOutage } from "../outage.js";
import { SqlRequestLogStore } from "../request-log-store.js";
import {
  createdOrder,
  type OrderRow,
  type PartnerKeyRow,
  type PartnerRow,
  pageOf,
  type SigningKeyRow,
  storableOrder,
  toOrder,
  toPartner,
  toPartnerKey,
  toSigningKey,
} from "../rows.js";
import { SqlAuditStore } from "../sql-audit-store.js";
import type {
  CreateOrderOutcome,
  IdempotencyClaim,
  NewSalesOrder,
  OrderChangeRecord,
  OrderEventRecord,
  OrderFilter,
  OrderMove,
  OrderMoveOutcome,
  OrderPage,
  PartnerKeyRecord,
  PartnerRecord,
  PartnerStatus,
  SalesOrderRecord,
  SignatureVersion,
  SigningKeyRecord,
  Store,
} from "../store.js";
import { migratePostgres, postgresSchemaVersion } from "./migrate.js";
import { insertOrderRows, insertOrders } from "./order-batch.js";
import { createPool, DEFAULT_POOL_MAX, inTransaction, type PoolOptions } from "./pool.js";
import { numbered, PostgresRunner } from "./runner.js";
import { PostgresTenantStore } from "./tenant-store.js";
import { PostgresWebhookStore } from "./webhook-store.js";

const failed = (error: unknown): BatchOutcome<never> => ({
  ok: false,
  error: error instanceof Error ? error : new Error(String(error)),
});

/**
 * The PostgreSQL store, for several gateway instances on one database. Every rule that must hold
 * across instances is decided by the database itself: unique constraints with ON CONFLICT for
 * refresh-once, purchase_order_no and Idempotency-Key (a racing duplicate waits on the first
 * transaction's row lock and then sees its outcome), an identity column for the order seq.
 * Each order commits on its own (synchronous_commit on: durable when acknowledged); the server
 * groups the WAL flushes of concurrent commits.
 */
export class PostgresStore implements Store {
  readonly kind = "postgres";
  readonly tenants: PostgresTenantStore;
  readonly webhooks: PostgresWebhookStore;
  readonly requestLog: SqlRequestLogStore;
  readonly audit: SqlAuditStore;
  readonly pool: pg.Pool;
  readonly #orders: GroupCommit<NewSalesOrder, CreateOrderOutcome>;

  constructor(
    readonly url: string,
    options: PoolOptions = {},
  ) {
    this.pool = createPool(url, options);
    this.#orders = new GroupCommit(
      (orders) => this.#insertBatch(orders),
      256,
      Math.max(1, (options.max ?? DEFAULT_POOL_MAX) - 2),
    );
    this.tenants = new PostgresTenantStore(this.pool);
    this.webhooks = new PostgresWebhookStore(this.pool);
    this.requestLog = new SqlRequestLogStore(new PostgresRunner(this.pool));
    this.audit = new SqlAuditStore(new PostgresRunner(this.pool));
  }

  async migrate(): Promise<void> {
    try {
      await migratePostgres(this.pool);
    } catch (error) {
      // Say which server, without the password, so the operator sees what to fix.
      throw new Error(
        `Cannot open the PostgreSQL store ${redactedUrl(this.url)}: ${(error as Error).message}`,
      );
    }
  }

  schemaVersion(): Promise<number> {
    return postgresSchemaVersion(this.pool);
  }

  #closed: Promise<void> | undefined;
  close(): Promise<void> {
    this.#closed ??= this.#orders.drain().then(() => this.pool.end());
    return this.#closed;
  }

  /**
   * One batch in one statement. When the statement fails as a whole (say, one order names an
   * unknown partner), each order is retried alone, so only the faulty one fails. Not when the
   * store is out: one by one, each would wait out its own timeout.
   */
  async #insertBatch(orders: NewSalesOrder[]): Promise<BatchOutcome<CreateOrderOutcome>[]> {
    const duplicateOf = (order: NewSalesOrder) => this.#duplicateOf(order);
    try {
      return await insertOrders(this.pool, orders, duplicateOf);
    } catch (error) {
      if (orders.length === 1 || isStoreOutage(error)) return orders.map(() => failed(error));
      // One by one, in order, so seqs keep the order of arrival; after an outage the rest fail
      // at once.
      const results: BatchOutcome<CreateOrderOutcome>[] = [];
      let outage: unknown;
      for (const order of orders) {
        const [result = failed(outage)] = outage ? [] : await this.#insertBatch([order]);
        if (!result.ok && isStoreOutage(result.error)) outage = result.error;
        results.push(result);
      }
      return results;
    }
  }

  async #rows<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.pool.query<R>(sql, params)).rows;
  }

  async createPartner(p: PartnerRecord): Promise<void> {
    await this.pool.query(
      "INSERT INTO partners (id, client_id, name, secret_hash, secret_version, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      [p.id, p.clientId, p.name, p.secretHash, p.secretVersion, p.status, p.createdAt, p.updatedAt],
    );
  }

  async findPartnerByClientId(clientId: string): Promise<PartnerRecord | undefined> {
    const [row] = await this.#rows<PartnerRow>("SELECT * FROM partners WHERE client_id = $1", [
      clientId,
    ]);
    return row && toPartner(row);
  }

  async listPartners(): Promise<PartnerRecord[]> {
    return (
      await this.#rows<PartnerRow>("SELECT * FROM partners ORDER BY created_at, client_id")
    ).map(toPartner);
  }

  async countPartners(): Promise<number> {
    const [row] = await this.#rows<{ n: number }>("SELECT COUNT(*)::int AS n FROM partners");
    return row?.n ?? 0;
  }

  async setPartnerStatus(partnerId: string, status: PartnerStatus, at: number): Promise<void> {
    await this.pool.query("UPDATE partners SET status = $1, updated_at = $2 WHERE id = $3", [
      status,
      at,
      partnerId,
    ]);
  }

  async rotatePartnerSecret(
    partnerId: string,
    secretHash: string,
    at: number,
    previousUntil: number | null,
  ): Promise<number> {
    // Assignments in one UPDATE all read the row as it was: the previous hash is the replaced one.
    const [row] = await this.#rows<{ secret_version: number }>(
      "UPDATE partners SET previous_secret_hash = CASE WHEN $4::bigint IS NULL THEN NULL ELSE secret_hash END, previous_secret_until = $4::bigint, secret_hash = $1, secret_version = secret_version + 1, updated_at = $2 WHERE id = $3 RETURNING secret_version",
      [secretHash, at, partnerId, previousUntil],
    );
    if (row === undefined) throw new Error(`No partner with id ${partnerId}`);
    return row.secret_version;
  }

  async addPartnerKey(k: PartnerKeyRecord): Promise<void> {
    await this.pool.query(
      "INSERT INTO partner_keys (id, partner_id, fingerprint, public_key_pem, bits, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [k.id, k.partnerId, k.fingerprint, k.publicKeyPem, k.bits, k.createdAt, k.revokedAt],
    );
  }

  async listPartnerKeys(partnerId: string): Promise<PartnerKeyRecord[]> {
    return (
      await this.#rows<PartnerKeyRow>(
        "SELECT * FROM partner_keys WHERE partner_id = $1 ORDER BY created_at, id",
        [partnerId],
      )
    ).map(toPartnerKey);
  }

  async revokePartnerKey(partnerId: string, keyId: string, at: number): Promise<boolean> {
    const result = await this.pool.query(
      "UPDATE partner_keys SET revoked_at = $1 WHERE partner_id = $2 AND id = $3 AND revoked_at IS NULL",
      [at, partnerId, keyId],
    );
    return result.rowCount === 1;
  }

  async setPartnerSignatureVersion(
    partnerId: string,
    version: SignatureVersion,
    at: number,
  ): Promise<void> {
    await this.pool.query(
      "UPDATE partners SET signature_version = $1, updated_at = $2 WHERE id = $3",
      [version, at, partnerId],
    );
  }

  async raiseOrderNumberFloor(floor: number, partnerId?: string): Promise<number> {
    const result = await this.pool.query(
      `UPDATE partners SET orders_issued = $1 WHERE orders_issued < $1${partnerId === undefined ? "" : " AND id = $2"}`,
      partnerId === undefined ? [floor] : [floor, partnerId],
    );
    return result.rowCount ?? 0;
  }

  async listSigningKeys(): Promise<SigningKeyRecord[]> {
    return (
      await this.#rows<SigningKeyRow>("SELECT * FROM signing_keys ORDER BY created_at, kid")
    ).map(toSigningKey);
  }

  async addSigningKey(k: SigningKeyRecord): Promise<void> {
    await this.pool.query(
      "INSERT INTO signing_keys (kid, alg, public_jwk, private_key_sealed, created_at, signs_from, retired_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [k.kid, k.alg, k.publicJwk, k.privateKeySealed, k.createdAt, k.signsFrom, k.retiredAt],
    );
  }

  async retireSigningKey(kid: string, at: number): Promise<void> {
    await this.pool.query(
      "UPDATE signing_keys SET retired_at = $1 WHERE kid = $2 AND retired_at IS NULL",
      [at, kid],
    );
  }

  async recordTokenRefresh(
    jti: string,
    partnerId: string,
    newJti: string,
    at: number,
  ): Promise<boolean> {
    const result = await this.pool.query(
      "INSERT INTO token_refreshes (jti, partner_id, new_jti, refreshed_at) VALUES ($1, $2, $3, $4) ON CONFLICT (jti) DO NOTHING",
      [jti, partnerId, newJti, at],
    );
    return result.rowCount === 1;
  }

  async createOrder(
    newOrder: NewSalesOrder,
    idempotency?: IdempotencyClaim,
  ): Promise<CreateOrderOutcome> {
    const order = storableOrder(newOrder);
    // Without a key: group commit, one statement for every order waiting; the unique index
    // decides a purchase_order_no race.
    if (idempotency === undefined) return this.#orders.submit(order);
    const outcome = await inTransaction(
      this.pool,
      async (client): Promise<CreateOrderOutcome | "key_taken" | "po_taken"> => {
        // The key row first: a racing request with the same key waits here for this transaction
        // and then sees its committed key (replay) or, if it rolled back, takes the key itself.
        const claimed = await client.query(
          "INSERT INTO idempotency_keys (partner_id, idem_key, request_hash, order_id, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (partner_id, idem_key) DO NOTHING",
          [order.partnerId, idempotency.key, idempotency.requestHash, order.id, order.createdAt],
        );
        if (claimed.rowCount !== 1) return "key_taken";
        const number = (await insertOrderRows(client, [order])).get(order.id);
        return number ? { kind: "created", order: createdOrder(order, number) } : "po_taken";
      },
      (outcome) => typeof outcome !== "string",
    );
    if (outcome === "po_taken") return this.#duplicateOf(order);
    if (outcome === "key_taken") return this.#replayOf(order, idempotency);
    return outcome;
  }

  async #duplicateOf(order: NewSalesOrder): Promise<CreateOrderOutcome> {
    const [existing] = await this.#rows<OrderRow>(
      "SELECT * FROM sales_orders WHERE partner_id = $1 AND purchase_order_no = $2",
      [order.partnerId, order.purchaseOrderNo],
    );
    if (existing === undefined)
      throw new Error("purchase_order_no conflict without a committed order");
    return { kind: "duplicate_purchase_order", existing: toOrder(existing) };
  }

  async #replayOf(
    order: NewSalesOrder,
    idempotency: IdempotencyClaim,
  ): Promise<CreateOrderOutcome> {
    const [previous] = await this.#rows<{ request_hash: string; order_id: string }>(
      "SELECT request_hash, order_id FROM idempotency_keys WHERE partner_id = $1 AND idem_key = $2",
      [order.partnerId, idempotency.key],
    );
    if (previous === undefined) throw new Error("idempotency conflict without a committed key");
    if (previous.request_hash !== idempotency.requestHash) return { kind: "idempotency_mismatch" };
    const replayed = await this.findOrder(order.partnerId, previous.order_id);
    if (replayed === undefined)
      throw new Error(`idempotency key points at missing order ${previous.order_id}`);
    return { kind: "replayed", order: replayed };
  }

  async findOrder(partnerId: string, orderId: string): Promise<SalesOrderRecord | undefined> {
    const [row] = await this.#rows<OrderRow>(
      "SELECT * FROM sales_orders WHERE partner_id = $1 AND id = $2",
      [partnerId, orderId],
    );
    return row && toOrder(row);
  }

  async listOrders(
    partnerId: string,
    options: { limit: number; beforeSeq?: number; filter?: OrderFilter },
  ): Promise<OrderPage> {
    const { sql, params } = partnerOrdersStatement(partnerId, options);
    return pageOf(await this.#rows<OrderRow>(numbered(sql), params), options.limit);
  }

  async moveOrder(move: OrderMove): Promise<OrderMoveOutcome> {
    return inTransaction(
      this.pool,
      async (client): Promise<OrderMoveOutcome> => {
        // FOR UPDATE: a racing move (any instance) waits here, then reads the committed result.
        const find = findInScope(move, "FOR UPDATE");
        const [current] = (await client.query<OrderRow>(numbered(find.sql), find.params)).rows;
        const refused = whyNotMoved(move, current);
        if (refused !== undefined || current === undefined) return refused ?? { kind: "not_found" };
        const update = moveStatement(move);
        const [moved] = (await client.query<OrderRow>(numbered(update.sql), update.params)).rows;
        const history = historyStatement(move, current.status);
        await client.query(numbered(history.sql), history.params);
        const event = moveEventStatement(move, newId(move.at), current.partner_id, current.status);
        await client.query(numbered(event.sql), event.params);
        return { kind: "moved", order: toOrder(moved as OrderRow) };
      },
      (outcome) => outcome.kind === "moved",
    );
  }

  async orderHistory(orderId: string): Promise<OrderChangeRecord[]> {
    return (await this.#rows<OrderHistoryRow>(numbered(HISTORY_OF), [orderId])).map(toChange);
  }

  async listOrderEvents(options: {
    afterSeq?: number;
    limit: number;
  }): Promise<OrderEventRecord[]> {
    const rows = await this.#rows<OrderEventRow>(numbered(EVENTS_AFTER), [
      options.afterSeq ?? 0,
      options.limit,
    ]);
    return rows.map(toEvent);
  }
}

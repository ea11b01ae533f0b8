import type pg from "pg";
import { redactedUrl } from "../../lib/database-url.js";
import { newId } from "../../lib/random.js";
import { type BatchOutcome, GroupCommit } from "../group-commit.js";
import {
  EVENTS_AFTER,
  findInScope,
  HISTORY_OF,
  historyStatement,
  movedTallyStatement,
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
import { type OrderRow, pageOf, storableOrder, toOrder } from "../rows.js";
import { SqlAuditStore } from "../sql-audit-store.js";
import { SqlConsoleSessionStore } from "../sql-console-session-store.js";
import { SqlCredentialStore } from "../sql-credential-store.js";
import { SqlTeamStore } from "../sql-team-store.js";
import { SqlTwoFactorStore } from "../sql-two-factor-store.js";
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
  SalesOrderRecord,
  Store,
} from "../store.js";
import type { NonceClaim } from "../tenant-store.js";
import { PostgresEventFeedStore } from "./event-feed-store.js";
import {
  type MigrateOptions,
  MigrationLockedError,
  migratePostgres,
  postgresSchemaVersion,
} from "./migrate.js";
import { createdOrderOf, insertOrderRows, insertOrders, type OrderJob } from "./order-batch.js";
import {
  createPool,
  DEFAULT_POOL_MAX,
  inTransaction,
  type PoolOptions,
  type SessionFeatures,
  sessionFeatures,
} from "./pool.js";
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
export class PostgresStore extends SqlCredentialStore implements Store {
  readonly kind = "postgres";
  readonly tenants: PostgresTenantStore;
  readonly webhooks: PostgresWebhookStore;
  readonly events: PostgresEventFeedStore;
  readonly audit: SqlAuditStore;
  readonly team: SqlTeamStore;
  readonly consoleSessions: SqlConsoleSessionStore;
  readonly twoFactor: SqlTwoFactorStore;
  readonly requestLog: SqlRequestLogStore;
  readonly pool: pg.Pool;
  /** What the pooler in front (GATEWAY_PG_POOLER) leaves usable. */
  readonly features: SessionFeatures;
  readonly #migrateOptions: MigrateOptions;
  readonly #orders: GroupCommit<OrderJob, CreateOrderOutcome>;

  constructor(
    readonly url: string,
    options: PoolOptions = {},
  ) {
    const pool = createPool(url, options);
    super(new PostgresRunner(pool));
    this.pool = pool;
    this.features = sessionFeatures(options.pooler);
    this.#migrateOptions = {
      lockWaitSeconds: options.migrationLockWaitSeconds,
      onWait: options.onMigrationLockWait,
    };
    this.#orders = new GroupCommit(
      (jobs) => this.#insertBatch(jobs),
      256,
      Math.max(1, (options.max ?? DEFAULT_POOL_MAX) - 2),
    );
    this.tenants = new PostgresTenantStore(this.pool, this.features.namedStatements);
    this.webhooks = new PostgresWebhookStore(this.pool, this.features.listen);
    this.events = new PostgresEventFeedStore(this.pool, this.features.listen);
    this.audit = new SqlAuditStore(new PostgresRunner(this.pool));
    this.team = new SqlTeamStore(new PostgresRunner(this.pool));
    this.consoleSessions = new SqlConsoleSessionStore(new PostgresRunner(this.pool));
    this.twoFactor = new SqlTwoFactorStore(new PostgresRunner(this.pool));
    this.requestLog = new SqlRequestLogStore(new PostgresRunner(this.pool));
  }

  async migrate(): Promise<void> {
    try {
      await migratePostgres(this.pool, this.#migrateOptions);
    } catch (error) {
      if (error instanceof MigrationLockedError) throw error;
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
    this.#closed ??= Promise.all([this.#orders.drain(), this.tenants.drain()]).then(() =>
      this.pool.end(),
    );
    return this.#closed;
  }

  /**
   * One batch in one statement. When the statement fails as a whole (say, one order names an
   * unknown partner), each order is retried alone, so only the faulty one fails. Not when the
   * store is out: one by one, each would wait out its own timeout.
   */
  async #insertBatch(jobs: OrderJob[]): Promise<BatchOutcome<CreateOrderOutcome>[]> {
    const duplicateOf = (order: NewSalesOrder) => this.#duplicateOf(order);
    try {
      return await insertOrders(this.pool, jobs, duplicateOf, this.features.namedStatements);
    } catch (error) {
      if (jobs.length === 1 || isStoreOutage(error)) return jobs.map(() => failed(error));
      // One by one, in order, so seqs keep the order of arrival; after an outage the rest fail
      // at once.
      const results: BatchOutcome<CreateOrderOutcome>[] = [];
      let outage: unknown;
      for (const job of jobs) {
        const [result = failed(outage)] = outage ? [] : await this.#insertBatch([job]);
        if (!result.ok && isStoreOutage(result.error)) outage = result.error;
        results.push(result);
      }
      return results;
    }
  }

  async #rows<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    return (await this.pool.query<R>(sql, params)).rows;
  }

  async createOrder(
    newOrder: NewSalesOrder,
    idempotency?: IdempotencyClaim,
    nonce?: NonceClaim,
  ): Promise<CreateOrderOutcome> {
    const order = storableOrder(newOrder);
    // Without a key: group commit, one statement for every order waiting (their nonces
    // included); the unique indexes decide a purchase_order_no or a nonce race.
    if (idempotency === undefined) return this.#orders.submit({ order, nonce });
    const outcome = await inTransaction(
      this.pool,
      async (client): Promise<CreateOrderOutcome | "key_taken" | "po_taken"> => {
        // The key row first: a racing request with the same key waits here for this transaction
        // and then sees its committed key (replay) or, if it rolled back, takes the key itself.
        // So an exact retry with its key replays before its nonce is looked at.
        const claimed = await client.query(
          "INSERT INTO idempotency_keys (partner_id, idem_key, request_hash, order_id, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (partner_id, idem_key) DO NOTHING",
          [order.partnerId, idempotency.key, idempotency.requestHash, order.id, order.createdAt],
        );
        if (claimed.rowCount !== 1) return "key_taken";
        const fate = (
          await insertOrderRows(client, [{ order, nonce }], this.features.namedStatements)
        ).get(order.id);
        if (fate?.kind === "created")
          return { kind: "created", order: createdOrderOf(order, fate) };
        return fate?.kind === "replayed" ? { kind: "request_replayed" } : "po_taken";
      },
      // Anything but a creation rolls back: the key and the nonce stay free.
      (outcome) => typeof outcome !== "string" && outcome.kind === "created",
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
        const tally = movedTallyStatement(current, move.to);
        await client.query(numbered(tally.sql), tally.params);
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

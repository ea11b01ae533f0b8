import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import type { SqliteSynchronous } from "../../config/config.js";
import { newId } from "../../lib/random.js";
import { type BatchOutcome, GroupCommit } from "../group-commit.js";
import { loadMigrations } from "../migrations.js";
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
import { SqlRequestLogStore } from "../request-log-store.js";
import { type OrderRow, pageOf, storableOrder, toOrder } from "../rows.js";
import { SqlAuditStore } from "../sql-audit-store.js";
import { SqlConsoleSessionStore } from "../sql-console-session-store.js";
import { SqlCredentialStore } from "../sql-credential-store.js";
import { SqlTeamStore } from "../sql-team-store.js";
import { SqlTwoFactorStore } from "../sql-two-factor-store.js";
import { QUEUE_EVENT } from "../sql-webhook-store.js";
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
import { openConnection } from "./connection.js";
import { SqliteEventFeedStore } from "./event-feed-store.js";
import { createNonceWriter } from "./nonce-writer.js";
import {
  type CreateJob,
  createOrderWriter,
  fromWire,
  fromWireResult,
  toBatchResult,
  toWireJob,
  type WireError,
  type WireResult,
  type WriterResult,
} from "./order-writer.js";
import { type ReaderOptions, ReaderThreads } from "./reader-threads.js";
import { SqliteRunner } from "./runner.js";
import { SqliteTenantStore } from "./tenant-store.js";
import { SqliteWebhookStore } from "./webhook-store.js";

/**
 * The compiled writer thread. Under the TypeScript sources (the test runner) it does not exist
 * and orders are written on the calling thread instead: same SQL, same transactions.
 */
const WRITER_THREAD = fileURLToPath(new URL("./writer-thread.js", import.meta.url));

/** Sends batches to the writer thread and matches the answers to them. */
class WriterThread {
  readonly #worker: Worker;
  readonly #pending = new Map<
    number,
    // biome-ignore lint/suspicious/noExplicitAny: each request's own answer type (write, claim)
    { resolve: (r: any) => void; reject: (e: Error) => void }
  >();
  #nextId = 1;

  constructor(path: string, synchronous: SqliteSynchronous) {
    this.#worker = new Worker(WRITER_THREAD, { workerData: { path, synchronous } });
    this.#worker.on(
      "message",
      (message: { id: number; results?: WireResult[]; claimed?: boolean[]; error?: WireError }) => {
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        if (message.claimed) pending?.resolve(message.claimed);
        else if (message.results) pending?.resolve(message.results);
        else
          pending?.reject(
            message.error ? fromWire(message.error) : new Error("writer thread failed"),
          );
      },
    );
    const failAll = (error: Error) => {
      for (const pending of this.#pending.values()) pending.reject(error);
      this.#pending.clear();
    };
    this.#worker.on("error", failAll);
    this.#worker.on("exit", (code) => failAll(new Error(`order writer thread exited (${code})`)));
  }

  async write(jobs: CreateJob[]): Promise<BatchOutcome<CreateOrderOutcome>[]> {
    const results = await this.#ask<WireResult[]>({ jobs: jobs.map(toWireJob) });
    return results.map((result, i) => fromWireResult(result, jobs[i] as CreateJob));
  }

  /** For each nonce, whether it was new (see createNonceWriter). */
  claim(nonces: NonceClaim[]): Promise<boolean[]> {
    return this.#ask({ nonces });
  }

  #ask<R>(message: object): Promise<R> {
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, ...message });
    });
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.#worker.once("exit", resolve));
    this.#worker.postMessage({ close: true });
    await exited;
  }
}

/**
 * Creates the database file 0600 (its directory 0700) before SQLite opens it: the file holds
 * orders and personal data, and SQLite gives its WAL and SHM files the mode of the database
 * file. An existing file keeps the mode its operator gave it.
 */
function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(path, "wx", 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/**
 * The embedded store: one SQLite file in WAL mode with synchronous=FULL, so a committed order
 * survives a power cut. Order creation goes through group commit to keep that durability fast.
 */
export class SqliteStore extends SqlCredentialStore implements Store {
  readonly kind = "sqlite";
  readonly tenants: SqliteTenantStore;
  readonly webhooks: SqliteWebhookStore;
  readonly events: SqliteEventFeedStore;
  readonly audit: SqlAuditStore;
  readonly team: SqlTeamStore;
  readonly consoleSessions: SqlConsoleSessionStore;
  readonly twoFactor: SqlTwoFactorStore;
  readonly requestLog: SqlRequestLogStore;
  readonly #db: Database.Database;
  readonly #orders: GroupCommit<CreateJob, CreateOrderOutcome>;
  readonly #writer: WriterThread | undefined;
  readonly #nonces: GroupCommit<NonceClaim, boolean>;
  /** Listings, counts and searches; undefined in memory (one connection), read inline. */
  readonly reads: ReaderThreads | undefined;
  #inlineNonces: ((claims: NonceClaim[]) => boolean[]) | undefined;

  constructor(
    readonly path: string,
    options: {
      writerThread?: boolean;
      synchronous?: SqliteSynchronous;
      /** False: listings read on the calling thread (the admin CLI, which lists once). */
      readerThreads?: boolean | ReaderOptions;
    } = {},
  ) {
    if (path !== ":memory:") createPrivately(path);
    const db = openConnection(path, options.synchronous);
    super(new SqliteRunner(db));
    this.#db = db;
    const useThread =
      (options.writerThread ?? true) && path !== ":memory:" && existsSync(WRITER_THREAD);
    this.#writer = useThread ? new WriterThread(path, options.synchronous ?? "full") : undefined;
    this.#nonces = new GroupCommit<NonceClaim, boolean>((claims) => this.#claimNonces(claims));
    const readers = options.readerThreads ?? true;
    this.reads =
      readers === false || path === ":memory:"
        ? undefined
        : new ReaderThreads(path, readers === true ? {} : readers);
    this.tenants = new SqliteTenantStore(
      this.#db,
      (claim) => this.#nonces.submit(claim),
      this.reads,
    );
    this.webhooks = new SqliteWebhookStore(this.#db);
    this.events = new SqliteEventFeedStore(this.#db, this.reads);
    this.audit = new SqlAuditStore(new SqliteRunner(this.#db));
    this.team = new SqlTeamStore(new SqliteRunner(this.#db));
    this.consoleSessions = new SqlConsoleSessionStore(new SqliteRunner(this.#db));
    this.twoFactor = new SqlTwoFactorStore(new SqliteRunner(this.#db));
    this.requestLog = new SqlRequestLogStore(new SqliteRunner(this.#db));
    const inline = useThread ? undefined : createOrderWriter(this.#db);
    this.#orders = new GroupCommit<CreateJob, CreateOrderOutcome>((jobs) =>
      this.#writer
        ? this.#writer.write(jobs)
        : new Promise((resolve) =>
            resolve(
              (inline as (j: CreateJob[]) => WriterResult[])(jobs).map((result, i) =>
                toBatchResult(result, jobs[i] as CreateJob),
              ),
            ),
          ),
    );
  }

  /**
   * Replay-guard nonces of signed requests other than creates (whose nonce is a row of the
   * order's own transaction), claimed in batches on the writer thread (or inline without one).
   */
  async #claimNonces(claims: NonceClaim[]): Promise<BatchOutcome<boolean>[]> {
    let claimed: boolean[];
    if (this.#writer) claimed = await this.#writer.claim(claims);
    else {
      this.#inlineNonces ??= createNonceWriter(this.#db);
      claimed = this.#inlineNonces(claims);
    }
    return claimed.map((value) => ({ ok: true, value }));
  }

  async migrate(): Promise<void> {
    const db = this.#db;
    db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    );
    // A migration may rebuild a table others reference (SQLite cannot drop a column's UNIQUE):
    // that needs foreign keys off, which SQLite ignores inside a transaction. They are checked
    // before the commit instead, so a broken reference still refuses the whole migration.
    db.pragma("foreign_keys = OFF");
    const apply = db.transaction(() => {
      const applied = new Set(
        (db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map(
          (r) => r.version,
        ),
      );
      for (const migration of loadMigrations("sqlite")) {
        if (applied.has(migration.version)) continue;
        db.exec(migration.sql);
        db.prepare(
          "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        ).run(migration.version, migration.name, Date.now());
      }
      const broken = db.pragma("foreign_key_check") as unknown[];
      if (broken.length > 0)
        throw new Error(`migration left ${broken.length} broken foreign key reference(s)`);
    });
    try {
      apply.immediate();
    } finally {
      db.pragma("foreign_keys = ON");
    }
  }

  async schemaVersion(): Promise<number> {
    const row = this.#prepare("SELECT MAX(version) AS v FROM schema_migrations").get() as {
      v: number | null;
    };
    return row.v ?? 0;
  }

  async close(): Promise<void> {
    await this.#nonces.drain();
    await this.#orders.drain();
    await this.#writer?.close();
    await this.reads?.close();
    if (this.#db.open) this.#db.close();
  }

  #stmt = new Map<string, Database.Statement>();
  #prepare(sql: string): Database.Statement {
    let statement = this.#stmt.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#stmt.set(sql, statement);
    }
    return statement;
  }

  async createOrder(
    order: NewSalesOrder,
    idempotency?: IdempotencyClaim,
    nonce?: NonceClaim,
  ): Promise<CreateOrderOutcome> {
    const outcome = await this.#orders.submit({ order: storableOrder(order), idempotency, nonce });
    this.events.written();
    return outcome;
  }

  async findOrder(partnerId: string, orderId: string): Promise<SalesOrderRecord | undefined> {
    const row = this.#prepare("SELECT * FROM sales_orders WHERE partner_id = ? AND id = ?").get(
      partnerId,
      orderId,
    ) as OrderRow | undefined;
    return row && toOrder(row);
  }

  async listOrders(
    partnerId: string,
    options: { limit: number; beforeSeq?: number; filter?: OrderFilter },
  ): Promise<OrderPage> {
    const { sql, params } = partnerOrdersStatement(partnerId, options, { sqlite: true });
    const rows = this.reads
      ? await this.reads.rows<OrderRow>(sql, params)
      : (this.#prepare(sql).all(...params) as OrderRow[]);
    return pageOf(rows, options.limit);
  }

  async moveOrder(move: OrderMove): Promise<OrderMoveOutcome> {
    // IMMEDIATE takes the write lock before the read, so a move from another process waits.
    const run = this.#db.transaction((): OrderMoveOutcome => {
      const find = findInScope(move);
      const current = this.#prepare(find.sql).get(...find.params) as OrderRow | undefined;
      const refused = whyNotMoved(move, current);
      if (refused !== undefined || current === undefined) return refused ?? { kind: "not_found" };
      const update = moveStatement(move);
      const moved = this.#prepare(update.sql).get(...update.params) as OrderRow;
      const tally = movedTallyStatement(current, move.to);
      this.#prepare(tally.sql).run(...tally.params);
      const history = historyStatement(move, current.status);
      this.#prepare(history.sql).run(...history.params);
      const eventId = newId(move.at);
      const event = moveEventStatement(move, eventId, current.partner_id, current.status, true);
      this.#prepare(event.sql).run(...event.params);
      this.#prepare(QUEUE_EVENT).run(move.at, move.at, move.at, eventId);
      return { kind: "moved", order: toOrder(moved) };
    });
    const outcome = run.immediate();
    if (outcome.kind === "moved") this.events.written();
    return outcome;
  }

  async orderHistory(orderId: string): Promise<OrderChangeRecord[]> {
    return (this.#prepare(HISTORY_OF).all(orderId) as OrderHistoryRow[]).map(toChange);
  }

  async listOrderEvents(options: {
    afterSeq?: number;
    limit: number;
  }): Promise<OrderEventRecord[]> {
    const rows = this.#prepare(EVENTS_AFTER).all(options.afterSeq ?? 0, options.limit);
    return (rows as OrderEventRow[]).map(toEvent);
  }
}

import type Database from "better-sqlite3";
import { newId } from "../../lib/random.js";
import {
  ADD_TALLY,
  addTallyParams,
  CREATED_EVENT,
  createdTally,
  type TallyAddition,
} from "../order-moves.js";
import { createdOrder, type OrderRow, orderParams, toOrder } from "../rows.js";
import { QUEUE_EVENTS_BETWEEN } from "../sql-webhook-store.js";
import type {
  CreateOrderOutcome,
  IdempotencyClaim,
  NewSalesOrder,
  SalesOrderRecord,
} from "../store.js";
import type { NonceClaim } from "../tenant-store.js";

export interface CreateJob {
  order: NewSalesOrder;
  idempotency: IdempotencyClaim | undefined;
  /** The create's replay-guard nonce, stored in the order's own transaction (runJob). */
  nonce?: NonceClaim | undefined;
}

export type BatchResult = { ok: true; value: CreateOrderOutcome } | { ok: false; error: Error };

/**
 * What the writer answers for a job: a created order as its two numbers only, since the caller
 * has the rest (its job) and building the whole record on the writer cost a tenth of the
 * writer's work per order (measured); any other outcome whole. toBatchResult rebuilds it.
 */
export type WriterOutcome =
  | Exclude<CreateOrderOutcome, { kind: "created" }>
  | { kind: "created"; seq: number; partnerSeq: number };

export type WriterResult = { ok: true; value: WriterOutcome } | { ok: false; error: Error };

/** A writer's answer to `job` as the caller's outcome, the created order rebuilt from the job. */
export const toBatchResult = (result: WriterResult, job: CreateJob): BatchResult => {
  if (!result.ok) return result;
  const { value } = result;
  return value.kind === "created"
    ? {
        ok: true,
        value: {
          kind: "created",
          order: createdOrder(job.order, { seq: value.seq, partnerSeq: value.partnerSeq }),
        },
      }
    : { ok: true, value };
};

/**
 * An error as it crosses from the writer thread: structured clone keeps an Error's message but
 * drops its `code` (SQLITE_BUSY, SQLITE_IOERR…), which says whether it is an outage.
 */
export interface WireError {
  message: string;
  code?: string;
}

export const toWire = (error: unknown): WireError => ({
  message: error instanceof Error ? error.message : String(error),
  code: (error as { code?: unknown })?.code as string | undefined,
});

export const fromWire = (wire: WireError): Error =>
  Object.assign(new Error(wire.message), wire.code === undefined ? {} : { code: wire.code });

/**
 * A job's result as it crosses back from the writer thread. A created order travels as its two
 * numbers only: the calling thread has the rest (its job), and cloning the whole order back cost
 * as much as cloning it there.
 */
export type WireResult =
  | [seq: number, partnerSeq: number]
  | { ok: true; value: Exclude<CreateOrderOutcome, { kind: "created" }> }
  | { ok: false; error: WireError };

export const toWireResult = (result: WriterResult): WireResult => {
  if (!result.ok) return { ok: false, error: toWire(result.error) };
  const { value } = result;
  return value.kind === "created" ? [value.seq, value.partnerSeq] : { ok: true, value };
};

export const fromWireResult = (wire: WireResult, job: CreateJob): BatchResult => {
  if (Array.isArray(wire)) {
    const [seq, partnerSeq] = wire;
    return toBatchResult({ ok: true, value: { kind: "created", seq, partnerSeq } }, job);
  }
  return wire.ok ? wire : { ok: false, error: fromWire(wire.error) };
};

/**
 * A job as it crosses to the writer thread: its values in a flat array, the product lines as
 * JSON text. Structured clone reads an array of strings and numbers back in under half the time
 * of the nested objects (measured per job), on the writer thread that every order waits for.
 */
export type WireJob = [
  id: string,
  partnerId: string,
  purchaseOrderNo: string | null,
  currency: string | null,
  customerCode: string,
  siteCode: string,
  salesName: string,
  address: string,
  products: string,
  status: string,
  createdAt: number,
  idempotencyKey: string | null,
  requestHash: string | null,
  nonceKey: string | null,
  nonceExpiresAt: number | null,
];

export const toWireJob = ({ order: o, idempotency, nonce }: CreateJob): WireJob => [
  o.id,
  o.partnerId,
  o.purchaseOrderNo,
  o.currency ?? null,
  o.customerCode,
  o.siteCode,
  o.salesName,
  o.address,
  JSON.stringify(o.products),
  o.status,
  o.createdAt,
  idempotency?.key ?? null,
  idempotency?.requestHash ?? null,
  nonce?.key ?? null,
  nonce?.expiresAt ?? null,
];

export const fromWireJob = (w: WireJob): CreateJob => ({
  order: {
    id: w[0],
    partnerId: w[1],
    purchaseOrderNo: w[2],
    currency: w[3],
    customerCode: w[4],
    siteCode: w[5],
    salesName: w[6],
    address: w[7],
    products: JSON.parse(w[8]),
    status: w[9],
    createdAt: w[10],
  },
  idempotency: w[11] === null ? undefined : { key: w[11], requestHash: w[12] ?? "" },
  nonce: w[13] === null ? undefined : { key: w[13], expiresAt: w[14] ?? 0 },
});

/**
 * The order-creation logic for one SQLite connection: a batch of jobs in one IMMEDIATE
 * transaction (one commit, one fsync). IMMEDIATE takes the write lock up front, so the duplicate
 * checks see the latest commit even when another process writes the same file. A job that throws
 * must not undo the others, but a savepoint per order costs a fifth of the writer's work (each
 * page it first touches is copied to the savepoint's journal): so the batch runs without them,
 * and only when a job throws is the batch rolled back and run again one savepoint per job.
 */
export function createOrderWriter(db: Database.Database): (jobs: CreateJob[]) => WriterResult[] {
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string): Database.Statement => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const orderById = (id: string): SalesOrderRecord | undefined => {
    const row = prepare("SELECT * FROM sales_orders WHERE id = ?").get(id) as OrderRow | undefined;
    return row && toOrder(row);
  };
  /** What a stored key answers: its order (same body) or a mismatch; undefined when new. */
  const answerOfKey = (
    partnerId: string,
    idempotency: IdempotencyClaim,
  ): WriterOutcome | undefined => {
    const previous = prepare(
      "SELECT request_hash, order_id FROM idempotency_keys WHERE partner_id = ? AND idem_key = ?",
    ).get(partnerId, idempotency.key) as { request_hash: string; order_id: string } | undefined;
    if (previous === undefined) return undefined;
    if (previous.request_hash !== idempotency.requestHash) return { kind: "idempotency_mismatch" };
    const order = orderById(previous.order_id);
    if (order === undefined)
      throw new Error(`idempotency key points at missing order ${previous.order_id}`);
    return { kind: "replayed", order };
  };
  /**
   * What the batch's created orders add to their partners' counters (orders_issued), to
   * order_day_totals and to the webhook queue: written once per partner, per tally row and per
   * batch when the batch ends (writeBatchEnd), not once per order. A job adds to it only after
   * its last write, so a job its savepoint undoes leaves nothing here either.
   */
  interface BatchEnd {
    /** Per partner, the last number handed out in this batch. */
    numbers: Map<string, number>;
    /** Per tally row (its key joined), what the batch adds to it. */
    tallies: Map<string, TallyAddition>;
    /** The created orders' events, the newest rows of order_events: first and last seq. */
    events: { first: number; last: number };
  }
  const newBatchEnd = (): BatchEnd => ({
    numbers: new Map(),
    tallies: new Map(),
    events: { first: 0, last: 0 },
  });
  const lastNumber = (end: BatchEnd, partnerId: string): number =>
    end.numbers.get(partnerId) ??
    (prepare("SELECT orders_issued FROM partners WHERE id = ?").pluck().get(partnerId) as
      | number
      | undefined) ??
    0;
  const count = (end: BatchEnd, order: NewSalesOrder, partnerSeq: number, eventSeq: number) => {
    end.numbers.set(order.partnerId, partnerSeq);
    const tally = createdTally(order);
    const key = `${tally.partnerId}\n${tally.day}\n${tally.status}\n${tally.currency}`;
    const sum = end.tallies.get(key);
    if (sum === undefined) end.tallies.set(key, tally);
    else {
      sum.orders += tally.orders;
      sum.amount += tally.amount;
    }
    if (end.events.first === 0) end.events.first = eventSeq;
    end.events.last = eventSeq;
  };
  const writeBatchEnd = (end: BatchEnd): void => {
    for (const [partnerId, issued] of end.numbers)
      prepare("UPDATE partners SET orders_issued = ? WHERE id = ?").run(issued, partnerId);
    for (const tally of end.tallies.values()) prepare(ADD_TALLY).run(...addTallyParams(tally));
    // Born dispatched (CREATED_EVENT): their deliveries are queued in their own transaction.
    if (end.events.first > 0) prepare(QUEUE_EVENTS_BETWEEN).run(end.events.first, end.events.last);
  };

  const createOne = ({ order: o, idempotency }: CreateJob, end: BatchEnd): WriterOutcome => {
    // The partner's next number; taken only when the order goes in.
    const partnerSeq = lastNumber(end, o.partnerId) + 1;
    // Insert first and let the unique index report a repeat: one statement on the common path.
    // No RETURNING: SQLite gathers a RETURNING statement's rows in a temporary table first,
    // which cost as much as the row and its five index entries (measured); `seq` is the rowid.
    const inserted = prepare(
      `INSERT INTO sales_orders (id, partner_id, purchase_order_no, customer_code, site_code, sales_name, address, products, status, created_at, currency, partner_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (partner_id, purchase_order_no) DO NOTHING`,
    ).run(...orderParams(o), partnerSeq);
    if (inserted.changes === 0) {
      const existing = prepare(
        "SELECT * FROM sales_orders WHERE partner_id = ? AND purchase_order_no = ?",
      ).get(o.partnerId, o.purchaseOrderNo) as OrderRow;
      return { kind: "duplicate_purchase_order", existing: toOrder(existing) };
    }
    const seq = Number(inserted.lastInsertRowid);
    const event = prepare(CREATED_EVENT).run(
      newId(o.createdAt),
      o.partnerId,
      o.id,
      o.status,
      o.createdAt,
      o.createdAt,
    );
    if (idempotency !== undefined) {
      prepare(
        "INSERT INTO idempotency_keys (partner_id, idem_key, request_hash, order_id, created_at) VALUES (?, ?, ?, ?, ?)",
      ).run(o.partnerId, idempotency.key, idempotency.requestHash, o.id, o.createdAt);
    }
    count(end, o, partnerSeq, Number(event.lastInsertRowid));
    return { kind: "created", seq, partnerSeq };
  };
  const claimNonce = (nonce: NonceClaim): boolean =>
    prepare(
      "INSERT INTO request_nonces (nonce_key, expires_at) VALUES (?, ?) ON CONFLICT (nonce_key) DO NOTHING",
    ).run(nonce.key, nonce.expiresAt).changes === 1;
  const releaseNonce = (nonce: NonceClaim): void => {
    prepare("DELETE FROM request_nonces WHERE nonce_key = ?").run(nonce.key);
  };

  /**
   * One job: its key first (so an exact retry that carries it replays), then its replay-guard
   * nonce, then the order, with `guarded` wrapping the order's own writes (a savepoint or not).
   * The nonce is a row of the batch's transaction, so it commits with the order or not at all;
   * it is written outside the savepoint and deleted again when the order is not created, because
   * a page first written inside a savepoint is copied to the savepoint's journal.
   */
  const runJob = (job: CreateJob, guarded: (job: CreateJob) => WriterOutcome): WriterOutcome => {
    const previous = job.idempotency && answerOfKey(job.order.partnerId, job.idempotency);
    if (previous) return previous;
    const { nonce } = job;
    if (nonce === undefined) return guarded(job);
    if (!claimNonce(nonce)) return { kind: "request_replayed" };
    let outcome: WriterOutcome | undefined;
    try {
      outcome = guarded(job);
      return outcome;
    } finally {
      // Refused or failed: nothing was done, so the same request may come again.
      if (outcome?.kind !== "created") releaseNonce(nonce);
    }
  };

  /** Thrown out of the fast batch to roll it back; the batch is then run job by job. */
  class JobFailed extends Error {}
  const fast = db.transaction((jobs: CreateJob[]): WriterResult[] => {
    const end = newBatchEnd();
    const results = jobs.map((job): WriterResult => {
      try {
        return { ok: true, value: runJob(job, (j) => createOne(j, end)) };
      } catch (error) {
        throw new JobFailed(error instanceof Error ? error.message : String(error));
      }
    });
    writeBatchEnd(end);
    return results;
  });
  const createInSavepoint = db.transaction(createOne);
  const careful = db.transaction((jobs: CreateJob[]): WriterResult[] => {
    const end = newBatchEnd();
    const results = jobs.map((job): WriterResult => {
      try {
        return { ok: true, value: runJob(job, (j) => createInSavepoint(j, end)) };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
      }
    });
    writeBatchEnd(end);
    return results;
  });
  return (jobs) => {
    try {
      return fast.immediate(jobs);
    } catch (error) {
      if (!(error instanceof JobFailed)) throw error;
      return careful.immediate(jobs);
    }
  };
}

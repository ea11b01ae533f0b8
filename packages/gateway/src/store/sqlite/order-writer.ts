import type Database from "better-sqlite3";
import { newId } from "../../lib/random.js";
import { CREATED_EVENT } from "../order-moves.js";
import { createdOrder, type OrderRow, orderParams, toOrder } from "../rows.js";
import { QUEUE_EVENT } from "../sql-webhook-store.js";
import type {
  CreateOrderOutcome,
  IdempotencyClaim,
  NewSalesOrder,
  SalesOrderRecord,
} from "../store.js";

export interface CreateJob {
  order: NewSalesOrder;
  idempotency: IdempotencyClaim | undefined;
}

export type BatchResult = { ok: true; value: CreateOrderOutcome } | { ok: false; error: Error };

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
 * The order-creation logic for one SQLite connection: a batch of jobs in one IMMEDIATE
 * transaction (one commit, one fsync), each job in its own savepoint so a failing job does not
 * undo the others. IMMEDIATE takes the write lock up front, so the duplicate checks see the
 * latest commit even when another process writes the same file.
 */
export function createOrderWriter(db: Database.Database): (jobs: CreateJob[]) => BatchResult[] {
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
  const createOne = ({ order: o, idempotency }: CreateJob): CreateOrderOutcome => {
    if (idempotency !== undefined) {
      const previous = prepare(
        "SELECT request_hash, order_id FROM idempotency_keys WHERE partner_id = ? AND idem_key = ?",
      ).get(o.partnerId, idempotency.key) as { request_hash: string; order_id: string } | undefined;
      if (previous !== undefined) {
        if (previous.request_hash !== idempotency.requestHash)
          return { kind: "idempotency_mismatch" };
        const order = orderById(previous.order_id);
        if (order === undefined)
          throw new Error(`idempotency key points at missing order ${previous.order_id}`);
        return { kind: "replayed", order };
      }
    }
    // Insert first and let the unique index report a repeat: one statement on the common path.
    // The partner's next number; taken (orders_issued bumped) only when the order goes in.
    const inserted = prepare(
      `INSERT INTO sales_orders (id, partner_id, purchase_order_no, customer_code, site_code, sales_name, address, products, status, created_at, currency, partner_seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT orders_issued + 1 FROM partners WHERE id = ?))
       ON CONFLICT (partner_id, purchase_order_no) DO NOTHING RETURNING seq, partner_seq`,
    ).get(...orderParams(o), o.partnerId) as { seq: number; partner_seq: number } | undefined;
    if (inserted === undefined) {
      const existing = prepare(
        "SELECT * FROM sales_orders WHERE partner_id = ? AND purchase_order_no = ?",
      ).get(o.partnerId, o.purchaseOrderNo) as OrderRow;
      return { kind: "duplicate_purchase_order", existing: toOrder(existing) };
    }
    const { seq, partner_seq: partnerSeq } = inserted;
    prepare("UPDATE partners SET orders_issued = ? WHERE id = ?").run(partnerSeq, o.partnerId);
    const eventId = newId(o.createdAt);
    prepare(CREATED_EVENT).run(eventId, o.partnerId, o.id, o.status, o.createdAt, o.createdAt);
    prepare(QUEUE_EVENT).run(o.createdAt, o.createdAt, o.createdAt, eventId);
    if (idempotency !== undefined) {
      prepare(
        "INSERT INTO idempotency_keys (partner_id, idem_key, request_hash, order_id, created_at) VALUES (?, ?, ?, ?, ?)",
      ).run(o.partnerId, idempotency.key, idempotency.requestHash, o.id, o.createdAt);
    }
    return { kind: "created", order: createdOrder(o, { seq, partnerSeq }) };
  };

  const createInSavepoint = db.transaction(createOne);
  const batch = db.transaction((jobs: CreateJob[]): BatchResult[] =>
    jobs.map((job) => {
      try {
        return { ok: true, value: createInSavepoint(job) };
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
      }
    }),
  );
  return (jobs) => batch.immediate(jobs);
}

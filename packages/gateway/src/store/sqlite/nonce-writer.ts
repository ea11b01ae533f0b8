import type Database from "better-sqlite3";
import type { NonceClaim } from "../tenant-store.js";

/**
 * Claims a batch of request nonces in one IMMEDIATE transaction; for each, whether it was new.
 * Only signed writes other than creates come here: a create's nonce is a row of its order's own
 * savepoint (order-writer.ts), so it never commits without the order.
 * The commit skips its own fsync (synchronous=NORMAL for this transaction only), and that loses
 * nothing a partner relies on: a nonce only protects the state change its request makes, and
 * that change commits later into the same WAL file with synchronous=FULL, whose fsync makes the
 * nonce durable with it. A nonce lost with a power cut belonged to a request that changed
 * nothing durable, so accepting its replay cannot apply anything twice. One fsync per nonce on
 * the event loop was a third of a signed create's time (profiled).
 */
export function createNonceWriter(db: Database.Database): (claims: NonceClaim[]) => boolean[] {
  // Prepared at the first claim: the writer starts before the migrations have made the table.
  let insert: Database.Statement | undefined;
  const batch = db.transaction((claims: NonceClaim[]) => {
    insert ??= db.prepare(
      "INSERT INTO request_nonces (nonce_key, expires_at) VALUES (?, ?) ON CONFLICT (nonce_key) DO NOTHING",
    );
    const statement = insert;
    return claims.map((claim) => statement.run(claim.key, claim.expiresAt).changes === 1);
  });
  return (claims) => {
    const synchronous = db.pragma("synchronous", { simple: true }) as number;
    db.pragma("synchronous = NORMAL");
    try {
      return batch.immediate(claims);
    } finally {
      db.pragma(`synchronous = ${synchronous}`);
    }
  };
}

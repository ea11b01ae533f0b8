import type pg from "pg";
import type { BatchOutcome } from "../group-commit.js";
import type { NonceClaim } from "../tenant-store.js";
import { statement } from "./pool.js";

/**
 * Every waiting request's nonce in one statement and one commit. A key already stored (by any
 * instance, or earlier in this statement) is left alone by ON CONFLICT and not returned.
 */
const CLAIM_NONCES = `INSERT INTO request_nonces (nonce_key, expires_at)
  SELECT * FROM unnest($1::text[], $2::bigint[])
  ON CONFLICT (nonce_key) DO NOTHING
  RETURNING nonce_key`;

/**
 * Claims `claims` at once: each is true when its request is the first with that nonce. Two
 * claims of one key in the batch (the same request sent twice at once): the first wins.
 * A failed statement fails every claim: nothing was stored.
 */
export async function claimNonces(
  pool: Pick<pg.Pool, "query">,
  claims: NonceClaim[],
  /** Named prepared statement (false behind a transaction pooler; see pool.ts). */
  named = true,
): Promise<BatchOutcome<boolean>[]> {
  const { rows } = await pool.query<{ nonce_key: string }>(
    statement(named, {
      name: "orderline_claim_nonces_v1",
      text: CLAIM_NONCES,
      values: [claims.map((c) => c.key), claims.map((c) => c.expiresAt)],
    }),
  );
  const stored = new Set(rows.map((r) => r.nonce_key));
  // delete: only the first claim of a key in the batch is told it was stored.
  return claims.map((c) => ({ ok: true, value: stored.delete(c.key) }));
}

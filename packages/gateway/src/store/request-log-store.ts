import type { SqlRunner } from "./sql-runner.js";

/**
 * Persistence of partners' refused requests (migration 016): what `GET /api/v1/request-log`
 * lists. Written in batches, off the request path; bounded per partner. Times are Unix ms.
 */
export interface RequestLogRecord {
  /** Time-ordered (UUID v7). */
  id: string;
  /** The partner's client_id (what its token names). */
  clientId: string;
  at: number;
  method: string;
  path: string;
  status: number;
  code: string;
  requestId: string;
  /** Bounded JSON text (what the gateway expected), or null. */
  details: string | null;
}

export interface RequestLogStore {
  /** Stores the entries in one transaction, then keeps each partner's newest `perPartner`. */
  append(entries: readonly RequestLogRecord[], perPartner: number): Promise<void>;
  /** A partner's entries (by client_id) at or after `since`, newest first. */
  list(clientId: string, since: number, limit: number): Promise<RequestLogRecord[]>;
}

interface Row {
  id: string;
  client_id: string;
  at: number | string;
  method: string;
  path: string;
  status: number;
  code: string;
  request_id: string;
  details: string | null;
}

const INSERT =
  "INSERT INTO partner_request_log (id, client_id, at, method, path, status, code, request_id, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING";
// Keeps the newest rows of one partner: the older ones beyond the cap go.
const TRIM =
  "DELETE FROM partner_request_log WHERE client_id = ? AND id NOT IN (SELECT id FROM partner_request_log WHERE client_id = ? ORDER BY at DESC, id DESC LIMIT ?)";

/** The request log in SQL both dialects run. */
export class SqlRequestLogStore implements RequestLogStore {
  constructor(private readonly sql: SqlRunner) {}

  async append(entries: readonly RequestLogRecord[], perPartner: number): Promise<void> {
    if (entries.length === 0) return;
    const partners = [...new Set(entries.map((e) => e.clientId))];
    await this.sql.atomically([
      ...entries.map((e) => ({
        sql: INSERT,
        params: [
          e.id,
          e.clientId,
          e.at,
          e.method,
          e.path,
          e.status,
          e.code,
          e.requestId,
          e.details,
        ],
      })),
      ...partners.map((p) => ({ sql: TRIM, params: [p, p, perPartner] })),
    ]);
  }

  async list(clientId: string, since: number, limit: number): Promise<RequestLogRecord[]> {
    const rows = await this.sql.rows<Row>(
      "SELECT * FROM partner_request_log WHERE client_id = ? AND at >= ? ORDER BY at DESC, id DESC LIMIT ?",
      [clientId, since, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      clientId: r.client_id,
      at: Number(r.at),
      method: r.method,
      path: r.path,
      status: Number(r.status),
      code: r.code,
      requestId: r.request_id,
      details: r.details,
    }));
  }
}

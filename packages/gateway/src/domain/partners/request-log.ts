import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/random.js";
import { REQUEST_LOG_RETENTION_MS } from "../../store/purge.js";
import type { RequestLogRecord, RequestLogStore } from "../../store/request-log-store.js";

/** A refused request of a known partner, as the partner API saw it. */
export interface RefusedRequest {
  clientId: string;
  method: string;
  path: string;
  status: number;
  code: string;
  requestId: string;
  /** The problem's detail and, for a signature failure, what the gateway expected. */
  details: Record<string, unknown>;
}

/** One entry as GET /api/v1/request-log answers it. */
interface RequestLogView {
  at: string;
  method: string;
  path: string;
  status: number;
  code: string;
  request_id: string;
  detail: string | null;
  /** For signature failures: the version, the string-to-sign expected and the hints. */
  expected: Record<string, unknown> | null;
}

interface RequestLogLimits {
  /** Entries kept per partner (the newest). */
  perPartner: number;
  /** Entries waiting to be written; beyond, new refusals are dropped (and counted). */
  maxQueue: number;
  /** How long a refusal waits to be written with others. */
  flushMs: number;
}

const REQUEST_LOG_LIMITS: RequestLogLimits = {
  perPartner: 500,
  maxQueue: 2000,
  flushMs: 250,
};
/** Bounds of one row: its path, its detail text, and all its details as JSON. */
const MAX_PATH = 512;
const MAX_DETAIL = 600;
export const MAX_DETAILS_JSON = 4096;
export const MAX_LISTED = 100;

const cut = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** What a query string is stored as: the request log keeps no query (docs/gateway/api.md). */
const QUERY_REMOVED = "?[query removed]";

/** A request target (`/path?query`) in any text: a slash-led path followed by its query. */
const TARGET_QUERY = /(\/[^\s?"]*)\?[^\s"]*/g;

/**
 * `value` with every query string of a request target taken out: the path itself, and the
 * version 2 string-to-sign and hints, which hold the target as sent. A query carries personal
 * data (`purchase_order_no=…`) and the log is kept for 7 days.
 */
function withoutQueries(value: unknown): unknown {
  if (typeof value === "string") return value.replace(TARGET_QUERY, `$1${QUERY_REMOVED}`);
  if (Array.isArray(value)) return value.map(withoutQueries);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutQueries(v)]));
  return value;
}

/**
 * The details as bounded JSON: the detail text cut; when still too long, the validation errors
 * dropped, then the hints, then the string-to-sign cut; null when nothing fits.
 */
export function boundedDetails(details: Record<string, unknown>): string | null {
  const bounded: Record<string, unknown> = { ...details };
  if (typeof bounded.detail === "string") bounded.detail = cut(bounded.detail, MAX_DETAIL);
  let json = JSON.stringify(bounded);
  for (const member of ["errors", "hints"]) {
    if (json.length <= MAX_DETAILS_JSON) break;
    delete bounded[member];
    json = JSON.stringify(bounded);
  }
  if (json.length > MAX_DETAILS_JSON && typeof bounded.string_to_sign === "string") {
    bounded.string_to_sign = cut(bounded.string_to_sign, MAX_DETAILS_JSON / 2);
    json = JSON.stringify(bounded);
  }
  return json.length > MAX_DETAILS_JSON ? null : json;
}

function viewOf(record: RequestLogRecord): RequestLogView {
  const { detail = null, ...expected } = record.details
    ? (JSON.parse(record.details) as Record<string, unknown>)
    : {};
  return {
    at: new Date(record.at).toISOString(),
    method: record.method,
    path: record.path,
    status: record.status,
    code: record.code,
    request_id: record.requestId,
    detail: typeof detail === "string" ? detail : null,
    expected: Object.keys(expected).length > 0 ? expected : null,
  };
}

interface WarnLog {
  warn(object: object, message: string): void;
}

/**
 * Partners' refused requests, written off the request path: `record` only queues (it never
 * waits, never throws), and the queue is written in one transaction per `flushMs`. When the
 * store is out the batch is dropped with a warning: a refusal is never turned into a failure of
 * something else, and the log is a debugging aid, not a record that must be complete.
 */
export class RequestLog {
  #queue: RequestLogRecord[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** Refusals not logged since start: queue full or store out. */
  dropped = 0;

  constructor(
    private readonly store: RequestLogStore,
    private readonly now: Clock,
    private readonly log: WarnLog,
    private readonly limits: RequestLogLimits = REQUEST_LOG_LIMITS,
  ) {}

  record(refused: RefusedRequest): void {
    if (this.#queue.length >= this.limits.maxQueue) {
      this.dropped += 1;
      return;
    }
    const at = this.now();
    this.#queue.push({
      id: newId(at),
      clientId: refused.clientId,
      at,
      method: refused.method,
      path: cut(refused.path.split("?")[0] ?? "", MAX_PATH),
      status: refused.status,
      code: refused.code,
      requestId: cut(refused.requestId, 128),
      details: boundedDetails(withoutQueries(refused.details) as Record<string, unknown>),
    });
    this.#timer ??= setTimeout(() => void this.flush(), this.limits.flushMs).unref();
  }

  /** Writes what is queued (after any write in progress). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queue;
    this.#queue = [];
    this.#writing = this.#writing.then(async () => {
      if (batch.length === 0) return;
      try {
        await this.store.append(batch, this.limits.perPartner);
      } catch (error) {
        this.dropped += batch.length;
        this.log.warn(
          {
            event: "request_log_write_failed",
            entries: batch.length,
            err: (error as Error).message,
          },
          "refused requests could not be logged",
        );
      }
    });
    return this.#writing;
  }

  /** The partner's refusals of the retention window (7 days), newest first. */
  async list(clientId: string, limit: number): Promise<RequestLogView[]> {
    const since = this.now() - REQUEST_LOG_RETENTION_MS;
    const bounded = Math.min(Math.max(1, limit), MAX_LISTED);
    return (await this.store.list(clientId, since, bounded)).map(viewOf);
  }
}

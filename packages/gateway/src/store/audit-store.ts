/**
 * Persistence of the audit trail (domain/audit/): one row per audited change, read back by a
 * tenant's admins newest first. Composed into `Store` as `store.audit`. Times are Unix ms.
 */

/** Who made a change: a tenant user, a partner (its own API), the operator (CLI), the gateway. */
export type AuditActorKind = "user" | "partner" | "operator" | "system";

export interface AuditEventRecord {
  /** Insertion order; the keyset of the listing. */
  seq: number;
  id: string;
  /** Null for an operator's change that concerns no tenant. */
  tenantId: string | null;
  actorKind: AuditActorKind;
  actorId: string;
  /** What the actor was called then (a user's email), so the row reads well after changes. */
  actorLabel: string | null;
  /** A user's display name then (null: none set, or not a user); the label stays the email. */
  actorName?: string | null;
  action: string;
  subjectType: string | null;
  subjectId: string | null;
  /** JSON object text; never a secret. */
  details: string;
  sourceAddress: string | null;
  createdAt: number;
}

export type NewAuditEvent = Omit<AuditEventRecord, "seq">;

/** What a listing narrows to; every given field must match. */
export interface AuditFilter {
  /** Matches the actor id or the actor label (email). */
  actor?: string;
  action?: string;
  subjectType?: string;
  subjectId?: string;
  /** Unix ms, inclusive. */
  from?: number;
  /** Unix ms, exclusive. */
  to?: number;
}

export interface AuditStore {
  recordAuditEvent(event: NewAuditEvent): Promise<void>;
  /**
   * A summary line: writes the event, or, when a row with its id exists, replaces that row's
   * details (the row keeps its place, actor and first time).
   */
  recordAuditSummary(event: NewAuditEvent): Promise<void>;
  /** The tenant's events newest first: at most `limit`, all with seq below `beforeSeq`. */
  listAuditEvents(
    tenantId: string,
    options: { limit: number; beforeSeq?: number; filter?: AuditFilter },
  ): Promise<AuditEventRecord[]>;
}

import { createHash } from "node:crypto";
import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/random.js";
import type {
  AuditActorKind,
  AuditEventRecord,
  AuditFilter,
  AuditStore,
} from "../../store/audit-store.js";
import { type AuditSubject, subjectOf } from "./subject.js";

export type { AuditSubject };

export interface AuditActor {
  kind: AuditActorKind;
  id: string;
  /** What to show for the actor (a user's email); kept as it was at the time. */
  label?: string;
  /** A user's display name at the time, when they have one (shown before the label). */
  name?: string | null;
}

/** One audited change, as its caller describes it. */
export interface AuditEntry {
  tenantId: string | null;
  actor: AuditActor;
  /** snake_case verb phrase, also the log line's `event` (`tenant_partner_created`). */
  action: string;
  /** Derived from action and details (subject.ts) when not given. */
  subject?: AuditSubject;
  /** What changed; never a secret. */
  details: Record<string, unknown>;
  /** The request's source address (Fastify's `request.ip`); none for the CLI and the gateway. */
  sourceAddress?: string;
  /** The log line's message. */
  message: string;
  /**
   * Names the summary line this entry keeps up to date instead of adding a row (e.g. an
   * endpoint's test sends of one day): the first entry writes the row, the next ones replace
   * its details. Every entry is still logged.
   */
  summaryOf?: string;
}

/** A summary line's row id: the same for every entry naming the same summary. */
const summaryId = (key: string): string =>
  `aud_sum_${createHash("sha256").update(key).digest("hex").slice(0, 32)}`;

/** Where an audit line goes: a request's or the process's logger; the CLI has none. */
interface AuditLog {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** The log line's fields: today's (`event`, `audit`, tenant and user) plus the actor's kind. */
function logFields(entry: AuditEntry, subject: AuditSubject | undefined): Record<string, unknown> {
  const { actor } = entry;
  return {
    event: entry.action,
    audit: true,
    tenant_id: entry.tenantId,
    actor_kind: actor.kind,
    ...(actor.kind === "user" ? { user_id: actor.id } : { actor_id: actor.id }),
    ...(subject ? { subject_type: subject.type, subject_id: subject.id } : {}),
    ...entry.details,
  };
}

/**
 * The one audit trail: each change is logged (as before, `audit: true`) and kept as a row the
 * tenant's admins read on the Activity page (GET /v1/tenant/audit-events) until retention
 * (GATEWAY_AUDIT_RETENTION_SECONDS) purges it. `record` never rejects: the change it reports
 * has happened already, so a store failure is logged (with the whole event) instead of turning
 * a done change into an error the caller would retry.
 */
export class AuditTrail {
  constructor(
    private readonly store: AuditStore,
    private readonly now: Clock,
  ) {}

  async record(entry: AuditEntry, log?: AuditLog): Promise<void> {
    const subject = entry.subject ?? subjectOf(entry.action, entry.details);
    const fields = logFields(entry, subject);
    log?.info(fields, entry.message);
    const at = this.now();
    const summary = entry.summaryOf;
    try {
      await this.store[summary === undefined ? "recordAuditEvent" : "recordAuditSummary"]({
        id: summary === undefined ? `aud_${newId(at).replace(/-/g, "")}` : summaryId(summary),
        tenantId: entry.tenantId,
        actorKind: entry.actor.kind,
        actorId: entry.actor.id,
        actorLabel: entry.actor.label ?? null,
        actorName: entry.actor.name ?? null,
        action: entry.action,
        subjectType: subject?.type ?? null,
        subjectId: subject?.id ?? null,
        details: JSON.stringify(entry.details),
        sourceAddress: entry.sourceAddress ?? null,
        createdAt: at,
      });
    } catch (error) {
      log?.error(
        {
          ...fields,
          event: "audit_event_not_stored",
          action: entry.action,
          err: (error as Error).message,
        },
        "audit event logged but not stored",
      );
    }
  }

  /** A page of the tenant's events newest first; `nextBeforeSeq` when there are more. */
  async page(
    tenantId: string,
    options: { limit: number; beforeSeq?: number; filter?: AuditFilter },
  ): Promise<{ events: AuditEventRecord[]; nextBeforeSeq: number | null }> {
    const rows = await this.store.listAuditEvents(tenantId, {
      ...options,
      limit: options.limit + 1,
    });
    const events = rows.slice(0, options.limit);
    return {
      events,
      nextBeforeSeq: rows.length > options.limit ? (events.at(-1)?.seq ?? null) : null,
    };
  }
}

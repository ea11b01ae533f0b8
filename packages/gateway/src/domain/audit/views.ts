import type { AuditEventRecord } from "../../store/audit-store.js";

/** An audit event as the tenant API answers it. */
export interface AuditEventView {
  id: string;
  at: string;
  actor: { kind: string; id: string; label: string | null; name: string | null };
  action: string;
  subject: { type: string; id: string } | null;
  details: Record<string, unknown>;
  source_address: string | null;
}

export const auditEventView = (e: AuditEventRecord): AuditEventView => ({
  id: e.id,
  at: new Date(e.createdAt).toISOString(),
  actor: { kind: e.actorKind, id: e.actorId, label: e.actorLabel, name: e.actorName ?? null },
  action: e.action,
  subject: e.subjectType === null ? null : { type: e.subjectType, id: e.subjectId ?? "" },
  details: JSON.parse(e.details) as Record<string, unknown>,
  source_address: e.sourceAddress,
});

const CSV_COLUMNS = [
  "at",
  "actor_kind",
  "actor_id",
  "actor",
  "action",
  "subject_type",
  "subject_id",
  "details",
  "source_address",
] as const;

/**
 * One CSV field: quoted when it holds a separator, quote or line break; a leading = + - @ (or
 * tab, CR) is prefixed with ' so a spreadsheet shows the text instead of running it as a formula.
 */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180 lines (CRLF), a header line first. */
export function auditCsv(events: readonly AuditEventView[]): string {
  const lines = events.map((e) =>
    [
      e.at,
      e.actor.kind,
      e.actor.id,
      e.actor.label ?? "",
      e.action,
      e.subject?.type ?? "",
      e.subject?.id ?? "",
      JSON.stringify(e.details),
      e.source_address ?? "",
    ]
      .map(csvField)
      .join(","),
  );
  return [CSV_COLUMNS.join(","), ...lines].map((l) => `${l}\r\n`).join("");
}

import type {
  AuditActorKind,
  AuditEventRecord,
  AuditFilter,
  AuditStore,
  NewAuditEvent,
} from "./audit-store.js";
import type { SqlRunner } from "./sql-runner.js";

interface AuditRow {
  seq: number;
  id: string;
  tenant_id: string | null;
  actor_kind: AuditActorKind;
  actor_id: string;
  actor_label: string | null;
  actor_name: string | null;
  action: string;
  subject_type: string | null;
  subject_id: string | null;
  details: string;
  source_address: string | null;
  created_at: number;
}

const toAuditEvent = (r: AuditRow): AuditEventRecord => ({
  seq: r.seq,
  id: r.id,
  tenantId: r.tenant_id,
  actorKind: r.actor_kind,
  actorId: r.actor_id,
  actorLabel: r.actor_label,
  actorName: r.actor_name ?? null,
  action: r.action,
  subjectType: r.subject_type,
  subjectId: r.subject_id,
  details: r.details,
  sourceAddress: r.source_address,
  createdAt: r.created_at,
});

/** The listing's WHERE clause and parameters: each given filter field narrows it. */
function auditListStatement(
  tenantId: string,
  options: { limit: number; beforeSeq?: number; filter?: AuditFilter },
): { sql: string; params: unknown[] } {
  const where = ["tenant_id = ?"];
  const params: unknown[] = [tenantId];
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    params.push(...values);
  };
  const f = options.filter ?? {};
  if (options.beforeSeq !== undefined) add("seq < ?", options.beforeSeq);
  if (f.actor !== undefined) add("(actor_id = ? OR actor_label = ?)", f.actor, f.actor);
  if (f.action !== undefined) add("action = ?", f.action);
  if (f.subjectType !== undefined) add("subject_type = ?", f.subjectType);
  if (f.subjectId !== undefined) add("subject_id = ?", f.subjectId);
  if (f.from !== undefined) add("created_at >= ?", f.from);
  if (f.to !== undefined) add("created_at < ?", f.to);
  params.push(options.limit);
  return {
    sql: `SELECT * FROM audit_events WHERE ${where.join(" AND ")} ORDER BY seq DESC LIMIT ?`,
    params,
  };
}

const INSERT =
  "INSERT INTO audit_events (id, tenant_id, actor_kind, actor_id, actor_label, actor_name, action, subject_type, subject_id, details, source_address, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

const auditParams = (e: NewAuditEvent): unknown[] => [
  e.id,
  e.tenantId,
  e.actorKind,
  e.actorId,
  e.actorLabel,
  e.actorName ?? null,
  e.action,
  e.subjectType,
  e.subjectId,
  e.details,
  e.sourceAddress,
  e.createdAt,
];

/** The audit trail in SQL both dialects understand, on either store's runner. */
export class SqlAuditStore implements AuditStore {
  constructor(private readonly sql: SqlRunner) {}

  async recordAuditEvent(e: NewAuditEvent): Promise<void> {
    await this.sql.changes(INSERT, auditParams(e));
  }

  async recordAuditSummary(e: NewAuditEvent): Promise<void> {
    await this.sql.changes(
      `${INSERT} ON CONFLICT (id) DO UPDATE SET details = excluded.details`,
      auditParams(e),
    );
  }

  async listAuditEvents(
    tenantId: string,
    options: { limit: number; beforeSeq?: number; filter?: AuditFilter },
  ): Promise<AuditEventRecord[]> {
    const { sql, params } = auditListStatement(tenantId, options);
    return (await this.sql.rows<AuditRow>(sql, params)).map(toAuditEvent);
  }
}

import type { FastifyRequest } from "fastify";
import type { PartnerView } from "../domain/partners/directory.js";

/** The tenant a partner's orders go to (null: none), for its audit events. */
export type PartnerTenantOf = (partnerId: string) => Promise<string | null | undefined>;

/**
 * Records a partner's change to its own resources in the audit trail (domain/audit/: logged
 * with `audit: true` and kept for the tenant's Activity page) with the partner as actor, in the
 * partner's tenant, so the tenant's admins see what their partners did. `details` never hold a
 * secret; `summaryOf` names a summary line to update instead of adding a row (AuditEntry).
 * Never rejects (a tenant lookup that fails leaves the event without a tenant).
 */
export async function auditPartnerChange(
  request: FastifyRequest,
  partner: PartnerView,
  tenantOf: PartnerTenantOf,
  action: string,
  details: Record<string, unknown>,
  summaryOf?: string,
): Promise<void> {
  const tenantId = (await tenantOf(partner.id).catch(() => undefined)) ?? null;
  await request.server.auditTrail.record(
    {
      tenantId,
      actor: { kind: "partner", id: partner.clientId, label: partner.name },
      action,
      details: { client_id: partner.clientId, ...details },
      message: "partner change audited",
      sourceAddress: request.ip,
      ...(summaryOf === undefined ? {} : { summaryOf }),
    },
    request.log,
  );
}

import type { FastifyRequest } from "fastify";
import type { PartnerView } from "../domain/partners/directory.js";

/** The tenant a partner's orders go to (null: none), for its audit events. */
export type PartnerTenantOf = (partnerId: string) => Promise<string | null | undefined>;

/**
 * Logs a partner's change to its own resources as an audit event, with the partner as actor and
 * the partner's tenant, so the tenant's admins see what their partners did; the same fields as a
 * tenant admin's change (tenant-api/guard.ts auditTenantChange), `details` never a secret.
 */
export async function auditPartnerChange(
  request: FastifyRequest,
  partner: PartnerView,
  tenantOf: PartnerTenantOf,
  event: string,
  details: Record<string, unknown>,
): Promise<void> {
  const tenantId = (await tenantOf(partner.id).catch(() => undefined)) ?? null;
  request.log.info(
    {
      event,
      audit: true,
      tenant_id: tenantId,
      actor_kind: "partner",
      actor_id: partner.clientId,
      client_id: partner.clientId,
      ...details,
    },
    "partner change audited",
  );
}

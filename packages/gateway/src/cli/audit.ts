import { userInfo } from "node:os";
import type { AuditActor, AuditTrail } from "../domain/audit/trail.js";
import type { Store } from "../store/store.js";
import type { CliIo } from "./io.js";

/** The admin CLI's changes and the action each is audited as; listings are not audited. */
const ACTIONS: Record<string, string> = {
  "partners create": "partner_created",
  "partners add-key": "partner_key_added",
  "partners revoke-key": "partner_key_revoked",
  "partners rotate-secret": "partner_secret_rotated",
  "partners set-tenant": "partner_tenant_set",
  "partners disable": "partner_status",
  "partners enable": "partner_status",
  "partners require-signature-v2": "partner_signature_version",
  "partners allow-signature-v1": "partner_signature_version",
  "users create": "user_created",
  "users set-password": "user_password_set",
  "users set-role": "user_role_changed",
  "users enable": "user_enabled",
  "users disable": "user_disabled",
  "overrides import": "vocabulary_imported",
  "webhooks add": "webhook_endpoint_created",
  "webhooks remove": "webhook_endpoint_removed",
  "webhooks disable": "webhook_endpoint_changed",
  "webhooks enable": "webhook_endpoint_changed",
  "webhooks rotate-secret": "webhook_endpoint_secret_rotated",
  "webhooks resend": "webhook_event_resent",
};

/** Output fields never put in the trail (they are shown once, to the operator only). */
const SECRET = /secret|password$|token/i;

const withoutSecrets = (value: unknown): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(
      value !== null && typeof value === "object" && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : { result: value },
    ).filter(([key, v]) => !SECRET.test(key) || typeof v === "boolean"),
  );

/** The operator: the account that ran the CLI (what an operator's audit can say of them). */
function operator(): AuditActor {
  let name = "unknown";
  try {
    name = userInfo().username;
  } catch {
    // No passwd entry (some containers): the kind still says it was the CLI.
  }
  return { kind: "operator", id: `cli:${name}`, label: name };
}

async function tenantOf(store: Store, details: Record<string, unknown>): Promise<string | null> {
  if (typeof details.tenant_id === "string") return details.tenant_id;
  if (typeof details.client_id === "string") {
    const partner = await store.findPartnerByClientId(details.client_id);
    return partner ? store.tenants.partnerTenant(partner.id) : null;
  }
  if (typeof details.email === "string")
    return (await store.tenants.findUserByEmail(details.email))?.tenantId ?? null;
  return null;
}

/**
 * Audits one CLI command's change as the operator's: `saw` takes what the command printed
 * (called only on success) plus what names its subject; `flush` records it, before the store
 * closes. A store failure is reported on stderr, never turned into the command's failure.
 */
export function operatorAudit(
  core: { store: Store; audit: AuditTrail },
  command: string,
  io: Pick<CliIo, "stderr">,
  context: Record<string, unknown> = {},
) {
  const action = ACTIONS[command];
  let details: Record<string, unknown> | undefined;
  return {
    saw(value: unknown): void {
      if (action !== undefined) details = { ...context, ...withoutSecrets(value) };
    },
    async flush(): Promise<void> {
      if (action === undefined || details === undefined) return;
      const log = {
        info: () => {},
        error: (_fields: object, message: string) => io.stderr(`warning: ${message}\n`),
      };
      const tenantId = await tenantOf(core.store, details).catch(() => null);
      await core.audit.record(
        { tenantId, actor: operator(), action, details, message: `operator: ${command}` },
        log,
      );
    },
  };
}

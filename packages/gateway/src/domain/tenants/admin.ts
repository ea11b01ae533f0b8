import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/random.js";
import type { TenantRecord, TenantStore } from "../../store/tenant-store.js";

/** A refused admin operation (CLI, demo set-up); the message is for the operator. */
export class AdminError extends Error {
  override name = "AdminError";
}

interface TenantSummary {
  tenant_id: string;
  name: string;
  created_at: string;
}

const summaryOf = (t: TenantRecord): TenantSummary => ({
  tenant_id: t.id,
  name: t.name,
  created_at: new Date(t.createdAt).toISOString(),
});

/** The operators' operations on tenants. */
export class TenantAdmin {
  constructor(
    private readonly store: TenantStore,
    private readonly now: Clock,
  ) {}

  async create(name: string): Promise<TenantSummary> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 200)
      throw new AdminError("The tenant name must be 1–200 characters.");
    const at = this.now();
    const tenant = { id: `tnt_${newId(at).replace(/-/g, "")}`, name: trimmed, createdAt: at };
    await this.store.createTenant(tenant);
    return summaryOf(tenant);
  }

  async list(): Promise<TenantSummary[]> {
    return (await this.store.listTenants()).map(summaryOf);
  }

  /** The tenant an operator named, or a clear error. */
  async get(tenantId: string): Promise<TenantRecord> {
    const tenant = await this.store.findTenant(tenantId);
    if (!tenant) throw new AdminError(`No tenant with id '${tenantId}' (see: tenants list).`);
    return tenant;
  }
}

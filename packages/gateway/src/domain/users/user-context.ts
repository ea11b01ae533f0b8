import type { TenantRecord, UserRecord } from "../../store/tenant-store.js";

/** Who is calling the tenant API: the user and the tenant, both read from the store. */
export interface UserContext {
  user: UserRecord;
  tenant: TenantRecord;
}

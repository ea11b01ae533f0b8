import type { Gateway } from "../../src/gateway.js";
import type { UserRole } from "../../src/store/tenant-store.js";
import { createPartner, type TestPartner } from "../helpers.js";

/** Cheap password hashing for tests (the default cost takes ~0.4 s a hash). */
export const TEST_USERS_CONFIG = {
  audience: "orderline-tenant-api",
  languages: ["en", "de", "fr", "en-GB", "zh-CN"],
  scryptCost: 1024,
};

export const PASSWORD = "correct horse battery staple";

export interface TestTenant {
  id: string;
  name: string;
  admin: { email: string; id: string };
  member: { email: string; id: string };
}

export async function createTenant(
  gw: Gateway,
  name: string,
  languages: Partial<Record<UserRole, string>> = {},
): Promise<TestTenant> {
  const tenant = await gw.tenants.create(name);
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const make = async (role: UserRole) => {
    const email = `${role}@${slug}.example`;
    const language = languages[role];
    const user = await gw.users.create({
      tenantId: tenant.tenant_id,
      email,
      role,
      password: PASSWORD,
      ...(language ? { language } : {}),
    });
    return { email, id: user.user_id };
  };
  return { id: tenant.tenant_id, name, admin: await make("admin"), member: await make("member") };
}

export async function userLogin(gw: Gateway, email: string, password = PASSWORD) {
  return gw.app.inject({ method: "POST", url: "/v1/auth/login", payload: { email, password } });
}

export async function userToken(gw: Gateway, email: string): Promise<string> {
  const response = await userLogin(gw, email);
  if (response.statusCode !== 200) throw new Error(`user login failed: ${response.body}`);
  return response.json().token;
}

export async function tenantPartner(
  gw: Gateway,
  tenantId: string,
  name = "Tenant Partner",
): Promise<TestPartner> {
  const partner = await createPartner(gw, undefined, name);
  const record = await gw.store.findPartnerByClientId(partner.clientId);
  if (!record) throw new Error("partner missing");
  await gw.store.tenants.setPartnerTenant(record.id, tenantId);
  return partner;
}

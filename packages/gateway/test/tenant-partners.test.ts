import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  json,
  LogCapture,
  order,
  rsaKeys,
  sharedRsaKeys,
  signedHeaders,
  startGateway,
} from "./helpers.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, type TestTenant, userToken } from "./support/tenants.js";

describe.each(storeKinds)("tenant partners API (%s store)", (kind) => {
  let gw: Gateway;
  let a: TestTenant;
  let b: TestTenant;
  const logs = new LogCapture();

  beforeAll(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG }, logs });
    a = await createTenant(gw, "Partners Alpha");
    b = await createTenant(gw, "Partners Beta");
  });
  afterAll(async () => {
    await gw.close();
  });

  const call = async (
    email: string,
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    payload?: Record<string, unknown>,
  ) =>
    gw.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${await userToken(gw, email)}` },
      ...(payload ? { payload } : {}),
    });

  it("creates a partner of the admin's tenant whose secret and key make a real signed order", async () => {
    const keys = sharedRsaKeys();
    const created = await call(a.admin.email, "POST", "/v1/tenant/partners", {
      name: "Harbour Retail",
      public_key: keys.publicPem,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers["cache-control"]).toBe("no-store");
    const { client_id, client_secret, key_id } = created.json().data;
    expect(client_secret).toMatch(/\S{20,}/);
    expect(key_id).toMatch(/^key_/);

    const login = await gw.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { client_id, client_secret },
    });
    const token = login.json().token;
    const partner = { clientId: client_id, clientSecret: client_secret, keys, keyId: key_id };
    const placed = await gw.app.inject({
      method: "POST",
      url: "/api/v1/sales-orders",
      headers: signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
      payload: order(),
    });
    expect(placed.statusCode).toBe(201);
    // The tenant's users see the order; the secret was never logged.
    const orders = await call(a.member.email, "GET", "/v1/orders");
    expect(orders.json().data.map((o: { client_id: string }) => o.client_id)).toContain(client_id);
    expect(logs.text).not.toContain(client_secret);
    expect(logs.text).toContain('"event":"tenant_partner_created"');

    const list = await call(a.admin.email, "GET", "/v1/tenant/partners");
    expect(list.json().data).toEqual([
      expect.objectContaining({ client_id, name: "Harbour Retail", status: "active" }),
    ]);
    expect(JSON.stringify(list.json())).not.toContain("tenant_id");
    expect((await call(b.admin.email, "GET", "/v1/tenant/partners")).json().data).toEqual([]);
  });

  it("registers, refuses and revokes keys with the CLI's checks; rotates the secret; disables", async () => {
    const created = await call(a.admin.email, "POST", "/v1/tenant/partners", { name: "Keyless" });
    const { client_id, client_secret } = created.json().data;
    const base = `/v1/tenant/partners/${client_id}`;

    const bad = await call(a.admin.email, "POST", `${base}/keys`, { public_key: "not a key" });
    expect(bad.statusCode).toBe(422);
    expect(bad.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(json(bad).code).toBe("partner_key_invalid");
    const weak = await call(a.admin.email, "POST", `${base}/keys`, {
      public_key: rsaKeys(1024).publicPem,
    });
    expect(json(weak).code).toBe("partner_key_invalid");
    expect(String(json(weak).detail)).toMatch(/2048/);

    // A key of its own: Harbour Retail, another partner of the tenant, has the shared one.
    const own = rsaKeys();
    const added = await call(a.admin.email, "POST", `${base}/keys`, { public_key: own.publicPem });
    expect(added.statusCode).toBe(201);
    const again = await call(a.admin.email, "POST", `${base}/keys`, { public_key: own.publicPem });
    expect(json(again).code).toBe("partner_change_refused");
    expect(String(json(again).detail)).toContain("already registered");
    const keyId = added.json().data.key_id;
    expect((await call(a.admin.email, "DELETE", `${base}/keys/${keyId}`)).statusCode).toBe(204);
    const twice = await call(a.admin.email, "DELETE", `${base}/keys/${keyId}`);
    expect(json(twice).code).toBe("partner_change_refused");

    const rotated = await call(a.admin.email, "POST", `${base}/secret`);
    expect(rotated.headers["cache-control"]).toBe("no-store");
    const fresh = rotated.json().data.client_secret;
    expect(fresh).not.toBe(client_secret);
    const oldLogin = await gw.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { client_id, client_secret },
    });
    expect(oldLogin.statusCode).toBe(401);

    const disabled = await call(a.admin.email, "PATCH", base, { status: "disabled" });
    expect(disabled.json().data.status).toBe("disabled");
    const refusedLogin = await gw.app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { client_id, client_secret: fresh },
    });
    expect(refusedLogin.statusCode).toBeGreaterThanOrEqual(400);
    const enabled = await call(a.admin.email, "PATCH", base, { status: "active" });
    expect(enabled.json().data.status).toBe("active");
  });

  it("keeps partners to their tenant and to its admins", async () => {
    const created = await call(a.admin.email, "POST", "/v1/tenant/partners", { name: "Private" });
    const { client_id } = created.json().data;
    for (const [method, url, payload] of [
      ["POST", `/v1/tenant/partners/${client_id}/secret`, undefined],
      ["PATCH", `/v1/tenant/partners/${client_id}`, { status: "disabled" }],
      ["POST", `/v1/tenant/partners/${client_id}/keys`, { public_key: sharedRsaKeys().publicPem }],
      ["DELETE", `/v1/tenant/partners/${client_id}/keys/key_x`, undefined],
    ] as const) {
      const other = await call(b.admin.email, method, url, payload);
      expect(other.statusCode, `${method} ${url}`).toBe(404);
      expect(json(other).code).toBe("partner_not_found");
    }
    const member = await call(a.member.email, "GET", "/v1/tenant/partners");
    expect(json(member).code).toBe("role_forbidden");
    const memberCreate = await call(a.member.email, "POST", "/v1/tenant/partners", { name: "X" });
    expect(memberCreate.statusCode).toBe(403);
    const named = await call(a.admin.email, "POST", "/v1/tenant/partners", {
      name: "Y",
      tenant_id: b.id,
    });
    expect(json(named).code).toBe("tenant_parameter_refused");
    expect(
      (await call(a.admin.email, "POST", "/v1/tenant/partners", { name: " " })).statusCode,
    ).toBe(422);
  });
});

import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { startGateway } from "./helpers.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, PASSWORD, TEST_USERS_CONFIG, type TestTenant } from "./support/tenants.js";

describe.each(storeKinds)("tenant API over a real socket (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    a = await createTenant(gw, "Socket Alpha");
    b = await createTenant(gw, "Socket Beta");
  });
  afterAll(async () => {
    await gw.close();
  });

  const signIn = async (email: string) => {
    const response = await fetch(`${base}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { token: string }).token;
  };

  it("signs in, writes and reads the vocabulary with ETag revalidation, as a browser would", async () => {
    const token = await signIn(a.admin.email);
    const auth = { authorization: `Bearer ${token}` };
    const put = await fetch(`${base}/v1/tenant/i18n-config/booking`, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ language: "de", overrides: { header: { title: "Buchungen" } } }),
    });
    expect(put.status).toBe(200);

    const first = await fetch(`${base}/v1/tenant/i18n-config/booking?language=de`, {
      headers: { ...auth, "accept-language": "en-US,en;q=0.9" },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toMatch(/^application\/json/);
    expect(first.headers.get("content-language")).toBe("de");
    const body = (await first.json()) as { data: Record<string, unknown> };
    expect(body).toEqual({
      data: { namespace: "booking", language: "de", overrides: { header: { title: "Buchungen" } } },
    });
    const etag = first.headers.get("etag") as string;
    const again = await fetch(`${base}/v1/tenant/i18n-config/booking?language=de`, {
      headers: { ...auth, "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");

    // B's admin sees none of it, with B's own token or with a tenant named in the request.
    const tokenB = await signIn(b.admin.email);
    const other = await fetch(`${base}/v1/tenant/i18n-config/booking?language=de`, {
      headers: { authorization: `Bearer ${tokenB}` },
    });
    expect(((await other.json()) as { data: { overrides: unknown } }).data.overrides).toEqual({});
    const named = await fetch(`${base}/v1/tenant/i18n-config/booking?tenant_id=${a.id}`, {
      headers: { authorization: `Bearer ${tokenB}` },
    });
    expect(named.status).toBe(400);
    expect(named.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(((await named.json()) as { code: string }).code).toBe("tenant_parameter_refused");
  });

  it("refuses namespace path tricks, and a GET that carries a body (it could name a tenant)", async () => {
    const token = await signIn(a.member.email);
    const auth = { authorization: `Bearer ${token}` };
    for (const path of [
      "/v1/tenant/i18n-config/..%2F..%2Fcommon",
      "/v1/tenant/i18n-config/common%00",
      `/v1/tenant/i18n-config/${"x".repeat(65)}`,
      "/v1/tenant/i18n-config/common.json",
    ]) {
      const response = await fetch(`${base}${path}`, { headers: auth });
      expect(response.status, path).toBe(400);
    }
    const payload = JSON.stringify({ tenant_id: b.id });
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        `${base}/v1/tenant/i18n-config`,
        {
          method: "GET",
          headers: {
            ...auth,
            "content-type": "application/json",
            "content-length": String(Buffer.byteLength(payload)),
          },
        },
        (response) => {
          let text = "";
          response.on("data", (chunk) => {
            text += chunk;
          });
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      request.on("error", reject);
      request.end(payload);
    });
    expect(status.status).toBe(400);
    expect(JSON.parse(status.body).code, status.body).toBe("validation_failed");
    expect(JSON.parse(status.body).detail).toContain("takes no body");
  });
});

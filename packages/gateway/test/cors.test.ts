import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import { startGateway } from "./helpers.js";
import { createTenant, PASSWORD, TEST_USERS_CONFIG, type TestTenant } from "./support/tenants.js";

const APP = "https://console.acme.example";
const OTHER = "https://evil.example";

/** Cross-origin access to the tenant API, over a real socket as a browser would make it. */
describe("CORS for /v1", () => {
  let gw: Gateway;
  let base: string;
  let tenant: TestTenant;
  let closed: Gateway;
  let closedBase: string;

  beforeAll(async () => {
    gw = await startGateway({ config: { users: TEST_USERS_CONFIG, corsOrigins: [APP] } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    tenant = await createTenant(gw, "Cors Tenant");
    closed = await startGateway({ config: { users: TEST_USERS_CONFIG } });
    closedBase = await closed.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await gw?.close();
    await closed?.close();
  });

  const preflight = (url: string, origin: string, method = "PATCH") =>
    fetch(url, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": method,
        "access-control-request-headers": "authorization, content-type",
      },
    });

  it("answers the preflight of an allowed origin and lets its calls through", async () => {
    const answer = await preflight(`${base}/v1/user/profile`, APP);
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(APP);
    expect(answer.headers.get("access-control-allow-methods")).toContain("PATCH");
    expect(answer.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
      "authorization",
    );
    expect(answer.headers.get("vary")).toContain("Origin");

    const login = await fetch(`${base}/v1/auth/login`, {
      method: "POST",
      headers: { origin: APP, "content-type": "application/json" },
      body: JSON.stringify({ email: tenant.admin.email, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get("access-control-allow-origin")).toBe(APP);
    const { token } = (await login.json()) as { token: string };
    const vocabulary = await fetch(`${base}/v1/tenant/i18n-config`, {
      headers: { origin: APP, authorization: `Bearer ${token}` },
    });
    expect(vocabulary.status).toBe(200);
    expect(vocabulary.headers.get("access-control-allow-origin")).toBe(APP);
    expect(vocabulary.headers.get("access-control-expose-headers")).toContain("ETag");
  });

  it("gives a refused origin no CORS headers, so its browser blocks the call", async () => {
    const answer = await preflight(`${base}/v1/user/profile`, OTHER);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    const login = await fetch(`${base}/v1/auth/login`, {
      method: "POST",
      headers: { origin: OTHER, "content-type": "application/json" },
      body: JSON.stringify({ email: tenant.admin.email, password: "wrong" }),
    });
    // Refused as cross-site before the password is looked at, and without CORS headers.
    expect(login.status).toBe(403);
    expect(((await login.json()) as { code: string }).code).toBe("cross_site_refused");
    expect(login.headers.get("access-control-allow-origin")).toBeNull();
    // Only the tenant API is opened, not the partner API.
    const partner = await preflight(`${base}/api/v1/auth/login`, APP, "POST");
    expect(partner.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("is off by default: no origin is allowed", async () => {
    const answer = await preflight(`${closedBase}/v1/user/profile`, APP);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });

  it("reads GATEWAY_CORS_ORIGINS and refuses what is not an origin", () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(
      loadConfig({ GATEWAY_CORS_ORIGINS: "https://a.example, http://localhost:5173" }).corsOrigins,
    ).toEqual(["https://a.example", "http://localhost:5173"]);
    for (const bad of ["a.example", "https://a.example/path", "*", "https://a.example/?x"]) {
      expect(() => loadConfig({ GATEWAY_CORS_ORIGINS: bad }), bad).toThrow(
        /GATEWAY_CORS_ORIGINS entries must be origins/,
      );
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { INPUT_LIMITS } from "../src/lib/input-limits.js";
import { order, signedHeaders, startGateway, type TestPartner } from "./helpers.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, PASSWORD, TEST_USERS_CONFIG, tenantPartner } from "./support/tenants.js";

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are JSON read field by field in assertions
  body: Record<string, any>;
}

/** Over-long text is refused with the field and the limit, never stored cut short. */
describe.each(storeKinds)("input limits over real HTTP (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let partner: TestPartner;
  let partnerToken: string;
  let admin: string;

  const call = async (method: string, path: string, headers = {}, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} } as Answer;
  };
  const asAdmin = (method: string, path: string, body?: unknown) =>
    call(method, path, { authorization: `Bearer ${admin}` }, body);
  const refusal = (field: string, limit: number) => ({
    in: "body",
    pointer: field,
    keyword: "maxLength",
    limit,
    message: expect.stringContaining(`to ${limit} characters`),
  });

  beforeAll(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const tenant = await createTenant(gw, "Limits Alpha");
    partner = await tenantPartner(gw, tenant.id);
    partnerToken = (
      await call(
        "POST",
        "/api/v1/auth/login",
        {},
        { client_id: partner.clientId, client_secret: partner.clientSecret },
      )
    ).body.token;
    admin = (
      await call("POST", "/v1/auth/login", {}, { email: tenant.admin.email, password: PASSWORD })
    ).body.token;
  });
  afterAll(async () => {
    await gw.close();
  });

  it("refuses a webhook URL one character over its limit and keeps one at the limit whole", async () => {
    const path = `/v1/tenant/partners/${partner.clientId}/webhook-endpoints`;
    const at = (length: number) => {
      const head = "https://hooks.example/";
      return head + "a".repeat(length - head.length);
    };
    const over = await asAdmin("POST", path, {
      url: at(INPUT_LIMITS.webhookUrl + 1),
      events: ["*"],
    });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe("validation_failed");
    expect(over.body.errors).toEqual([refusal("/url", INPUT_LIMITS.webhookUrl)]);
    expect((await asAdmin("GET", path)).body.data).toEqual([]);

    const exact = at(INPUT_LIMITS.webhookUrl);
    const kept = await asAdmin("POST", path, { url: exact, events: ["*"] });
    expect(kept.status).toBe(201);
    expect((await asAdmin("GET", path)).body.data.map((e: { url: string }) => e.url)).toEqual([
      exact,
    ]);
  });

  it("refuses a reject reason over its limit; the order stays as it was", async () => {
    const created = await call(
      "POST",
      "/api/v1/sales-orders",
      signedHeaders(partner, partnerToken, String(Math.floor(Date.now() / 1000))),
      order(),
    );
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const over = await asAdmin("POST", `/v1/orders/${id}/reject`, {
      reason: "r".repeat(INPUT_LIMITS.orderReason + 1),
    });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([refusal("/reason", INPUT_LIMITS.orderReason)]);
    expect((await asAdmin("GET", `/v1/orders/${id}`)).body.data.status).toBe("received");

    const reason = "r".repeat(INPUT_LIMITS.orderReason);
    const rejected = await asAdmin("POST", `/v1/orders/${id}/reject`, { reason });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.history.at(-1).reason).toBe(reason);
  });

  it("refuses a partner name over its limit and creates no partner", async () => {
    const before = (await asAdmin("GET", "/v1/tenant/partners")).body.data.length;
    const over = await asAdmin("POST", "/v1/tenant/partners", {
      name: "n".repeat(INPUT_LIMITS.partnerName + 1),
    });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([refusal("/name", INPUT_LIMITS.partnerName)]);
    expect((await asAdmin("GET", "/v1/tenant/partners")).body.data).toHaveLength(before);
  });
});

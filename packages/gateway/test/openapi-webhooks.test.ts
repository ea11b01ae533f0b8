/**
 * /openapi/partner.json describes every event under OpenAPI 3.1 `webhooks`, and real deliveries
 * match it: a running gateway delivers every event type to a receiver over real sockets, and
 * each body is validated (ajv, JSON Schema 2020-12) against the schema the served document
 * gives for its type. The served documents are valid OpenAPI 3.1 (a separate validator).
 */
import type { AddressInfo } from "node:net";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from "../src/domain/webhooks/event-types.js";
import { login, order, signedHeaders, startGateway } from "./helpers.js";
import { Receiver } from "./support/receiver.js";
import { type StoreKind, storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, tenantPartner, userToken } from "./support/tenants.js";

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are open-ended JSON.
type Json = any;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function running(kind: StoreKind) {
  const gw = await startGateway({
    store: kind,
    config: {
      users: TEST_USERS_CONFIG,
      webhooks: { ...loadConfig({}).webhooks, allowPrivate: "loopback", pollMs: 25 },
    },
  });
  cleanups.push(() => gw.close());
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
  return { gw, base };
}

const getJson = async (url: string): Promise<Json> => (await fetch(url)).json();

/** ajv over JSON Schema 2020-12 (OpenAPI 3.1's dialect), formats checked. */
function schemaValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  return ajv;
}

const bodySchema = (doc: Json, type: string): Json =>
  doc.webhooks?.[type]?.post?.requestBody?.content?.["application/json"]?.schema;

describe("the served OpenAPI documents", () => {
  it("are valid OpenAPI 3.1: partner (with webhooks), tenant and the whole", async () => {
    const { base } = await running("sqlite");
    for (const path of [
      "/openapi/partner.json",
      "/openapi/tenant.json",
      "/openapi/webhooks.json",
      "/openapi.json",
    ]) {
      const doc = await getJson(`${base}${path}`);
      expect(doc.openapi, path).toBe("3.1.0");
      const result = await new Validator().validate(doc);
      expect(result.errors ?? [], path).toEqual([]);
      expect(result.valid, path).toBe(true);
    }
  });

  it("list every event type under webhooks (partner only), each example valid against its schema", async () => {
    const { base } = await running("sqlite");
    const partner = await getJson(`${base}/openapi/partner.json`);
    // The order events, and the test event a partner fires at its own endpoint.
    const published = [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE];
    expect(Object.keys(partner.webhooks).sort()).toEqual(published.sort());
    expect(partner.tags.map((t: Json) => t.name)).toContain("Webhooks");
    const ajv = schemaValidator();
    for (const type of published) {
      const media = partner.webhooks[type].post.requestBody.content["application/json"];
      const validate = ajv.compile(media.schema);
      expect(validate(media.example), `${type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(partner.webhooks[type].post.parameters.map((p: Json) => p.name)).toContain(
        "Orderline-Signature",
      );
    }
    const tenant = await getJson(`${base}/openapi/tenant.json`);
    expect(tenant.webhooks).toBeUndefined();
  });
});

describe.each(storeKinds)("real deliveries against the document (%s store)", (kind) => {
  it("every event type's body, as delivered, is valid against the served schema of its type", async () => {
    const { gw, base } = await running(kind);
    const tenant = await createTenant(gw, `Schema ${Math.random().toString(36).slice(2, 8)}`);
    const partner = await tenantPartner(gw, tenant.id, "Schema Partner");
    const admin = await userToken(gw, tenant.admin.email);
    const receiver = await new Receiver().start();
    cleanups.push(() => receiver.stop());
    const tenantCall = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${admin}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(response.status, `${method} ${path}`).toBeLessThan(300);
      return response.json() as Promise<Json>;
    };
    await tenantCall("POST", `/v1/tenant/partners/${partner.clientId}/webhook-endpoints`, {
      url: receiver.url,
      events: ["*"],
    });
    const token = await login(gw, partner);
    const place = async (overrides: Record<string, unknown>): Promise<string> => {
      const response = await fetch(`${base}/api/v1/sales-orders`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
        },
        body: JSON.stringify(order(overrides)),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as Json).data.id;
    };
    const a = await place({ purchase_order_no: "SCHEMA-A", currency: "EUR" });
    const b = await place({ purchase_order_no: "SCHEMA-B" });
    const c = await place({ purchase_order_no: "SCHEMA-C" });
    await tenantCall("POST", `/v1/orders/${a}/accept`, {});
    await tenantCall("POST", `/v1/orders/${a}/fulfil`, {});
    await tenantCall("POST", `/v1/orders/${b}/reject`, { reason: "Out of stock" });
    const cancel = await fetch(`${base}/api/v1/sales-orders/${c}/cancel`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
      },
      body: JSON.stringify({ reason: "Sent twice" }),
    });
    expect(cancel.status).toBe(200);
    await receiver.until((got) => got.length >= 7, "7 deliveries");

    const doc = await getJson(`${base}/openapi/partner.json`);
    const ajv = schemaValidator();
    const types = new Set<string>();
    for (const delivery of receiver.received) {
      const type = delivery.body.type as string;
      types.add(type);
      expect(delivery.headers["orderline-event-type"]).toBe(type);
      const schema = bodySchema(doc, type);
      expect(schema, type).toBeDefined();
      const validate = ajv.compile(schema);
      const body = JSON.parse(delivery.raw.toString("utf8"));
      expect(validate(body), `${type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    expect([...types].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());

    // The check can fail: a field the document does not name, or a wrong status, is refused.
    const created = receiver.received.find((d) => d.body.type === "order.created")?.body as Json;
    const validateCreated = ajv.compile(bodySchema(doc, "order.created"));
    expect(validateCreated({ ...created, extra: 1 })).toBe(false);
    expect(
      validateCreated({
        ...created,
        data: { order: { ...created.data.order, status: "accepted" } },
      }),
    ).toBe(false);
  });
});

import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { purgeExpired } from "../src/store/purge.js";
import { json, LogCapture, login, order, signedHeaders, startGateway } from "./helpers.js";
import { storeKinds } from "./support/stores.js";
import {
  createTenant,
  TEST_USERS_CONFIG,
  type TestTenant,
  tenantPartner,
  userToken,
} from "./support/tenants.js";

describe.each(storeKinds)("tenant webhook endpoints API (%s store)", (kind) => {
  let gw: Gateway;
  let a: TestTenant;
  let b: TestTenant;
  let clientA: string;
  let clientB: string;
  const logs = new LogCapture();
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    gw = await startGateway({
      store: kind,
      // The default policy: only public receivers (the delivery tests allow loopback).
      config: { users: TEST_USERS_CONFIG },
      logs,
    });
    a = await createTenant(gw, "Hooks Alpha");
    b = await createTenant(gw, "Hooks Beta");
    clientA = (await tenantPartner(gw, a.id, "Alpha Supplies")).clientId;
    clientB = (await tenantPartner(gw, b.id, "Beta Supplies")).clientId;
  });
  afterAll(async () => {
    await gw.close();
  });

  /** A resource answer's resource: every one comes as `{ data }` (api.md, "Envelope"). */
  const dataOf = (response: { json(): unknown }) =>
    (response.json() as { data: Record<string, unknown> }).data;

  const call = async (
    email: string,
    method: "GET" | "POST" | "PATCH" | "DELETE",
    url: string,
    payload?: Record<string, unknown>,
  ) => {
    if (!tokens.has(email)) tokens.set(email, await userToken(gw, email));
    return gw.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tokens.get(email)}` },
      ...(payload ? { payload } : {}),
    });
  };
  const base = (clientId: string) => `/v1/tenant/partners/${clientId}/webhook-endpoints`;
  const RECEIVER = "https://hooks.alpha.example/orderline";

  it("creates an endpoint whose secret is answered once, sealed at rest and never logged", async () => {
    const created = await call(a.admin.email, "POST", base(clientA), {
      url: RECEIVER,
      events: ["order.created", "order.accepted"],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers["cache-control"]).toBe("no-store");
    const body = dataOf(created);
    expect(body).toEqual({
      id: expect.stringMatching(/^we_[0-9a-f]{24}$/),
      url: RECEIVER,
      events: ["order.created", "order.accepted"],
      enabled: true,
      disabled_reason: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_success_at: null,
      failing_since: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
    });
    const secret = body.secret as string;
    expect(logs.text).toContain('"event":"webhook_endpoint_created"');
    expect(logs.text).not.toContain(secret);

    const partner = await gw.store.findPartnerByClientId(clientA);
    const [stored] = await gw.store.webhooks.listEndpoints(partner?.id as string);
    expect(stored?.secretSealed).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain(secret.slice(6));

    const list = await call(a.admin.email, "GET", base(clientA));
    expect(list.statusCode).toBe(200);
    const { secret: _shownOnce, ...endpoint } = body;
    expect(json(list).data).toEqual([endpoint]);
    expect(list.body).not.toContain("whsec_");
  });

  it("changes, disables, enables and removes an endpoint", async () => {
    const { id } = dataOf(
      await call(a.admin.email, "POST", base(clientA), { url: RECEIVER, events: ["*"] }),
    ) as { id: string };
    const url = `${base(clientA)}/${id}`;

    const changed = await call(a.admin.email, "PATCH", url, {
      url: "https://hooks.alpha.example/v2",
      events: ["order.cancelled", "order.rejected", "order.cancelled"],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(dataOf(changed)).toMatchObject({
      id,
      url: "https://hooks.alpha.example/v2",
      events: ["order.cancelled", "order.rejected"],
      enabled: true,
    });

    const disabled = await call(a.admin.email, "PATCH", url, { enabled: false });
    expect(dataOf(disabled)).toMatchObject({
      enabled: false,
      disabled_reason: `Disabled by tenant admin ${a.admin.email}.`,
    });
    const enabled = await call(a.admin.email, "PATCH", url, { enabled: true });
    expect(dataOf(enabled)).toMatchObject({ enabled: true, disabled_reason: null });

    expect((await call(a.admin.email, "PATCH", url, {})).statusCode).toBe(400);

    const removed = await call(a.admin.email, "DELETE", url);
    expect(removed.statusCode).toBe(204);
    const again = await call(a.admin.email, "DELETE", url);
    expect(again.statusCode).toBe(404);
    expect(json(again).code).toBe("webhook_endpoint_not_found");
    const ids = json(await call(a.admin.email, "GET", base(clientA))).data as unknown as {
      id: string;
    }[];
    expect(ids.map((e) => e.id)).not.toContain(id);
  });

  it("rotates the secret: a new one, answered once, the old one kept for the grace period", async () => {
    const created = dataOf(
      await call(a.admin.email, "POST", base(clientA), { url: RECEIVER, events: ["*"] }),
    );
    const rotated = await call(a.admin.email, "POST", `${base(clientA)}/${created.id}/secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.headers["cache-control"]).toBe("no-store");
    const { secret, previous_valid_until } = dataOf(rotated) as {
      secret: string;
      previous_valid_until: string;
    };
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.secret);
    expect(Date.parse(previous_valid_until) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    expect(logs.text).not.toContain(secret);
    expect(logs.text).toContain('"event":"webhook_endpoint_secret_rotated"');
  });

  it("refuses URLs that are not http(s), hold credentials, or name private addresses", async () => {
    const refused = [
      "ftp://hooks.alpha.example/x",
      "https://user:pass@hooks.alpha.example/x",
      "https://hooks.alpha.example/x#frag",
      "http://127.0.0.1:8080/hook",
      "http://localhost/hook",
      "http://10.0.0.8/hook",
      "http://192.168.1.20/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://[::127.0.0.1]/hook",
      "http://[::10.0.0.1]/hook",
      "http://[::169.254.169.254]/latest/meta-data",
      "http://[::ffff:a9fe:a9fe]/latest/meta-data",
      "http://[fe80::1]/hook",
      "http://0.0.0.0/hook",
      "not a url",
    ];
    for (const url of refused) {
      const response = await call(a.admin.email, "POST", base(clientA), { url, events: ["*"] });
      expect(response.statusCode, url).toBe(400);
      expect(json(response).code, url).toBe("webhook_url_invalid");
    }
  });

  it("refuses unknown event types and '*' mixed with types", async () => {
    for (const events of [["order.shipped"], ["*", "order.created"], ["order.status_changed"]]) {
      const response = await call(a.admin.email, "POST", base(clientA), { url: RECEIVER, events });
      expect(response.statusCode, events.join()).toBe(400);
      expect(json(response).code).toBe("webhook_events_invalid");
    }
    const empty = await call(a.admin.email, "POST", base(clientA), { url: RECEIVER, events: [] });
    expect(empty.statusCode).toBe(400);
  });

  it("keeps tenants apart and members out", async () => {
    const created = dataOf(
      await call(a.admin.email, "POST", base(clientA), { url: RECEIVER, events: ["*"] }),
    );
    // Beta's admin cannot see, change, rotate or resend on Alpha's partner: 404 as if missing.
    for (const [method, url] of [
      ["GET", base(clientA)],
      ["PATCH", `${base(clientA)}/${created.id}`],
      ["DELETE", `${base(clientA)}/${created.id}`],
      ["POST", `${base(clientA)}/${created.id}/secret`],
      ["GET", `${base(clientA)}/${created.id}/deliveries`],
    ] as const) {
      const response = await call(
        b.admin.email,
        method,
        url,
        method === "PATCH" ? { enabled: false } : undefined,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(json(response).code).toBe("partner_not_found");
    }
    // Nor reach Alpha's endpoint through Beta's own partner.
    const viaOwn = await call(b.admin.email, "GET", `${base(clientB)}/${created.id}/deliveries`);
    expect(viaOwn.statusCode).toBe(404);
    expect(json(viaOwn).code).toBe("webhook_endpoint_not_found");
    expect(json(await call(b.admin.email, "GET", base(clientB))).data).toEqual([]);

    const member = await call(a.member.email, "GET", base(clientA));
    expect(member.statusCode).toBe(403);
    expect(json(member).code).toBe("role_forbidden");
    const anonymous = await gw.app.inject({ method: "GET", url: base(clientA) });
    expect(anonymous.statusCode).toBe(401);
  });

  it("queues a resend of the partner's own event and lists no attempts before delivery", async () => {
    const partner = await tenantPartner(gw, a.id, "Alpha Resend");
    const created = dataOf(
      await call(a.admin.email, "POST", base(partner.clientId), {
        url: RECEIVER,
        events: ["order.created"],
      }),
    );
    const token = await login(gw, partner);
    const placed = await gw.app.inject({
      method: "POST",
      url: "/api/v1/sales-orders",
      headers: signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
      payload: order(),
    });
    expect(placed.statusCode).toBe(201);
    const record = await gw.store.findPartnerByClientId(partner.clientId);
    const [event] = await gw.store.webhooks.orderEvents(json(placed).data?.id as string);
    expect(event?.partnerId).toBe(record?.id);

    const url = `${base(partner.clientId)}/${created.id}`;
    expect(json(await call(a.admin.email, "GET", `${url}/deliveries`)).data).toEqual([]);
    const resent = await call(a.admin.email, "POST", `${url}/deliveries/evt_${event?.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(202);
    const claimed = await gw.store.webhooks.claimDeliveries(Date.now(), Date.now() + 1000, "l", 10);
    expect(claimed).toEqual([
      expect.objectContaining({
        endpointId: created.id,
        eventId: event?.id,
        eventType: "order.created",
        attempt: 1,
      }),
    ]);

    const unknown = await call(a.admin.email, "POST", `${url}/deliveries/evt_nope/resend`);
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown).code).toBe("webhook_event_not_found");
    // Another partner's event is unknown on this partner's endpoints.
    const elsewhere = dataOf(
      await call(a.admin.email, "POST", base(clientA), { url: RECEIVER, events: ["*"] }),
    );
    const other = await call(
      a.admin.email,
      "POST",
      `${base(clientA)}/${elsewhere.id}/deliveries/evt_${event?.id}/resend`,
    );
    expect(other.statusCode).toBe(404);
    expect(json(other).code).toBe("webhook_event_not_found");
  });

  it("purges deliveries and their attempts past retention and keeps the recent ones", async () => {
    const partner = await tenantPartner(gw, a.id, "Alpha Purge");
    const record = await gw.store.findPartnerByClientId(partner.clientId);
    const created = dataOf(
      await call(a.admin.email, "POST", base(partner.clientId), { url: RECEIVER, events: ["*"] }),
    );
    const token = await login(gw, partner);
    const events: string[] = [];
    for (const po of ["PO-OLD", "PO-NEW"]) {
      const placed = await gw.app.inject({
        method: "POST",
        url: "/api/v1/sales-orders",
        headers: signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
        payload: order({ purchase_order_no: po }),
      });
      const [event] = await gw.store.webhooks.orderEvents(json(placed).data?.id as string);
      events.push(event?.id as string);
    }
    const DAY = 86_400_000;
    const now = Date.now();
    // One attempt 40 days ago, one now (retention: 30 days).
    for (const [eventId, at] of [
      [events[0], now - 40 * DAY],
      [events[1], now],
    ] as [string, number][]) {
      await gw.store.webhooks.resend(created.id as string, eventId, "order.created", at);
      const [claim] = await gw.store.webhooks.claimDeliveries(at, at + 1000, `l-${at}`, 10);
      expect(claim?.eventId).toBe(eventId);
      await gw.store.webhooks.finishAttempts([
        {
          attempt: {
            id: `wa_${at}`,
            endpointId: created.id as string,
            eventId,
            eventType: "order.created",
            attempt: 1,
            status: "succeeded",
            responseStatus: 200,
            durationMs: 5,
            error: null,
            attemptedAt: at,
          },
          lease: claim?.lease as string,
          lockedUntil: claim?.lockedUntil as number,
          next: { kind: "succeeded" },
          disableFailingSince: 0,
          disabledReason: "",
        },
      ]);
    }
    expect(await gw.store.webhooks.listAttempts(created.id as string, 10)).toHaveLength(2);
    const purged = await purgeExpired(gw.store, gw.config.retention, now);
    expect(purged).toMatchObject({ webhook_attempts: 1, webhook_deliveries: 1 });
    const kept = await gw.store.webhooks.listAttempts(created.id as string, 10);
    expect(kept.map((attempt) => attempt.eventId)).toEqual([events[1]]);
    expect(record?.id).toBeDefined();
  });

  it("documents every webhook operation in the tenant reference with valid examples", async () => {
    const doc = json(await gw.app.inject({ method: "GET", url: "/openapi/tenant.json" }));
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    const paths = Object.entries(doc.paths as Record<string, Record<string, Json>>).filter(
      ([path]) => path.includes("/webhook-endpoints"),
    );
    expect(paths).toHaveLength(6);
    let checked = 0;
    for (const [path, item] of paths) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/Webhook/);
        const media = [
          ...Object.values(op.requestBody?.content ?? {}),
          ...Object.values(op.responses ?? {}).flatMap((r) =>
            Object.values((r as Json).content ?? {}),
          ),
        ] as Json[];
        for (const m of media) {
          expect(m.example, `${method} ${path}`).toBeDefined();
          // Named types are references into the document's components: resolved from there.
          const schema = { ...m.schema, components: doc.components };
          expect(ajv.validate(schema, m.example), `${method} ${path}: ${ajv.errorsText()}`).toBe(
            true,
          );
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(25);
  });
});

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are open-ended JSON.
type Json = any;

import { sign } from "node:crypto";
import type { AddressInfo } from "node:net";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type WebhooksConfig } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import { distinctTimestamp, LogCapture, startGateway, type TestPartner } from "./helpers.js";
import { type AnswerBody, httpRequest } from "./support/http.js";
import { Receiver, verifyDelivery } from "./support/receiver.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, tenantPartner, userToken } from "./support/tenants.js";
import { tracingModes, useTracing } from "./support/tracing.js";

/** Delivery tuned to run in seconds, loopback receivers allowed (as the delivery tests do). */
const FAST: Partial<WebhooksConfig> = {
  allowPrivate: "loopback",
  pollMs: 25,
  backoffBaseMs: 50,
  backoffMaxMs: 200,
  timeoutMs: 2000,
  leaseMs: 6000,
};

type Endpoint = { id: string; url: string; events: string[]; enabled: boolean; secret?: string };
type LogEntry = {
  at: string;
  method: string;
  path: string;
  status: number;
  code: string;
  request_id: string;
  detail: string | null;
  expected: { signature_version?: number; string_to_sign?: string; hints?: { code: string }[] };
};

// Each store, and once more with tracing on (every store call then runs in a span).
const MODES = tracingModes(storeKinds);

describe.each(MODES)("partner-owned webhook endpoints and request log ($label)", (mode) => {
  const { kind, tracing } = mode;
  useTracing({ tracing });
  let gw: Gateway;
  let base: string;
  let tenantId: string;
  let adminEmail: string;
  let alpha: TestPartner;
  let beta: TestPartner;
  const tokens = new Map<string, string>();
  const logs = new LogCapture();
  const receiver = new Receiver();

  beforeAll(async () => {
    gw = await startGateway({
      store: kind,
      logs,
      config: { users: TEST_USERS_CONFIG, webhooks: { ...loadConfig({}).webhooks, ...FAST } },
    });
    await gw.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
    const tenant = await createTenant(gw, "Self Service");
    tenantId = tenant.id;
    adminEmail = tenant.admin.email;
    alpha = await tenantPartner(gw, tenant.id, "Alpha Supplies");
    beta = await tenantPartner(gw, tenant.id, "Beta Supplies");
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await gw.close();
  });

  /** A partner's token from a login over the socket. */
  async function tokenOf(partner: TestPartner): Promise<string> {
    let token = tokens.get(partner.clientId);
    if (token === undefined) {
      const answer = await httpRequest(base, "POST", "/api/v1/auth/login", {
        body: { client_id: partner.clientId, client_secret: partner.clientSecret },
      });
      token = answer.body.token as string;
      tokens.set(partner.clientId, token);
    }
    return token;
  }

  /** A signed partner request (signature version 1) over the socket. */
  async function call(
    partner: TestPartner,
    method: string,
    path: string,
    body?: unknown,
    signedText?: (stringToSign: string) => string,
  ) {
    const timestamp = distinctTimestamp(String(Math.floor(Date.now() / 1000)));
    const text = `${partner.clientId}|${timestamp}`;
    const signature = sign(
      "sha256",
      Buffer.from(signedText ? signedText(text) : text),
      partner.keys.privateKey,
    ).toString("base64");
    return httpRequest(base, method, path, {
      ...(body === undefined ? {} : { body }),
      headers: {
        authorization: `Bearer ${await tokenOf(partner)}`,
        "x-client-id": partner.clientId,
        "x-timestamp": timestamp,
        "x-signature": signature,
      },
    });
  }

  const ENDPOINTS = "/api/v1/webhook-endpoints";

  async function register(partner: TestPartner, url = receiver.url): Promise<Endpoint> {
    const created = await call(partner, "POST", ENDPOINTS, { url, events: ["order.created"] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data as Endpoint;
  }

  /** The partner's request log, once `test` holds (it is written a moment after the answer). */
  async function requestLog(
    partner: TestPartner,
    test: (entries: LogEntry[]) => boolean = () => true,
  ): Promise<LogEntry[]> {
    for (let i = 0; ; i++) {
      const answer = await call(partner, "GET", "/api/v1/request-log?outcome=failed");
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const entries = answer.body.data as LogEntry[];
      if (test(entries) || i === 80) return entries;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("registers, tests, inspects, resends and rotates on its own endpoint", async () => {
    const created = await register(alpha);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^we_/),
      url: receiver.url,
      events: ["order.created"],
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const secret = created.secret as string;
    const one = `${ENDPOINTS}/${created.id}`;

    const listed = await call(alpha, "GET", ENDPOINTS);
    expect((listed.body.data as Endpoint[]).map((e) => e.id)).toEqual([created.id]);
    expect(JSON.stringify(listed.body)).not.toContain("whsec_");
    const read = await call(alpha, "GET", one);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: created.id, url: receiver.url });

    // The test event: not an order event the endpoint subscribes to, delivered all the same.
    const tested = await call(alpha, "POST", `${one}/test`);
    expect(tested.status, JSON.stringify(tested.body)).toBe(201);
    const eventId = (tested.body.data as { event_id: string }).event_id;
    expect(eventId).toMatch(/^evt_/);
    await receiver.until((r) => r.some((d) => d.body.id === eventId), "the test event");
    const delivery = receiver.received.find((d) => d.body.id === eventId);
    expect(delivery?.headers["orderline-event-type"]).toBe("webhook.test");
    expect(delivery?.headers["orderline-event-id"]).toBe(eventId);
    expect(delivery?.body).toMatchObject({
      id: eventId,
      type: "webhook.test",
      data: { endpoint_id: created.id },
    });
    const header = delivery?.headers["orderline-signature"] as string;
    expect(verifyDelivery(header, delivery?.raw as Buffer, secret)).toBe(true);
    // The body is what /openapi/partner.json publishes for webhook.test (closed: no extra field).
    const doc = (await (await fetch(`${base}/openapi/partner.json`)).json()) as {
      webhooks: Record<string, { post: { requestBody: { content: Record<string, unknown> } } }>;
    };
    const media = doc.webhooks["webhook.test"]?.post.requestBody.content["application/json"] as {
      schema: object;
    };
    const validate = new Ajv2020({ strict: false }).compile(media.schema);
    expect(validate(JSON.parse(delivery?.raw.toString("utf8") as string))).toBe(true);
    expect(validate({ ...delivery?.body, extra: 1 })).toBe(false);

    let attempts: { event_id: string; event_type: string; status: string }[] = [];
    for (let i = 0; i < 80 && attempts.length === 0; i++) {
      attempts = (await call(alpha, "GET", `${one}/deliveries`)).body.data as typeof attempts;
      if (attempts.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(attempts[0]).toMatchObject({
      event_id: eventId,
      event_type: "webhook.test",
      status: "succeeded",
    });

    const resent = await call(alpha, "POST", `${one}/deliveries/${eventId}/resend`);
    expect(resent.status, JSON.stringify(resent.body)).toBe(202);
    await receiver.until(
      (r) => r.filter((d) => d.body.id === eventId).length === 2,
      "the resent test event",
    );

    const rotated = await call(alpha, "POST", `${one}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.headers["cache-control"]).toBe("no-store");
    const newSecret = (rotated.body.data as { secret: string }).secret;
    expect(newSecret).not.toBe(secret);
    const second = ((await call(alpha, "POST", `${one}/test`)).body.data as { event_id: string })
      .event_id;
    await receiver.until((r) => r.some((d) => d.body.id === second), "the second test event");
    const after = receiver.received.find((d) => d.body.id === second);
    const signed = after?.headers["orderline-signature"] as string;
    expect(verifyDelivery(signed, after?.raw as Buffer, newSecret)).toBe(true);
    expect(verifyDelivery(signed, after?.raw as Buffer, secret)).toBe(true); // grace period

    // The tenant's admins see the partner's endpoint and what the partner did.
    const admin = await userToken(gw, adminEmail);
    const seen = await fetch(`${base}/v1/tenant/partners/${alpha.clientId}/webhook-endpoints`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(((await seen.json()) as { data: Endpoint[] }).data.map((e) => e.id)).toContain(
      created.id,
    );
    const audited = logs.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((l) => l.audit === true && l.actor_kind === "partner");
    expect(audited.map((l) => l.event)).toEqual(
      expect.arrayContaining([
        "webhook_endpoint_created",
        "webhook_test_sent",
        "webhook_event_resent",
        "webhook_endpoint_secret_rotated",
      ]),
    );
    expect(audited.every((l) => l.tenant_id === tenantId && l.client_id === alpha.clientId)).toBe(
      true,
    );
    expect(logs.text).not.toContain(secret);
    expect(logs.text).not.toContain(newSecret);

    // …and in the tenant's persisted audit trail (the console's Activity page).
    const trail = await fetch(`${base}/v1/tenant/audit-events?limit=100`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const events = ((await trail.json()) as { data: Record<string, unknown>[] }).data;
    const byPartner = events.filter((e) => (e.actor as { kind: string }).kind === "partner");
    expect(byPartner.map((e) => e.action)).toEqual(
      expect.arrayContaining(["webhook_endpoint_created", "webhook_test_sent"]),
    );
    expect(byPartner[0]).toMatchObject({
      actor: { kind: "partner", id: alpha.clientId, label: "Alpha Supplies" },
      subject: { type: "webhook_endpoint", id: created.id },
    });
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it("never lets another partner see or touch them", async () => {
    const endpoint = await register(alpha, "https://hooks.alpha.example/private");
    const tested = await call(alpha, "POST", `${ENDPOINTS}/${endpoint.id}/test`);
    const eventId = (tested.body.data as { event_id: string }).event_id;
    const own = await register(beta, "https://hooks.beta.example/in");

    const list = await call(beta, "GET", ENDPOINTS);
    expect((list.body.data as Endpoint[]).map((e) => e.id)).toEqual([own.id]);
    const theirs = `${ENDPOINTS}/${endpoint.id}`;
    const attempts: [string, string, unknown?][] = [
      ["GET", theirs],
      ["PATCH", theirs, { enabled: false }],
      ["DELETE", theirs],
      ["POST", `${theirs}/secret`],
      ["GET", `${theirs}/deliveries`],
      ["POST", `${theirs}/deliveries/${eventId}/resend`],
      ["POST", `${theirs}/test`],
    ];
    for (const [method, path, body] of attempts) {
      const answer = await call(beta, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.code).toBe("webhook_endpoint_not_found");
      expect(JSON.stringify(answer.body)).not.toContain("hooks.alpha.example");
    }
    // Alpha's event cannot be resent to Beta's own endpoint either.
    const resend = await call(beta, "POST", `${ENDPOINTS}/${own.id}/deliveries/${eventId}/resend`);
    expect(resend.status).toBe(404);
    expect(resend.body.code).toBe("webhook_event_not_found");

    const still = await call(alpha, "GET", theirs);
    expect(still.body.data).toMatchObject({ id: endpoint.id, enabled: true });
  });

  it("applies the tenant API's checks and limits", async () => {
    const refusals: [unknown, number, string][] = [
      [{ url: "https://user:pw@hooks.example/in", events: ["*"] }, 400, "webhook_url_invalid"],
      [{ url: "http://10.1.2.3/in", events: ["*"] }, 400, "webhook_url_invalid"],
      [{ url: "https://hooks.example/in", events: ["order.lost"] }, 400, "webhook_events_invalid"],
      [{ url: "https://hooks.example/in", events: ["*"], extra: 1 }, 400, "validation_failed"],
    ];
    for (const [body, status, code] of refusals) {
      const answer = await call(beta, "POST", ENDPOINTS, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.code).toBe(code);
    }
    const existing = (await call(beta, "GET", ENDPOINTS)).body.data as Endpoint[];
    for (let n = existing.length; n < 16; n++) await register(beta, `https://hooks.example/${n}`);
    const over = await call(beta, "POST", ENDPOINTS, {
      url: "https://hooks.example/17",
      events: ["*"],
    });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe("webhook_endpoint_limit");

    const [first] = (await call(beta, "GET", ENDPOINTS)).body.data as Endpoint[];
    const disabled = await call(beta, "PATCH", `${ENDPOINTS}/${first?.id}`, { enabled: false });
    expect(disabled.body.data).toMatchObject({
      enabled: false,
      disabled_reason: `Disabled by the partner (${beta.clientId}).`,
    });
    const test = await call(beta, "POST", `${ENDPOINTS}/${first?.id}/test`);
    expect(test.status).toBe(409);
    expect(test.body.code).toBe("webhook_endpoint_disabled");
    const removed = await call(beta, "DELETE", `${ENDPOINTS}/${first?.id}`);
    expect(removed.status).toBe(204);
  });

  it("explains a refused signature in the partner's own request log, and nobody else's", async () => {
    // Signed with a trailing newline: the classic `echo` mistake.
    const refused = await call(alpha, "GET", ENDPOINTS, undefined, (text) => `${text}\n`);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("signature_invalid");
    const requestId = refused.headers["x-request-id"] as string;
    const expected = (refused.body as AnswerBody).string_to_sign as string;

    // A token that does not verify belongs to nobody: logged for no one.
    await httpRequest(base, "GET", ENDPOINTS, {
      headers: {
        authorization: "Bearer not-a-token",
        "x-client-id": alpha.clientId,
        "x-timestamp": "1",
        "x-signature": "AAAA",
      },
    });

    const entries = await requestLog(alpha, (e) => e.some((x) => x.request_id === requestId));
    const entry = entries.find((x) => x.request_id === requestId);
    expect(entry).toMatchObject({
      method: "GET",
      path: ENDPOINTS,
      status: 401,
      code: "signature_invalid",
      expected: { signature_version: 1, string_to_sign: expected },
    });
    expect(entry?.expected.string_to_sign).toBe(
      `${alpha.clientId}|${expected.split("|")[1] as string}`,
    );
    expect(entry?.expected.hints?.map((h) => h.code)).toContain("trailing_newline");
    expect(entries.some((x) => x.code === "token_invalid")).toBe(false);
    const text = JSON.stringify(entries);
    expect(text).not.toContain(alpha.clientSecret);
    expect(text).not.toContain("whsec_");

    // Beta's log: Beta's own refusals (the 404s of the isolation test), none of Alpha's.
    const betas = await requestLog(beta, (e) => e.length > 0);
    expect(betas.length).toBeGreaterThan(0);
    expect(betas.some((x) => x.request_id === requestId)).toBe(false);
    expect(JSON.stringify(betas)).not.toContain(alpha.clientId);
  });
});

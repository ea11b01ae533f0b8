import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { order, signedHeaders, startGateway, type TestPartner } from "./helpers.js";
import { storeKinds } from "./support/stores.js";
import {
  createTenant,
  PASSWORD,
  TEST_USERS_CONFIG,
  type TestTenant,
  tenantPartner,
} from "./support/tenants.js";

interface OrderJson {
  id: string;
  status: string;
}

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: answers are JSON read field by field in assertions
  body: Record<string, any>;
}

describe.each(storeKinds)("order lifecycle over real HTTP (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let a: TestTenant;
  let b: TestTenant;
  let partner: TestPartner;
  let partnerToken: string;
  let admin: string;
  let member: string;
  let otherAdmin: string;

  const call = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Answer> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : {},
    };
  };
  const signIn = async (email: string) =>
    (await call("POST", "/v1/auth/login", {}, { email, password: PASSWORD })).body.token as string;
  const user = (token: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${token}`,
    ...extra,
  });
  const signed = () => signedHeaders(partner, partnerToken, String(Math.floor(Date.now() / 1000)));
  const newOrder = async (po: string | null = null) => {
    const created = await call(
      "POST",
      "/api/v1/sales-orders",
      signed(),
      order({ purchase_order_no: po }),
    );
    expect(created.status).toBe(201);
    return created.body.data as { id: string; status: string; version: number };
  };
  const move = (token: string, id: string, action: string, body?: unknown, extra = {}) =>
    call("POST", `/v1/orders/${id}/${action}`, user(token, extra), body);

  beforeAll(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    a = await createTenant(gw, "Life Alpha");
    b = await createTenant(gw, "Life Beta");
    partner = await tenantPartner(gw, a.id);
    const login = await call(
      "POST",
      "/api/v1/auth/login",
      {},
      { client_id: partner.clientId, client_secret: partner.clientSecret },
    );
    partnerToken = login.body.token;
    admin = await signIn(a.admin.email);
    member = await signIn(a.member.email);
    otherAdmin = await signIn(b.admin.email);
  });
  afterAll(async () => {
    await gw.close();
  });

  it("accepts then fulfils, each change in the history with who, when, from, to and why", async () => {
    const created = await newOrder();
    expect(created).toMatchObject({ status: "received", version: 1 });
    const read = await call("GET", `/v1/orders/${created.id}`, user(member));
    expect(read.headers.get("etag")).toBe('"1"');

    const accepted = await move(
      member,
      created.id,
      "accept",
      { reason: "stock checked" },
      { "if-match": '"1"' },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get("etag")).toBe('"2"');
    expect(accepted.body.data).toMatchObject({ status: "accepted", version: 2 });

    const fulfilled = await move(member, created.id, "fulfil");
    expect(fulfilled.status).toBe(200);
    expect(fulfilled.body.data.status).toBe("fulfilled");
    const history = fulfilled.body.data.history;
    expect(
      history.map((h: { from: string | null; to: string; reason: string | null }) => [
        h.from,
        h.to,
        h.reason,
      ]),
    ).toEqual([
      [null, "received", null],
      ["received", "accepted", "stock checked"],
      ["accepted", "fulfilled", null],
    ]);
    expect(history[1].actor).toEqual({ type: "user", name: a.member.email });
    expect(Date.parse(history[1].at)).toBeGreaterThan(0);

    // The partner sees the same history, without the tenant user's email.
    const partnerView = await call("GET", `/api/v1/sales-orders/${created.id}`, signed());
    expect(partnerView.status).toBe(200);
    expect(partnerView.body.data.status).toBe("fulfilled");
    expect(partnerView.body.data.history[0].actor).toEqual({
      type: "partner",
      name: partner.clientId,
    });
    expect(partnerView.body.data.history[1].actor).toEqual({ type: "user", name: null });

    // fulfilled is final: every action is refused with 409 naming the status, nothing changes.
    for (const action of ["accept", "reject", "fulfil", "cancel"]) {
      const refused = await move(admin, created.id, action, { reason: "try" });
      expect(refused.status).toBe(409);
      expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({
        code: "order_transition_invalid",
        current_status: "fulfilled",
        allowed_next: [],
      });
    }
    const after = await call("GET", `/v1/orders/${created.id}`, user(member));
    expect(after.body.data).toMatchObject({ status: "fulfilled", version: 3 });
    expect(after.body.data.history).toHaveLength(3);
  });

  it("rejects only with a reason; a rejected order cannot be accepted", async () => {
    const created = await newOrder();
    const noReason = await move(member, created.id, "reject", {});
    expect(noReason.status).toBe(400);
    expect(noReason.body.code).toBe("validation_failed");
    const blank = await move(member, created.id, "reject", { reason: "   " });
    expect(blank.status).toBe(400);
    expect((await call("GET", `/v1/orders/${created.id}`, user(member))).body.data.status).toBe(
      "received",
    );
    const rejected = await move(member, created.id, "reject", { reason: "customer unknown" });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.status).toBe("rejected");
    const accept = await move(member, created.id, "accept");
    expect(accept.status).toBe(409);
    expect(accept.body).toMatchObject({ current_status: "rejected", allowed_next: [] });
  });

  it("lets admins, not members, cancel an accepted order; fulfil needs accepted", async () => {
    const created = await newOrder();
    const early = await move(member, created.id, "fulfil");
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({
      current_status: "received",
      allowed_next: ["accepted", "rejected", "cancelled"],
    });
    await move(member, created.id, "accept");
    const byMember = await move(member, created.id, "cancel", { reason: "out of stock" });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("role_forbidden");
    const byAdmin = await move(admin, created.id, "cancel", { reason: "out of stock" });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.data.history.at(-1)).toMatchObject({
      from: "accepted",
      to: "cancelled",
      reason: "out of stock",
      actor: { type: "user", name: a.admin.email },
    });
  });

  it("answers 412 for a stale or unreadable If-Match and changes nothing", async () => {
    const created = await newOrder();
    const stale = await move(member, created.id, "accept", undefined, { "if-match": '"7"' });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: "order_version_mismatch", current_version: 1 });
    expect(stale.headers.get("etag")).toBe('"1"');
    const garbage = await move(member, created.id, "accept", undefined, {
      "if-match": "yesterday",
    });
    expect(garbage.status).toBe(412);
    const read = await call("GET", `/v1/orders/${created.id}`, user(member));
    expect(read.body.data).toMatchObject({ status: "received", version: 1 });
    expect((await move(member, created.id, "accept", undefined, { "if-match": "*" })).status).toBe(
      200,
    );
  });

  it("hides another tenant's orders: moving one is 404 and changes nothing", async () => {
    const created = await newOrder();
    const foreign = await move(otherAdmin, created.id, "reject", { reason: "not mine" });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe("order_not_found");
    expect((await call("GET", `/v1/orders/${created.id}`, user(member))).body.data.status).toBe(
      "received",
    );
  });

  it("lets the partner cancel while received, with a reason, and not after acceptance", async () => {
    const created = await newOrder();
    const noReason = await call("POST", `/api/v1/sales-orders/${created.id}/cancel`, signed(), {});
    expect(noReason.status).toBe(400);
    const unsigned = await call(
      "POST",
      `/api/v1/sales-orders/${created.id}/cancel`,
      { authorization: `Bearer ${partnerToken}` },
      { reason: "duplicate" },
    );
    expect(unsigned.status).toBe(401);
    const cancelled = await call("POST", `/api/v1/sales-orders/${created.id}/cancel`, signed(), {
      reason: "sent twice",
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe("cancelled");
    expect(cancelled.body.data.history.at(-1)).toMatchObject({
      from: "received",
      to: "cancelled",
      reason: "sent twice",
      actor: { type: "partner", name: partner.clientId },
    });

    const accepted = await newOrder();
    await move(member, accepted.id, "accept");
    const late = await call("POST", `/api/v1/sales-orders/${accepted.id}/cancel`, signed(), {
      reason: "changed my mind",
    });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({
      code: "order_transition_invalid",
      current_status: "accepted",
      allowed_next: [],
    });
    const missing = await call("POST", "/api/v1/sales-orders/nope/cancel", signed(), {
      reason: "x",
    });
    expect(missing.status).toBe(404);
  });

  it("one of two users accepting and rejecting at once wins; the other gets 409 or 412", async () => {
    for (let round = 0; round < 5; round++) {
      const created = await newOrder();
      const [accept, reject] = await Promise.all([
        move(member, created.id, "accept", undefined, { "if-match": '"1"' }),
        move(admin, created.id, "reject", { reason: "race" }, { "if-match": '"1"' }),
      ]);
      const statuses = [accept.status, reject.status].sort();
      expect(statuses[0]).toBe(200);
      expect([409, 412]).toContain(statuses[1]);
      const read = await call("GET", `/v1/orders/${created.id}`, user(member));
      const winner = accept.status === 200 ? "accepted" : "rejected";
      expect(read.body.data).toMatchObject({ status: winner, version: 2 });
      expect(read.body.data.history).toHaveLength(2);
    }
  });

  it("writes one outbox event per creation and per change, none for a refused move", async () => {
    const before = await gw.store.listOrderEvents({ limit: 10_000 });
    const afterSeq = before.at(-1)?.seq ?? 0;
    const created = await newOrder();
    await move(member, created.id, "accept", { reason: "ok" });
    expect((await move(member, created.id, "reject", { reason: "late" })).status).toBe(409);
    await move(member, created.id, "fulfil");
    const events = await gw.store.listOrderEvents({ afterSeq, limit: 100 });
    expect(events.map((e) => [e.orderId, e.type, e.from, e.to, e.reason])).toEqual([
      [created.id, "order.created", null, "received", null],
      [created.id, "order.status_changed", "received", "accepted", "ok"],
      [created.id, "order.status_changed", "accepted", "fulfilled", null],
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
    expect(events.every((e, i) => i === 0 || e.seq > (events[i - 1]?.seq ?? 0))).toBe(true);
  });

  it("filters the partner listing by status, creation time and purchase_order_no", async () => {
    const po = `PO-F-${kind}`;
    const target = await newOrder(po);
    await move(member, target.id, "accept");
    const byPo = await call("GET", `/api/v1/sales-orders?purchase_order_no=${po}`, signed());
    expect(byPo.status).toBe(200);
    expect(byPo.body.data.map((o: OrderJson) => o.id)).toEqual([target.id]);

    const accepted = await call("GET", "/api/v1/sales-orders?status=accepted&limit=100", signed());
    expect(accepted.body.data.length).toBeGreaterThan(0);
    expect(accepted.body.data.every((o: OrderJson) => o.status === "accepted")).toBe(true);
    expect(accepted.body.data.map((o: OrderJson) => o.id)).toContain(target.id);

    // The tenant's listing takes the same filters.
    const tenantAccepted = await call("GET", "/v1/orders?status=accepted&limit=100", user(member));
    expect(tenantAccepted.status).toBe(200);
    expect(tenantAccepted.body.data.every((o: OrderJson) => o.status === "accepted")).toBe(true);
    expect(tenantAccepted.body.data.map((o: OrderJson) => o.id)).toContain(target.id);
    const tenantByPo = await call("GET", `/v1/orders?purchase_order_no=${po}`, user(member));
    expect(tenantByPo.body.data.map((o: OrderJson) => o.id)).toEqual([target.id]);

    const future = new Date(Date.now() + 60_000).toISOString();
    const none = await call("GET", `/api/v1/sales-orders?created_from=${future}`, signed());
    expect(none.body.data).toEqual([]);
    const before = await call("GET", `/api/v1/sales-orders?created_to=${future}&limit=1`, signed());
    expect(before.body.data).toHaveLength(1);

    const badStatus = await call("GET", "/api/v1/sales-orders?status=shipped", signed());
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.code).toBe("validation_failed");
    const badDate = await call("GET", "/api/v1/sales-orders?created_from=yesterday", signed());
    expect(badDate.status).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { purgeExpired } from "../src/store/purge.js";
import {
  FakeClock,
  LogCapture,
  login,
  order,
  sharedRsaKeys,
  signedHeaders,
  startGateway,
  tempDir,
} from "./helpers.js";
import { runCaptured } from "./support/processes.js";
import { storeKinds } from "./support/stores.js";
import {
  createTenant,
  TEST_USERS_CONFIG,
  type TestTenant,
  tenantPartner,
  userToken,
} from "./support/tenants.js";

const DAY = 24 * 60 * 60;

describe.each(storeKinds)("audit trail (%s store)", (kind) => {
  let gw: Gateway;
  let a: TestTenant;
  let b: TestTenant;
  const clock = new FakeClock();
  const logs = new LogCapture();

  beforeAll(async () => {
    gw = await startGateway({ store: kind, clock, config: { users: TEST_USERS_CONFIG }, logs });
    a = await createTenant(gw, "Audit Alpha");
    b = await createTenant(gw, "Audit Beta");
  });
  afterAll(async () => {
    await gw.close();
  });

  const call = async (email: string, method: "GET" | "POST", url: string, payload?: object) =>
    gw.app.inject({
      method,
      url,
      remoteAddress: "203.0.113.7",
      headers: { authorization: `Bearer ${await userToken(gw, email)}` },
      ...(payload ? { payload } : {}),
    });

  it("keeps each tenant change with who, what, on what, when and from where; only for its own admins", async () => {
    const created = await call(a.admin.email, "POST", "/v1/tenant/partners", {
      name: "Audited Retail",
      public_key: sharedRsaKeys().publicPem,
    });
    expect(created.statusCode, created.body).toBe(201);
    const { client_id, client_secret, key_id } = created.json().data;
    clock.advanceSeconds(60);
    expect(
      (await call(a.admin.email, "POST", `/v1/tenant/partners/${client_id}/secret`)).statusCode,
    ).toBe(200);

    const listed = await call(a.admin.email, "GET", "/v1/tenant/audit-events");
    expect(listed.statusCode, listed.body).toBe(200);
    const events = listed.json().data;
    expect(events.map((e: { action: string }) => e.action)).toEqual([
      "tenant_partner_secret_rotated",
      "tenant_partner_created",
    ]);
    expect(events[1]).toMatchObject({
      actor: { kind: "user", id: a.admin.id, label: a.admin.email },
      subject: { type: "partner", id: client_id },
      details: { client_id, key_id },
      source_address: "203.0.113.7",
      at: new Date(clock.now() - 60_000).toISOString(),
    });
    expect(listed.body).not.toContain(client_secret);
    // Logged as before, with the audit flag.
    expect(logs.text).toContain('"event":"tenant_partner_created","audit":true');

    // Another tenant's admin sees none of it; a member may not read the trail.
    expect((await call(b.admin.email, "GET", "/v1/tenant/audit-events")).json().data).toEqual([]);
    const member = await call(a.member.email, "GET", "/v1/tenant/audit-events");
    expect(member.statusCode).toBe(403);
    expect(member.json().code).toBe("role_forbidden");
    const named = await call(b.admin.email, "GET", `/v1/tenant/audit-events?tenant_id=${a.id}`);
    expect(named.json().code).toBe("tenant_parameter_refused");
  });

  it("filters by actor, action, subject and time, pages by cursor, exports CSV", async () => {
    const base = "/v1/tenant/audit-events";
    const get = (query: string) => call(a.admin.email, "GET", `${base}${query}`);
    const actions = async (query: string) =>
      (await get(query)).json().data.map((e: { action: string }) => e.action);
    expect(await actions("?action=tenant_partner_created")).toEqual(["tenant_partner_created"]);
    expect(await actions("?subject_type=partner_key")).toEqual([]);
    expect(await actions(`?actor=${encodeURIComponent(a.admin.email.toUpperCase())}`)).toHaveLength(
      2,
    );
    expect(await actions(`?actor=${a.member.id}`)).toEqual([]);
    const at = new Date(clock.now() - 30_000).toISOString();
    expect(await actions(`?from=${encodeURIComponent(at)}`)).toEqual([
      "tenant_partner_secret_rotated",
    ]);
    expect(await actions(`?to=${encodeURIComponent(at)}`)).toEqual(["tenant_partner_created"]);

    const first = (await get("?limit=1")).json();
    expect(first.data).toHaveLength(1);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = (await get(`?limit=1&cursor=${first.next_cursor}`)).json();
    expect(second.data.map((e: { action: string }) => e.action)).toEqual([
      "tenant_partner_created",
    ]);
    expect(second.next_cursor).toBeNull();

    const badCursor = await get("?cursor=nonsense");
    expect(badCursor.statusCode).toBe(400);
    expect(badCursor.json().code).toBe("cursor_invalid");
    const badDate = await get("?from=2026-13-45T00:00:00Z");
    expect(badDate.json().code).toBe("validation_failed");
    const unknown = await get("?colour=red");
    expect(unknown.json().code).toBe("validation_failed");

    const csv = await call(a.admin.email, "GET", `${base}/export?action=tenant_partner_created`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toBe(
      "at,actor_kind,actor_id,actor,action,subject_type,subject_id,details,source_address",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`user,${a.admin.id},${a.admin.email},tenant_partner_created`);
    const forbidden = await call(a.member.email, "GET", `${base}/export`);
    expect(forbidden.statusCode).toBe(403);
  });

  it("purges events past GATEWAY_AUDIT_RETENTION_SECONDS and keeps the newer ones", async () => {
    const retention = { ...gw.config.retention, auditSeconds: 30 * DAY };
    clock.advanceSeconds(20 * DAY);
    await call(a.admin.email, "POST", "/v1/tenant/partners", { name: "Newer Partner" });
    clock.advanceSeconds(11 * DAY);
    const purged = await purgeExpired(gw.store, retention, clock.now());
    expect(purged.audit_events).toBe(2);
    const left = (await call(a.admin.email, "GET", "/v1/tenant/audit-events")).json().data;
    expect(left.map((e: { action: string }) => e.action)).toEqual(["tenant_partner_created"]);
    expect(left[0].details).not.toHaveProperty("key_id");
  });

  it("keeps each order move, one order or many, with the order, its partner and the counts", async () => {
    const partner = await tenantPartner(gw, a.id, "Moved Retail");
    clock.advanceSeconds(1);
    const token = await login(gw, partner);
    const created = await gw.app.inject({
      method: "POST",
      url: "/api/v1/sales-orders",
      headers: signedHeaders(partner, token, String(clock.seconds)),
      payload: order({ purchase_order_no: "PO-AUDIT-1" }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id, order_number } = created.json().data;
    const moved = await call(a.member.email, "POST", `/v1/orders/${id}/accept`, {});
    expect(moved.statusCode, moved.body).toBe(200);
    const bulk = await call(a.admin.email, "POST", "/v1/tenant/orders/bulk", {
      action: "fulfil",
      ids: [id],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);

    const byOrder = await call(a.admin.email, "GET", "/v1/tenant/audit-events?subject_type=order");
    expect(byOrder.json().data).toMatchObject([
      {
        action: "orders.moved",
        actor: { kind: "user", id: a.member.id },
        subject: { type: "order", id },
        details: { action: "accept", order_id: id, order_number, partner_name: "Moved Retail" },
      },
    ]);
    const bulkMoves = await call(
      a.admin.email,
      "GET",
      "/v1/tenant/audit-events?action=orders.bulk_moved",
    );
    expect(bulkMoves.json().data).toMatchObject([
      { details: { action: "fulfil", requested: 1, moved: 1, moved_ids: [id] } },
    ]);
  });
});

describe("audit trail of the admin CLI", () => {
  it("records the operator's changes, without secrets, on the partner's tenant", async () => {
    const { dir, cleanup } = tempDir();
    const cli = async (...argv: string[]) => {
      const { code, output } = await runCaptured([...argv, "--db", "audit.db", "--json"], {
        env: {
          DATABASE_URL: undefined,
          GATEWAY_MASTER_KEY: undefined,
          GATEWAY_SCRYPT_COST: "1024",
        },
        cwd: dir,
      });
      expect(code, output).toBe(0);
      return JSON.parse(output || "{}");
    };
    try {
      await cli("migrate");
      const tenant = await cli("tenants", "create", "--name", "Operated");
      const partner = await cli(
        "partners",
        "create",
        "--name",
        "By CLI",
        "--tenant",
        tenant.tenant_id,
      );
      await cli("partners", "rotate-secret", partner.client_id, "--immediately");
      await cli("partners", "list");
      const gw = await startGateway({
        dir,
        config: { databaseUrl: `sqlite:${dir}/audit.db`, users: TEST_USERS_CONFIG },
      });
      try {
        const events = await gw.store.audit.listAuditEvents(tenant.tenant_id, { limit: 10 });
        expect(events.map((e) => e.action)).toEqual(["partner_secret_rotated", "partner_created"]);
        expect(events[1]).toMatchObject({
          actorKind: "operator",
          actorId: expect.stringMatching(/^cli:/),
          subjectType: "partner",
          subjectId: partner.client_id,
          sourceAddress: null,
        });
        expect(events.map((e) => e.details).join("")).not.toContain(partner.client_secret);
      } finally {
        await gw.close();
      }
    } finally {
      cleanup();
    }
  });
});

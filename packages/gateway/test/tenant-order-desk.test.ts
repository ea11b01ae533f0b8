/**
 * The tenant's orders desk over real HTTP on both stores: exact money, search,
 * partner names and filter, counts, sorting, bulk moves with per-order results, and the CSV
 * export — each tenant seeing only its own partners' orders.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  FakeClock,
  login,
  order,
  signedHeaders,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { storeKinds } from "./support/stores.js";
import {
  createTenant,
  TEST_USERS_CONFIG,
  type TestTenant,
  tenantPartner,
  userToken,
} from "./support/tenants.js";

interface Listed {
  id: string;
  status: string;
  purchase_order_no: string | null;
  partner_name: string;
  client_id: string;
  currency: string | null;
  total: string | null;
  products: { line_total: string | null }[];
}

/** A JSON answer, read loosely: the assertions say what it must hold. */
// biome-ignore lint/suspicious/noExplicitAny: test answers are checked by the assertions.
const body = (response: Response): Promise<any> => response.json();

describe.each(storeKinds)("tenant orders desk (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let clock: FakeClock;
  let a: TestTenant;
  let b: TestTenant;
  let harbour: TestPartner;
  let mills: TestPartner;
  let admin: string;
  let member: string;
  let adminB: string;
  const ids: Record<string, string> = {};

  const create = async (partner: TestPartner, po: string, extra: Record<string, unknown> = {}) => {
    clock.advanceSeconds(1);
    const token = await login(gw, partner);
    const response = await gw.app.inject({
      method: "POST",
      url: "/api/v1/sales-orders",
      headers: signedHeaders(partner, token, String(clock.seconds)),
      payload: order({ purchase_order_no: po, ...extra }),
    });
    expect(response.statusCode).toBe(201);
    ids[po] = response.json().data.id;
  };

  const call = async (token: string, path: string, init: RequestInit = {}) => {
    const response = await fetch(`${base}${path}`, {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body ? { "content-type": "application/json" } : {}),
      },
    });
    return response;
  };
  const list = async (token: string, query: string) => {
    const response = await call(token, `/v1/orders?${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as {
      data: Listed[];
      next_cursor: string | null;
      total: { count: number; exact: boolean };
    };
  };
  const pos = (orders: Listed[]) => orders.map((o) => o.purchase_order_no);

  beforeAll(async () => {
    clock = new FakeClock(Date.now());
    gw = await startGateway({ store: kind, clock, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    a = await createTenant(gw, "Alpha Foods", { member: "de" });
    b = await createTenant(gw, "Beta Tools");
    harbour = await tenantPartner(gw, a.id, "Harbour Traders");
    mills = await tenantPartner(gw, a.id, "Mills & Sons");
    const beta = await tenantPartner(gw, b.id, "Beta Supplier");
    await create(harbour, "PO-2026-1005", {
      currency: "IDR",
      products: [
        { product_code: "RICE-25", quantity: 2, unit_price: 360000.5 },
        { product_code: "OIL-1L", quantity: 3, unit_price: "0.1" },
      ],
    });
    await create(harbour, "PO-2026-1006", { customer_code: "WARUNG-7", currency: "EUR" });
    await create(mills, "M-1", { site_code: "DEPOT-NORTH" });
    await create(mills, "M-2", { products: [{ product_code: "FLOUR-X", quantity: 1 }] });
    await create(beta, "PO-2026-1007");
    admin = await userToken(gw, a.admin.email);
    member = await userToken(gw, a.member.email);
    adminB = await userToken(gw, b.admin.email);
  }, 60_000);
  afterAll(async () => {
    await gw.close();
  });

  it("totals each line and the order exactly, in the order's currency", async () => {
    const { data } = await list(member, "q=1005");
    expect(data).toHaveLength(1);
    const [idr] = data;
    expect(idr?.currency).toBe("IDR");
    expect(idr?.products.map((l) => l.line_total)).toEqual(["720001", "0.3"]);
    expect(idr?.total).toBe("720001.3");
    const detail = await body(await call(member, `/v1/orders/${ids["PO-2026-1005"]}`));
    expect(detail.data.total).toBe("720001.3");
    // A line without a unit price has no total, so neither has the order.
    const { data: unpriced } = await list(member, "q=flour-x");
    expect(unpriced[0]?.products[0]?.line_total).toBeNull();
    expect(unpriced[0]?.total).toBeNull();
  });

  it("finds orders by part of a PO number, customer, site, product code or partner, any case", async () => {
    expect(pos((await list(member, "q=1005")).data)).toEqual(["PO-2026-1005"]);
    expect(pos((await list(member, "q=po-2026")).data)).toEqual(["PO-2026-1006", "PO-2026-1005"]);
    expect(pos((await list(member, "q=warung")).data)).toEqual(["PO-2026-1006"]);
    expect(pos((await list(member, "q=depot-n")).data)).toEqual(["M-1"]);
    expect(pos((await list(member, "q=rice")).data)).toEqual(["PO-2026-1005"]);
    expect(pos((await list(member, "q=mills")).data)).toEqual(["M-2", "M-1"]);
    expect(pos((await list(member, `q=${mills.clientId.slice(0, 10)}`)).data)).toEqual([
      "M-2",
      "M-1",
    ]);
    // LIKE's own wildcards are taken literally.
    expect((await list(member, "q=%25")).data).toEqual([]);
    expect((await list(member, "q=10_5")).data).toEqual([]);
    // Another tenant's order never matches.
    expect((await list(member, "q=1007")).data).toEqual([]);
    expect(pos((await list(adminB, "q=po-2026")).data)).toEqual(["PO-2026-1007"]);
  });

  it("finds an order by its number, one per partner, with the partner beside it", async () => {
    // Numbers count per partner: each of the tenant's partners has an SO-00000002.
    const both = await list(member, "q=SO-00000002");
    expect(pos(both.data)).toEqual(["M-2", "PO-2026-1006"]);
    expect(both.data.map((o) => o.partner_name)).toEqual(["Mills & Sons", "Harbour Traders"]);
    expect(both.total).toEqual({ count: 2, exact: true });
    // Typed any way staff type it; the bare number also finds it (and any text containing it).
    expect(pos((await list(member, "q=so2")).data)).toEqual(["M-2", "PO-2026-1006"]);
    expect(pos((await list(member, "q=00000002")).data)).toEqual(["M-2", "PO-2026-1006"]);
    // With the partner filter, the one order; with a status it does not have, none.
    const one = await list(member, `q=SO-00000001&partner=${mills.clientId}`);
    expect(pos(one.data)).toEqual(["M-1"]);
    expect(one.total).toEqual({ count: 1, exact: true });
    expect((await list(member, "q=SO-00000001&status=accepted")).total.count).toBe(0);
    // A number no order has; another tenant's SO-00000001 is never listed.
    expect((await list(member, "q=SO-00000099")).data).toEqual([]);
    expect(pos((await list(adminB, "q=SO-00000001")).data)).toEqual(["PO-2026-1007"]);
  });

  it("names the partner, filters by it, counts, sorts and pages", async () => {
    const all = await list(member, "limit=2");
    expect(all.total).toEqual({ count: 4, exact: true });
    expect(all.data.map((o) => o.partner_name)).toEqual(["Mills & Sons", "Mills & Sons"]);
    expect(all.next_cursor).not.toBeNull();
    const filtered = await list(member, `partner=${harbour.clientId}`);
    expect(filtered.total.count).toBe(2);
    expect(new Set(filtered.data.map((o) => o.partner_name))).toEqual(new Set(["Harbour Traders"]));
    const oldest = await list(member, "sort=created_at&limit=3");
    expect(pos(oldest.data)).toEqual(["PO-2026-1005", "PO-2026-1006", "M-1"]);
    const rest = await list(
      member,
      `sort=created_at&limit=3&cursor=${encodeURIComponent(oldest.next_cursor ?? "")}`,
    );
    expect(pos(rest.data)).toEqual(["M-2"]);
    expect((await list(member, "q=mills&status=received")).total).toEqual({
      count: 2,
      exact: true,
    });
    const bad = await call(member, "/v1/orders?sort=total");
    expect(bad.status).toBe(400);
    expect((await body(bad)).code).toBe("validation_failed");
  });

  it("streams the CSV in the user's language, safe against formulas", async () => {
    await create(harbour, "=HYPERLINK(1)", { customer_code: "+CUST", currency: "IDR" });
    const en = await call(admin, "/v1/tenant/orders.csv?q=1005");
    expect(en.status).toBe(200);
    expect(en.headers.get("content-type")).toContain("text/csv");
    const enText = (await en.text()).replace(/^\uFEFF/, "");
    const [header, ...rows] = enText.trimEnd().split("\r\n");
    expect(header?.split(",")[0]).toBe("Order number");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(",IDR,720001.3,1,RICE-25,2,,360000.5,720001,");

    // The German member: ';' between cells, decimal comma, German header.
    const de = await call(member, "/v1/tenant/orders.csv?q=1005");
    const deText = (await de.text()).replace(/^\uFEFF/, "");
    expect(deText.split("\r\n")[0]?.split(";")[0]).toBe("Auftragsnummer");
    expect(deText).toContain(";IDR;720001,3;1;RICE-25;2;;360000,5;720001;");
    const id = await call(member, "/v1/tenant/orders.csv?q=1005&language=id");
    expect((await id.text()).split("\r\n")[0]).toContain("Nomor pesanan;");

    const injected = await (await call(admin, "/v1/tenant/orders.csv?q=hyperlink")).text();
    expect(injected).toContain("'=HYPERLINK(1)");
    expect(injected).toContain("'+CUST");
    expect(injected).not.toMatch(/[,;\n]=HYPERLINK/);

    const other = await (await call(adminB, "/v1/tenant/orders.csv")).text();
    expect(other).toContain("PO-2026-1007");
    expect(other).not.toContain("PO-2026-1005");
    const bad = await call(admin, "/v1/tenant/orders.csv?status=lost");
    expect(bad.status).toBe(400);
  });

  it("moves many orders at once, each with its own result", async () => {
    const bulk = (token: string, body: unknown) =>
      call(token, "/v1/tenant/orders/bulk", { method: "POST", body: JSON.stringify(body) });
    // One order is accepted already, one belongs to another tenant, one does not exist.
    const single = await call(member, `/v1/orders/${ids["M-1"]}/accept`, { method: "POST" });
    expect(single.status).toBe(200);
    const reject = await bulk(member, {
      action: "reject",
      reason: "Out of stock",
      ids: [ids["M-1"], ids["M-2"], ids["PO-2026-1007"], "missing"],
    });
    expect(reject.status).toBe(200);
    const outcome = await body(reject);
    expect(
      outcome.results.map((r: { status: number; outcome: string }) => [r.status, r.outcome]),
    ).toEqual([
      [409, "failed"],
      [200, "moved"],
      [404, "failed"],
      [404, "failed"],
    ]);
    expect(outcome.results[0].problem.code).toBe("order_transition_invalid");
    expect(outcome.results[1].order.status).toBe("rejected");
    expect(outcome.summary).toEqual({ requested: 4, moved: 1, unchanged: 0, failed: 3 });
    const againB = await body(await call(adminB, `/v1/orders/${ids["PO-2026-1007"]}`));
    expect(againB.data.status).toBe("received");

    // A retry reports the orders it already moved as unchanged, not as conflicts.
    const retry = await body(
      await bulk(member, { action: "reject", reason: "Out of stock", ids: [ids["M-2"]] }),
    );
    expect(retry.results[0]).toMatchObject({ status: 200, outcome: "unchanged" });

    const noReason = await bulk(member, { action: "reject", ids: [ids["M-2"]] });
    expect(noReason.status).toBe(400);
    expect((await body(noReason)).errors[0].pointer).toBe("/reason");
    const memberCancel = await bulk(member, { action: "cancel", reason: "x", ids: [ids["M-1"]] });
    expect(memberCancel.status).toBe(403);
    const both = await bulk(member, { action: "accept", ids: [ids["M-1"]], filter: {} });
    expect(both.status).toBe(400);
    const tooMany = await bulk(member, {
      action: "accept",
      ids: Array.from({ length: 201 }, (_, i) => `id-${i}`),
    });
    expect(tooMany.status).toBe(400);

    // All matching a filter: the harbour's received orders.
    const matching = await body(
      await bulk(member, { action: "accept", filter: { status: "received", q: "harbour" } }),
    );
    expect(matching.summary).toMatchObject({ requested: 3, moved: 3, failed: 0 });
    expect(matching.more_matching).toBe(false);
    expect((await list(member, "status=received")).total.count).toBe(0);
    expect((await list(adminB, "status=received")).total.count).toBe(1);
  });
});

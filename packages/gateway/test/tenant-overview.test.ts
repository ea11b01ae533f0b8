/**
 * The console's Overview (GET /v1/tenant/overview) reads daily tallies that every create and
 * status move keeps in its own transaction (order_day_totals, migration 026): after creates on
 * several days, for several partners and currencies, and accepts, rejects, fulfils and cancels,
 * the overview equals a recount of the orders the tenant lists; another tenant's orders never
 * count; and a store written before 026 gets its tallies from the migration's backfill.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqlitePathOf } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import { FakeClock, order, signedHeaders, startGateway, type TestPartner } from "./helpers.js";
import { type StoreKind, storeKinds } from "./support/stores.js";
import {
  createTenant,
  PASSWORD,
  TEST_USERS_CONFIG,
  type TestTenant,
  tenantPartner,
} from "./support/tenants.js";

const DAY = 86_400_000;
const STATUSES = ["received", "accepted", "rejected", "fulfilled", "cancelled"] as const;
// biome-ignore lint/suspicious/noExplicitAny: answers are JSON read field by field in assertions
type Json = Record<string, any>;

interface ListedOrder {
  id: string;
  status: string;
  created_at: string;
  currency: string | null;
  client_id: string;
  partner_name: string;
  total: string | null;
}

/** An exact decimal text rounded half away from zero to `decimals`, as minor units. */
function minorOf(total: string, decimals: number): bigint {
  const [whole = "0", fraction = ""] = total.split(".");
  const digits = BigInt(`${whole}${fraction.padEnd(decimals + 1, "0").slice(0, decimals + 1)}`);
  return (digits + 5n) / 10n;
}
const textOf = (minor: bigint, decimals: number): string => {
  const digits = minor.toString().padStart(decimals + 1, "0");
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
};
const DECIMALS: Record<string, number> = { IDR: 0, EUR: 2, USD: 2, "": 2 };

/** What the overview must say, counted from the tenant's own order listing. */
function recount(orders: ListedOrder[], from: string, to: string): Json {
  const inWindow = orders.filter((o) => {
    const day = o.created_at.slice(0, 10);
    return day >= from && day <= to;
  });
  const perDay = new Map<string, Json>();
  for (let t = Date.parse(from); t <= Date.parse(to); t += DAY) {
    const date = new Date(t).toISOString().slice(0, 10);
    perDay.set(date, { date, total: 0, ...Object.fromEntries(STATUSES.map((s) => [s, 0])) });
  }
  const partners = new Map<string, Json>();
  const amounts = new Map<string, { orders: number; minor: bigint }>();
  for (const o of inWindow) {
    const day = perDay.get(o.created_at.slice(0, 10)) as Json;
    day[o.status] += 1;
    day.total += 1;
    const key = o.client_id;
    const p = partners.get(key) ?? { partner: key, partner_name: o.partner_name, orders: 0 };
    p.orders += 1;
    partners.set(key, p);
    if (o.status === "rejected" || o.status === "cancelled") continue;
    const currency = o.currency ?? "";
    const sum = amounts.get(currency) ?? { orders: 0, minor: 0n };
    sum.orders += 1;
    sum.minor += o.total === null ? 0n : minorOf(o.total, DECIMALS[currency] ?? 2);
    amounts.set(currency, sum);
  }
  return {
    per_day: [...perDay.values()],
    per_partner: [...partners.values()].sort(
      (a, b) => b.orders - a.orders || (a.partner < b.partner ? -1 : 1),
    ),
    amounts: [...amounts.entries()]
      .sort(([a], [b]) => (a === "" ? 1 : b === "" ? -1 : a < b ? -1 : 1))
      .map(([currency, sum]) => ({
        currency: currency === "" ? null : currency,
        decimals: DECIMALS[currency] ?? 2,
        orders: sum.orders,
        amount: textOf(sum.minor, DECIMALS[currency] ?? 2),
      })),
  };
}

/** Runs SQL on the gateway's store from outside it, as an operator's tool (or an old release) would. */
async function onStore(gw: Gateway, kind: StoreKind, statements: string[]): Promise<void> {
  if (kind === "sqlite") {
    const db = new Database(sqlitePathOf(gw.config.databaseUrl));
    try {
      db.pragma("busy_timeout = 10000");
      for (const sql of statements) db.exec(sql);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: gw.config.databaseUrl });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.each(storeKinds)("the tenant overview over real HTTP (%s store)", (kind) => {
  const clock = new FakeClock(Date.UTC(2026, 2, 10, 23, 30));
  let gw: Gateway & { dir: string };
  let base: string;
  let alpha: TestTenant;
  let beta: TestTenant;
  let partners: TestPartner[];
  let tokens: Map<TestPartner, string>;

  const call = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
  const signIn = async (email: string) =>
    (await call("POST", "/v1/auth/login", {}, { email, password: PASSWORD })).body.token as string;
  const partnerLogin = async (partner: TestPartner) =>
    (
      await call(
        "POST",
        "/api/v1/auth/login",
        {},
        { client_id: partner.clientId, client_secret: partner.clientSecret },
      )
    ).body.token as string;
  /** Tokens expire as the fake clock moves days on: everyone signs in again. */
  const signInAll = async () => {
    tokens = new Map();
    for (const p of partners) tokens.set(p, await partnerLogin(p));
  };
  const create = async (
    partner: TestPartner,
    currency: string | null,
    price: number | null,
    quantity = 2,
  ) => {
    const line =
      price === null
        ? { product_code: "SKU-X", quantity }
        : { product_code: "SKU-X", quantity, unit_price: price };
    const created = await call(
      "POST",
      "/api/v1/sales-orders",
      signedHeaders(partner, tokens.get(partner) as string, String(clock.seconds)),
      order({ currency, products: [line] }),
    );
    expect(created.status).toBe(201);
    return created.body.data.id as string;
  };
  const move = async (email: string, id: string, action: string) => {
    const token = await signIn(email);
    const moved = await call(
      "POST",
      `/v1/orders/${id}/${action}`,
      { authorization: `Bearer ${token}` },
      { reason: "checked" },
    );
    expect(moved.status).toBe(200);
  };
  const overview = async (email: string, days = 30) => {
    const token = await signIn(email);
    const answer = await call("GET", `/v1/tenant/overview?days=${days}`, {
      authorization: `Bearer ${token}`,
    });
    expect(answer.status).toBe(200);
    return answer.body.data as Json;
  };
  const listed = async (email: string): Promise<ListedOrder[]> => {
    const token = await signIn(email);
    const orders: ListedOrder[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(
        "GET",
        `/v1/orders?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        { authorization: `Bearer ${token}` },
      );
      expect(page.status).toBe(200);
      orders.push(...(page.body.data as ListedOrder[]));
      cursor = page.body.next_cursor ?? undefined;
    } while (cursor);
    return orders;
  };
  const expectRecount = async (email: string, days = 30) => {
    const seen = await overview(email, days);
    const orders = await listed(email);
    expect(seen).toMatchObject(recount(orders, seen.from, seen.to));
    expect(seen.awaiting).toEqual({
      status: "received",
      count: orders.filter((o) => o.status === "received").length,
    });
    return seen;
  };

  beforeAll(async () => {
    gw = await startGateway({ store: kind, clock, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    alpha = await createTenant(gw, `Overview Alpha ${kind}`);
    beta = await createTenant(gw, `Overview Beta ${kind}`);
    partners = [
      await tenantPartner(gw, alpha.id, "Alpha North"),
      await tenantPartner(gw, alpha.id, "Alpha South"),
      await tenantPartner(gw, beta.id, "Beta Only"),
    ];
    const [north, south, other] = partners as [TestPartner, TestPartner, TestPartner];

    // Day 1, half an hour before UTC midnight: EUR with a fraction below the cent, IDR, none.
    await signInAll();
    const a1 = await create(north, "EUR", 12.345, 3); // 37.035 → 37.04
    const a2 = await create(north, "IDR", 15000.5, 3); // 45001.5 → 45002
    const a3 = await create(south, null, 9.99);
    const a4 = await create(south, "USD", null); // unpriced: counted, adds nothing
    await create(other, "EUR", 1000);
    await move(alpha.member.email, a1, "accept");
    await move(alpha.member.email, a2, "reject");

    // Day 2 (an hour later): moves of day 1's orders stay on day 1.
    clock.advanceSeconds(3600);
    await signInAll();
    const b1 = await create(south, "USD", 19.99, 5);
    const b2 = await create(north, "EUR", 0.5, 1);
    await create(other, "USD", 7);
    await move(alpha.member.email, a1, "fulfil");
    await move(alpha.admin.email, a3, "cancel");
    await move(alpha.member.email, b1, "accept");
    await move(alpha.admin.email, b1, "cancel");
    await move(alpha.member.email, a4, "accept");

    // Day 4 (three days on).
    clock.advanceSeconds(3 * 86_400);
    await signInAll();
    await create(north, "IDR", 2500, 4);
    await create(south, "EUR", 100.1, 1);
    const other2 = await create(other, "IDR", 99);
    // Two dozen at once: the writers take them in batches (several orders, partners and
    // currencies in one transaction, on PostgreSQL in one statement).
    const currencies = ["EUR", "IDR", "USD", null];
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        create(i % 2 ? north : south, currencies[i % 4] ?? null, 1.25 + i),
      ),
    );
    await move(beta.admin.email, other2, "cancel");
    void b2;
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("equals a recount of the tenant's orders after creates and moves across days, partners and currencies", async () => {
    const seen = await expectRecount(alpha.member.email);
    expect(seen).toMatchObject({
      time_zone: "UTC",
      days: 30,
      to: "2026-03-14",
      from: "2026-02-13",
    });
    // Spelled out once, so the recount itself is checked too.
    expect(seen.amounts).toEqual([
      { currency: "EUR", decimals: 2, orders: 9, amount: "272.64" },
      { currency: "IDR", decimals: 0, orders: 7, amount: "10150" },
      { currency: "USD", decimals: 2, orders: 7, amount: "159.00" },
      { currency: null, decimals: 2, orders: 6, amount: "171.00" },
    ]);
    expect(seen.per_day.find((d: Json) => d.date === "2026-03-10")).toMatchObject({
      total: 4,
      accepted: 1,
      fulfilled: 1,
      rejected: 1,
      cancelled: 1,
      received: 0,
    });
    expect(seen.per_partner.map((p: Json) => [p.partner_name, p.orders]).sort()).toEqual([
      ["Alpha North", 16],
      ["Alpha South", 16],
    ]);
    expect(seen.awaiting.count).toBe(27);
  });

  it("never counts another tenant's orders", async () => {
    const alphaSeen = await overview(alpha.admin.email);
    expect(alphaSeen.per_partner.map((p: Json) => p.partner_name)).not.toContain("Beta Only");
    const betaSeen = await expectRecount(beta.member.email);
    expect(betaSeen.per_partner).toEqual([
      { partner: (partners[2] as TestPartner).clientId, partner_name: "Beta Only", orders: 3 },
    ]);
    expect(betaSeen.awaiting.count).toBe(2);
  });

  it("sums only the days asked for and refuses a window it does not keep", async () => {
    const twoDays = await expectRecount(alpha.member.email, 2);
    expect(twoDays.per_day.map((d: Json) => d.date)).toEqual(["2026-03-13", "2026-03-14"]);
    expect(twoDays.per_day.reduce((n: number, d: Json) => n + d.total, 0)).toBe(26);
    const token = await signIn(alpha.member.email);
    const refused = await call("GET", "/v1/tenant/overview?days=365", {
      authorization: `Bearer ${token}`,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBeDefined();
    const anonymous = await call("GET", "/v1/tenant/overview", {});
    expect(anonymous.status).toBe(401);
  });

  it("stays equal to a recount when moves and creates of one partner and day race", async () => {
    const [north, south] = partners as [TestPartner, TestPartner];
    const fresh = await Promise.all(
      Array.from({ length: 12 }, (_, i) => create(i % 2 ? north : south, "EUR", 3 + i)),
    );
    const actions = ["accept", "reject", "cancel"];
    // One sign-in each (sign-ins per address are rate limited), then everything at once.
    const member = { authorization: `Bearer ${await signIn(alpha.member.email)}` };
    const admin = { authorization: `Bearer ${await signIn(alpha.admin.email)}` };
    const moved = await Promise.all([
      ...fresh.map((id, i) =>
        call("POST", `/v1/orders/${id}/${actions[i % 3]}`, i % 3 === 2 ? admin : member, {
          reason: "checked",
        }).then((answer) => answer.status),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        create(i % 2 ? south : north, "USD", 1 + i).then(() => 200),
      ),
    ]);
    expect(moved.every((status) => status === 200)).toBe(true);
    const seen = await expectRecount(alpha.member.email);
    expect(seen.per_partner.reduce((n: number, p: Json) => n + p.orders, 0)).toBe(32 + 12 + 6);
  });

  it("is rebuilt from the orders by migration 026 on a store written before it", async () => {
    const before = await overview(alpha.member.email);
    // The store as the release before 026 left it: no tallies, 026 not applied.
    await onStore(gw, kind, [
      "DROP TABLE order_day_totals",
      "DELETE FROM schema_migrations WHERE version = 26",
    ]);
    const url = gw.config.databaseUrl;
    await gw.close();
    gw = await startGateway({
      dir: gw.dir,
      store: kind,
      clock,
      config: { users: TEST_USERS_CONFIG, databaseUrl: url },
    });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const after = await expectRecount(alpha.member.email);
    expect(after).toEqual(before);
    await expectRecount(beta.member.email);
  });
});

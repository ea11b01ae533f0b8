/**
 * The tenant listing's `total` counts at most 1,000 orders for the whole tenant:
 * its partners share one budget of index entries, so the count costs what the cap allows, not
 * the cap times the tenant's partners, and still says exactly how many when there are fewer.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedOrdersStatement } from "../bench/seed-orders.mjs";
import { sqlitePathOf } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import { startGateway } from "./helpers.js";
import { type StoreKind, storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, tenantPartner, userToken } from "./support/tenants.js";

/** Inserts `count` orders of the partner straight into the gateway's store. */
async function seed(gw: Gateway, kind: StoreKind, clientId: string, count: number): Promise<void> {
  const partner = await gw.store.findPartnerByClientId(clientId);
  if (!partner) throw new Error("partner missing");
  const statement = seedOrdersStatement(kind, { partnerId: partner.id, count, endAt: Date.now() });
  if (kind === "sqlite") {
    const db = new Database(sqlitePathOf(gw.config.databaseUrl));
    try {
      db.pragma("busy_timeout = 10000");
      db.prepare(statement.sql).run(...statement.params);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: gw.config.databaseUrl });
  await client.connect();
  try {
    await client.query(statement.sql, statement.params);
  } finally {
    await client.end();
  }
}

describe.each(storeKinds)("the tenant listing's total (%s store)", (kind) => {
  let gw: Gateway;
  let token: string;
  let first: string;
  const total = async (query = "") => {
    const response = await gw.app.inject({
      method: "GET",
      url: `/v1/orders?limit=5${query}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    return response.json().total as { count: number; exact: boolean };
  };

  beforeAll(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG } });
    const tenant = await createTenant(gw, `Count ${kind}`);
    token = await userToken(gw, tenant.member.email);
    // 400 + 400 + 300: more than the cap together, fewer on each partner alone. One in ten
    // seeded orders is accepted.
    const sizes = [400, 400, 300];
    for (const [i, size] of sizes.entries()) {
      const partner = await tenantPartner(gw, tenant.id, `Counted ${i}`);
      if (i === 0) first = partner.clientId;
      await seed(gw, kind, partner.clientId, size);
    }
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("stops at 1,000 across partners and says the count is not exact", async () => {
    expect(await total()).toEqual({ count: 1_000, exact: false });
  });

  it("counts exactly when the tenant's matching orders are fewer than the cap", async () => {
    expect(await total("&status=accepted")).toEqual({ count: 110, exact: true });
    expect(await total(`&partner=${first}`)).toEqual({ count: 400, exact: true });
  });
});

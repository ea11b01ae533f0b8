/**
 * Order numbers are per partner: a partner's orders are SO-00000001, SO-00000002 … whatever
 * other partners send, so a number reveals nothing of anybody else's volume. Both stores, over
 * a real socket, with concurrent orders in one group commit.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  createPartner,
  order,
  rsaKeys,
  signedHeaders,
  startGateway,
  type TestPartner,
  tempDir,
} from "./helpers.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface OrderAnswer {
  token: string;
  code?: string;
  data: { id: string; order_number: string };
}

describe.each(storeKinds)("order numbers (%s store)", (kind) => {
  it("count each partner's orders alone, skip nothing on a duplicate or a replay", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const gw = await startGateway({
      dir,
      config: { databaseUrl: await freshDatabaseUrl(kind, dir) },
    });
    cleanups.push(() => gw.close());
    const base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as OrderAnswer };
    };
    const tokens = new Map<TestPartner, string>();
    const create = async (p: TestPartner, fields: Record<string, unknown> = {}, key?: string) => {
      if (!tokens.has(p)) {
        const login = await post("/api/v1/auth/login", {
          client_id: p.clientId,
          client_secret: p.clientSecret,
        });
        tokens.set(p, login.body.token);
      }
      const headers = signedHeaders(
        p,
        tokens.get(p) as string,
        String(Math.floor(Date.now() / 1000)),
      );
      return post("/api/v1/sales-orders", order(fields), {
        ...headers,
        ...(key ? { "idempotency-key": key } : {}),
      });
    };
    const numberOf = async (p: TestPartner, fields: Record<string, unknown> = {}, key?: string) => {
      const created = await create(p, fields, key);
      expect(created.status).toBe(201);
      return created.body.data.order_number;
    };

    const acme = await createPartner(gw, rsaKeys(), "Acme");
    const globex = await createPartner(gw, rsaKeys(), "Globex");
    expect(await numberOf(acme, { purchase_order_no: "PO-1" })).toBe("SO-00000001");
    expect(await numberOf(acme, {}, "key-1")).toBe("SO-00000002");
    // Another partner's first order is its own number 1, not the store's third order.
    expect(await numberOf(globex)).toBe("SO-00000001");
    // A refused duplicate and an idempotent replay take no number.
    expect((await create(acme, { purchase_order_no: "PO-1" })).body.code).toBe(
      "duplicate_purchase_order",
    );
    expect(await numberOf(acme, {}, "key-1")).toBe("SO-00000002");
    expect(await numberOf(acme)).toBe("SO-00000003");

    // Concurrent orders of both partners (batched together): each partner's numbers run on
    // without a gap or a repeat.
    const burst = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        numberOf(i % 3 === 0 ? globex : acme, { purchase_order_no: `BURST-${i}` }),
      ),
    );
    const acmeNumbers = burst.filter((_, i) => i % 3 !== 0).sort();
    const globexNumbers = burst.filter((_, i) => i % 3 === 0).sort();
    const expected = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => `SO-${String(from + i).padStart(8, "0")}`);
    expect(acmeNumbers).toEqual(expected(4, 16));
    expect(globexNumbers).toEqual(expected(2, 8));
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  FakeClock,
  json,
  login,
  order,
  rsaKeys,
  signedHeaders,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { storeKinds } from "./support/stores.js";

let clock: FakeClock;
let gw: Gateway;
let partner: TestPartner;
let token: string;

describe.each(storeKinds)("%s store", (kind) => {
  beforeAll(async () => {
    clock = new FakeClock();
    gw = await startGateway({ store: kind, clock });
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(async () => {
    partner = await createPartner(gw);
    token = await login(gw, partner);
  });

  const headers = (extra: Record<string, string> = {}, who = partner, bearer = token) => ({
    ...signedHeaders(who, bearer, String(clock.seconds)),
    ...extra,
  });
  const create = (payload: unknown, extra: Record<string, string> = {}) =>
    gw.app.inject({
      method: "POST",
      url: "/api/v1/sales-orders",
      headers: headers(extra),
      payload: payload as object,
    });
  const get = (url: string, who = partner, bearer = token) =>
    gw.app.inject({ method: "GET", url, headers: headers({}, who, bearer) });

  describe("POST /api/v1/sales-orders", () => {
    it("creates the order and answers 201 with the stored order", async () => {
      const response = await create(order({ purchase_order_no: "PO-1" }));
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body.message).toBe("Sales order created");
      expect(body.data).toMatchObject({
        order_number: expect.stringMatching(/^SO-\d{8}$/),
        status: "received",
        client_id: partner.clientId,
        purchase_order_no: "PO-1",
        customer_code: "CUST-001",
        site_code: "SITE-01",
        sales_name: "Dana Sales",
        address: "1 Harbour Road, Springfield",
        created_at: new Date(clock.ms).toISOString(),
        version: 1,
        updated_at: new Date(clock.ms).toISOString(),
        products: [
          {
            line_no: 1,
            product_code: "SKU-1",
            quantity: 3,
            uom: "EA",
            unit_price: 12.5,
            notes: null,
          },
          {
            line_no: 2,
            product_code: "SKU-2",
            quantity: 1.5,
            uom: null,
            unit_price: null,
            notes: "fragile",
          },
        ],
      });
      expect(response.headers.location).toBe(`/api/v1/sales-orders/${body.data.id}`);
      const fetched = await get(`/api/v1/sales-orders/${body.data.id}`);
      expect(fetched.headers.etag).toBe('"1"');
      // One order reads as created, with its history: the creation so far.
      expect(fetched.json().data).toEqual({
        ...body.data,
        history: [
          {
            from: null,
            to: "received",
            at: body.data.created_at,
            reason: null,
            actor: { type: "partner", name: partner.clientId },
          },
        ],
      });
    });

    it("accepts an order without purchase_order_no, and several of them", async () => {
      const { purchase_order_no: _, ...withoutPo } = order();
      expect((await create(withoutPo)).statusCode).toBe(201);
      expect((await create(withoutPo)).statusCode).toBe(201);
    });

    it("reports every invalid field with its path", async () => {
      const response = await create({
        ...order(),
        customer_code: "",
        site_code: 42,
        colour: "red",
        products: [
          { product_code: "SKU-1", quantity: 0 },
          { product_code: "SKU-2", quantity: 1, unit_price: -1, extra: 1 },
        ],
      });
      expect(response.statusCode).toBe(400);
      const body = json(response);
      expect(body.code).toBe("validation_failed");
      const pointers = (body.errors as { pointer: string }[]).map((e) => e.pointer);
      expect(pointers).toEqual(
        expect.arrayContaining([
          "/customer_code",
          "/site_code",
          "/colour",
          "/products/0/quantity",
          "/products/1/unit_price",
          "/products/1/extra",
        ]),
      );
    });

    it.each([
      ["no products", { products: [] }, "/products"],
      [
        "501 products",
        { products: Array.from({ length: 501 }, () => ({ product_code: "P", quantity: 1 })) },
        "/products",
      ],
      ["a blank sales_name", { sales_name: "   " }, "/sales_name"],
      ["an address over 1000 characters", { address: "a".repeat(1001) }, "/address"],
      [
        "a string quantity",
        { products: [{ product_code: "P", quantity: "2" }] },
        "/products/0/quantity",
      ],
      ["a missing product_code", { products: [{ quantity: 2 }] }, "/products/0/product_code"],
      ["a numeric purchase_order_no", { purchase_order_no: 12 }, "/purchase_order_no"],
    ])("refuses %s", async (_name, change, pointer) => {
      const response = await create(order(change));
      expect(response.statusCode).toBe(400);
      expect((json(response).errors as { pointer: string }[]).map((e) => e.pointer)).toContain(
        pointer,
      );
    });

    it("refuses a missing required field by name", async () => {
      const { address: _, ...body } = order();
      const response = await create(body);
      expect(json(response).errors).toContainEqual(
        expect.objectContaining({ in: "body", pointer: "/address", message: "is required" }),
      );
    });

    it("answers 413 for a body over 1 MiB and 415 for another content type", async () => {
      const big = await gw.app.inject({
        method: "POST",
        url: "/api/v1/sales-orders",
        headers: { ...headers(), "content-type": "application/json" },
        payload: JSON.stringify(order({ address: "x".repeat(1024 * 1024) })),
      });
      expect(big.statusCode).toBe(413);
      expect(json(big).code).toBe("payload_too_large");
      const text = await gw.app.inject({
        method: "POST",
        url: "/api/v1/sales-orders",
        headers: { ...headers(), "content-type": "text/plain" },
        payload: "hello",
      });
      expect(text.statusCode).toBe(415);
      expect(json(text).code).toBe("unsupported_media_type");
    });

    it("answers 400, never 500, for broken JSON and prototype tricks", async () => {
      for (const payload of [
        '{"customer_code": ',
        "[1,2",
        '{"__proto__": {"admin": true}}',
        "null",
        '"text"',
      ]) {
        const response = await gw.app.inject({
          method: "POST",
          url: "/api/v1/sales-orders",
          headers: { ...headers(), "content-type": "application/json" },
          payload,
        });
        expect(response.statusCode, payload).toBe(400);
        expect(["malformed_body", "validation_failed"]).toContain(json(response).code);
      }
    });

    it("refuses a repeated purchase_order_no with 409 naming the existing order", async () => {
      const first = (await create(order({ purchase_order_no: "PO-77" }))).json().data;
      const again = await create(order({ purchase_order_no: "PO-77", customer_code: "OTHER" }));
      expect(again.statusCode).toBe(409);
      const body = json(again);
      expect(body.code).toBe("duplicate_purchase_order");
      expect(body.existing_order).toEqual({
        id: first.id,
        order_number: first.order_number,
        created_at: first.created_at,
      });
      expect(body.detail).toContain(first.order_number);
    });

    it("lets two partners use the same purchase_order_no", async () => {
      const other = await createPartner(gw, rsaKeys(), "Other");
      const otherToken = await login(gw, other);
      expect((await create(order({ purchase_order_no: "PO-SHARED" }))).statusCode).toBe(201);
      const response = await gw.app.inject({
        method: "POST",
        url: "/api/v1/sales-orders",
        headers: headers({}, other, otherToken),
        payload: order({ purchase_order_no: "PO-SHARED" }),
      });
      expect(response.statusCode).toBe(201);
    });

    it("replays the first answer for a repeated Idempotency-Key with the same body", async () => {
      const body = order({ purchase_order_no: "PO-IDEM" });
      const first = await create(body, { "idempotency-key": "retry-1" });
      expect(first.statusCode).toBe(201);
      // Same content, keys in another order: still the same request.
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const replay = await create(reordered, { "idempotency-key": "retry-1" });
      expect(replay.statusCode).toBe(201);
      expect(replay.headers["idempotent-replayed"]).toBe("true");
      expect(replay.json()).toEqual(first.json());
      const list = (await get("/api/v1/sales-orders")).json();
      expect(list.data).toHaveLength(1);
    });

    it("refuses a reused Idempotency-Key with a different body", async () => {
      expect((await create(order(), { "idempotency-key": "retry-2" })).statusCode).toBe(201);
      const mismatch = await create(order({ address: "Elsewhere 2" }), {
        "idempotency-key": "retry-2",
      });
      expect(mismatch.statusCode).toBe(422);
      expect(json(mismatch).code).toBe("idempotency_key_mismatch");
    });

    it("refuses an Idempotency-Key with spaces or over 255 characters", async () => {
      for (const key of ["has space", "k".repeat(256)]) {
        const response = await create(order(), { "idempotency-key": key });
        expect(response.statusCode).toBe(400);
        expect(json(response).code).toBe("idempotency_key_invalid");
      }
    });

    it("makes exactly one order from 50 concurrent creates with one purchase_order_no", async () => {
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => create(order({ purchase_order_no: "PO-RACE" }))),
      );
      const statuses = responses.map((r) => r.statusCode);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(49);
      const created = responses.find((r) => r.statusCode === 201)?.json().data;
      for (const r of responses.filter((x) => x.statusCode === 409)) {
        expect(json(r).existing_order).toMatchObject({ id: created.id });
      }
      const list = (await get("/api/v1/sales-orders?limit=100")).json();
      expect(
        list.data.filter((o: { purchase_order_no: string }) => o.purchase_order_no === "PO-RACE"),
      ).toHaveLength(1);
    });
  });

  describe("GET /api/v1/sales-orders", () => {
    it("pages newest first with a cursor, and shows a partner only its own orders", async () => {
      const other = await createPartner(gw, rsaKeys(), "Other");
      const otherToken = await login(gw, other);
      const mine: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock.advanceSeconds(1);
        mine.push((await create(order({ purchase_order_no: `PO-P${i}` }))).json().data.id);
        await gw.app.inject({
          method: "POST",
          url: "/api/v1/sales-orders",
          headers: headers({}, other, otherToken),
          payload: order({ purchase_order_no: `PO-O${i}` }),
        });
      }
      const page1 = (await get("/api/v1/sales-orders?limit=2")).json();
      expect(page1.data.map((o: { id: string }) => o.id)).toEqual([mine[4], mine[3]]);
      const page2 = (await get(`/api/v1/sales-orders?limit=2&cursor=${page1.next_cursor}`)).json();
      expect(page2.data.map((o: { id: string }) => o.id)).toEqual([mine[2], mine[1]]);
      const page3 = (await get(`/api/v1/sales-orders?limit=2&cursor=${page2.next_cursor}`)).json();
      expect(page3.data.map((o: { id: string }) => o.id)).toEqual([mine[0]]);
      expect(page3.next_cursor).toBeNull();

      const theirs = (await get("/api/v1/sales-orders?limit=100", other, otherToken)).json();
      expect(theirs.data).toHaveLength(5);
      expect(theirs.data.every((o: { client_id: string }) => o.client_id === other.clientId)).toBe(
        true,
      );
    });

    it("answers 404 for another partner's order, exactly as for a missing one", async () => {
      const other = await createPartner(gw, rsaKeys(), "Other");
      const otherToken = await login(gw, other);
      const id = (await create(order())).json().data.id;
      const foreign = await get(`/api/v1/sales-orders/${id}`, other, otherToken);
      const missing = await get(
        "/api/v1/sales-orders/00000000-0000-0000-0000-000000000000",
        other,
        otherToken,
      );
      expect(foreign.statusCode).toBe(404);
      expect(missing.statusCode).toBe(404);
      expect(json(foreign).code).toBe("order_not_found");
      expect(json(missing).code).toBe("order_not_found");
    });

    it("refuses a forged cursor and an out-of-range limit", async () => {
      expect(json(await get("/api/v1/sales-orders?cursor=bm9wZQ")).code).toBe("cursor_invalid");
      const limit = await get("/api/v1/sales-orders?limit=1000");
      expect(limit.statusCode).toBe(400);
      expect(json(limit).errors).toContainEqual(
        expect.objectContaining({ in: "querystring", pointer: "/limit" }),
      );
    });

    it("requires the signed headers for reads too", async () => {
      const response = await gw.app.inject({
        method: "GET",
        url: "/api/v1/sales-orders",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(json(response).code).toBe("header_missing");
    });
  });
});

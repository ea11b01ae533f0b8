import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { login, order, signedHeaders, startGateway, type TestPartner } from "./helpers.js";
import { httpMessage, rawRequest } from "./support/raw-http.js";
import { storeKinds } from "./support/stores.js";
import {
  createTenant,
  PASSWORD,
  TEST_USERS_CONFIG,
  tenantPartner,
  userToken,
} from "./support/tenants.js";

interface Reply {
  status: number;
  type: string | null;
  body: Record<string, unknown> & {
    code?: string;
    data?: Record<string, unknown> & { id: string };
    errors?: { in: string; pointer: string; message: string }[];
  };
}

describe.each(storeKinds)("the text rule at the boundary (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let partner: TestPartner;
  let token: string;
  let tenantUser: string;

  beforeAll(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const tenant = await createTenant(gw, "Text Rule");
    partner = await tenantPartner(gw, tenant.id);
    token = await login(gw, partner);
    tenantUser = await userToken(gw, tenant.admin.email);
  });
  afterAll(async () => {
    await gw.close();
  });

  const signed = () => signedHeaders(partner, token, String(Math.floor(Date.now() / 1000)));

  async function call(
    method: string,
    path: string,
    body?: string | Buffer,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      body: text === "" ? {} : JSON.parse(text),
    };
  }
  const createOrder = (payload: unknown, headers: Record<string, string> = {}) =>
    call("POST", "/api/v1/sales-orders", JSON.stringify(payload), { ...signed(), ...headers });
  const orderCount = async () => {
    const page = await call("GET", "/api/v1/sales-orders?limit=100", undefined, signed());
    return (page.body.data as unknown as unknown[]).length;
  };

  function expectRefused(reply: Reply, where: string, pointer: string): void {
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.type).toMatch(/^application\/problem\+json/);
    expect(reply.body.code).toBe("text_invalid");
    expect(reply.body.errors?.[0]).toMatchObject({ in: where, pointer });
  }

  it("refuses NUL in every order field, names the field and stores nothing", async () => {
    const before = await orderCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ customer_code: "CU\u0000ST" }, "/customer_code"],
      [{ site_code: "\u0000" }, "/site_code"],
      [{ sales_name: "Dana\u0000" }, "/sales_name"],
      [{ address: "1 Road\u0000" }, "/address"],
      [{ purchase_order_no: "PO\u00001" }, "/purchase_order_no"],
      [{ products: [{ product_code: "SKU\u0000", quantity: 1 }] }, "/products/0/product_code"],
      [{ products: [{ product_code: "S", quantity: 1, uom: "E\u0000A" }] }, "/products/0/uom"],
      [{ products: [{ product_code: "S", quantity: 1, notes: "a\u0000b" }] }, "/products/0/notes"],
    ];
    for (const [fields, pointer] of cases)
      expectRefused(await createOrder(order(fields)), "body", pointer);
    expect(await orderCount()).toBe(before);
  });

  it("refuses other control characters, lone surrogates and bad property names", async () => {
    expectRefused(await createOrder(order({ sales_name: "Dana\u0085" })), "body", "/sales_name");
    expectRefused(await createOrder(order({ sales_name: "Dana\u007f" })), "body", "/sales_name");
    expectRefused(
      await createOrder(order({ customer_code: "A\ud800B" })),
      "body",
      "/customer_code",
    );
    expectRefused(await createOrder(order({ customer_code: "A\udc00" })), "body", "/customer_code");
    const badKey = await createOrder({ ...order(), "co\u0000lour": "red" });
    expectRefused(badKey, "body", "/co\u0000lour");
    expect(badKey.body.errors?.[0]?.message).toMatch(/property name/);
    // A pair of surrogates is one character, which is fine.
    const emoji = await createOrder(order({ sales_name: "Dana \ud83d\ude00" }));
    expect(emoji.status).toBe(201);
    expect(emoji.body.data?.sales_name).toBe("Dana \ud83d\ude00");
  });

  it("takes line breaks and tabs only in the multi-line fields, and returns them as sent", async () => {
    const address = "Harbour Road 1\r\nBuilding B\n\tSpringfield";
    const created = await createOrder(
      order({
        address,
        products: [{ product_code: "S", quantity: 1, notes: "top\nbottom\tside" }],
      }),
    );
    expect(created.status).toBe(201);
    const read = await call(
      "GET",
      `/api/v1/sales-orders/${created.body.data?.id}`,
      undefined,
      signed(),
    );
    expect(read.body.data).toMatchObject({ address, products: [{ notes: "top\nbottom\tside" }] });
    expectRefused(await createOrder(order({ customer_code: "A\nB" })), "body", "/customer_code");
    expectRefused(await createOrder(order({ sales_name: "Dana\tSales" })), "body", "/sales_name");
  });

  it("answers 415 for a body declared in another charset and 400 for bytes that are not UTF-8", async () => {
    const before = await orderCount();
    const latin1 = Buffer.from(JSON.stringify(order({ sales_name: "Jürgen" })), "latin1");
    const declared = await call("POST", "/api/v1/sales-orders", latin1, {
      ...signed(),
      "content-type": "application/json; charset=iso-8859-1",
    });
    expect(declared.status).toBe(415);
    expect(declared.type).toMatch(/^application\/problem\+json/);
    expect(declared.body.code).toBe("unsupported_media_type");
    expect(String(declared.body.detail)).toMatch(/iso-8859-1/);

    const undeclared = await call("POST", "/api/v1/sales-orders", latin1, signed());
    expect(undeclared.status).toBe(400);
    expect(undeclared.body.code).toBe("encoding_invalid");
    expect(undeclared.body.errors).toEqual([
      { in: "body", pointer: "/sales_name", message: "holds bytes that are not UTF-8" },
    ]);
    expect(await orderCount()).toBe(before);

    const utf8 = await call(
      "POST",
      "/api/v1/sales-orders",
      JSON.stringify(order({ sales_name: "Jürgen" })),
      {
        ...signed(),
        "content-type": 'application/json; charset="UTF-8"',
      },
    );
    expect(utf8.status).toBe(201);
    expect(utf8.body.data?.sales_name).toBe("Jürgen");
  });

  it("refuses bad text in the logins' client_id and email with 400, not 500", async () => {
    const partnerLogin = await call(
      "POST",
      "/api/v1/auth/login",
      JSON.stringify({
        client_id: `${partner.clientId}\u0000`,
        client_secret: partner.clientSecret,
      }),
    );
    expectRefused(partnerLogin, "body", "/client_id");
    const userLogin = await call(
      "POST",
      "/v1/auth/login",
      JSON.stringify({ email: "admin@text-rule.example\u0000", password: PASSWORD }),
    );
    expectRefused(userLogin, "body", "/email");
    const surrogate = await call(
      "POST",
      "/v1/auth/login",
      JSON.stringify({ email: "a\ud800@text-rule.example", password: PASSWORD }),
    );
    expectRefused(surrogate, "body", "/email");
  });

  it("refuses bad text in path ids, query parameters and the headers the API reads", async () => {
    expectRefused(
      await call("GET", "/api/v1/sales-orders/%00", undefined, signed()),
      "params",
      "/id",
    );
    expectRefused(
      await call("GET", "/v1/orders/%00", undefined, { authorization: `Bearer ${tenantUser}` }),
      "params",
      "/id",
    );
    expectRefused(
      await call("GET", "/v1/orders/a%C2%85b", undefined, {
        authorization: `Bearer ${tenantUser}`,
      }),
      "params",
      "/id",
    );
    expectRefused(
      await call("GET", "/api/v1/sales-orders?cursor=%00", undefined, signed()),
      "querystring",
      "/cursor",
    );
    // UTF-8 bytes in a header arrive as Latin-1 characters; fetch would not send them.
    const { "x-client-id": _, ...rest } = signed();
    const header = await rawRequest(
      base,
      httpMessage("GET", "/api/v1/sales-orders", {
        ...rest,
        "X-Client-Id": Buffer.from(`${partner.clientId}ü`, "utf8").toString("latin1"),
      }),
    );
    expect(header.status).toBe(400);
    expect(header.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(header.json().code).toBe("text_invalid");
    expect(header.json().errors?.[0]).toMatchObject({ in: "headers", pointer: "x-client-id" });
  });

  it("lets vocabulary overrides run over several lines, but not their keys", async () => {
    const put = (overrides: unknown) =>
      call("PUT", "/v1/tenant/i18n-config/booking", JSON.stringify({ language: "de", overrides }), {
        authorization: `Bearer ${tenantUser}`,
      });
    const ok = await put({ footer: { note: "Zeile eins\nZeile zwei" } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expectRefused(await put({ footer: { note: "a\u0000b" } }), "body", "/overrides/footer/note");
    expectRefused(await put({ "foo\nter": { note: "x" } }), "body", "/overrides/foo\nter");
  });

  it("keeps a poisoned order out of the group-commit batch: the store refuses it alone", async () => {
    const record = await gw.store.findPartnerByClientId(partner.clientId);
    if (!record) throw new Error("partner missing");
    const newOrder = (i: number, customerCode = `C-${i}`) => ({
      id: `00000000-0000-7000-8000-${String(i).padStart(12, "0")}`,
      partnerId: record.id,
      purchaseOrderNo: `BATCH-${i}`,
      customerCode,
      siteCode: "S",
      salesName: "N",
      address: "A",
      products: [{ product_code: "P", quantity: 1 }],
      status: "received",
      createdAt: Date.now(),
    });
    // Submitted in one turn of the event loop, so the good ones share a batch.
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 10 }, (_, i) => gw.store.createOrder(newOrder(i))),
      gw.store.createOrder(newOrder(10, "C\u0000")),
      gw.store.createOrder(newOrder(11, "C\ud800")),
    ]);
    expect(outcomes.slice(0, 10).map((o) => o.status)).toEqual(Array(10).fill("fulfilled"));
    for (const poisoned of outcomes.slice(10)) {
      expect(poisoned.status).toBe("rejected");
      expect(String((poisoned as PromiseRejectedResult).reason)).toMatch(/customer_code/);
    }
    expect(await gw.store.findOrder(record.id, newOrder(10).id)).toBeUndefined();
  });
});

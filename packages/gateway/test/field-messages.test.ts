/**
 * A refused body gets one message per field, written for a person: what the field accepts (its
 * allowed values, lengths, bounds), over real HTTP, with every field listed in the detail.
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaWords } from "../src/http/schema-words.js";
import {
  createPartner,
  login,
  order,
  signedHeaders,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { httpRequest } from "./support/http.js";

type Gw = Awaited<ReturnType<typeof startGateway>>;
let gw: Gw;
let base: string;
let partner: TestPartner;
let token: string;

beforeAll(async () => {
  gw = await startGateway();
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
  partner = await createPartner(gw);
  token = await login(gw, partner);
});
afterAll(() => gw.close());

const create = (body: unknown) =>
  httpRequest(base, "POST", "/api/v1/sales-orders", {
    body,
    headers: signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
  });

interface FieldError {
  in: string;
  pointer: string;
  message: string;
}
// The messages are what these tests are about; the rule (keyword, limit) is tested in
// input-limits.test.ts.
const errorsOf = (body: Record<string, unknown>) =>
  (body.errors as FieldError[]).map((e) => ({ in: e.in, pointer: e.pointer, message: e.message }));

describe("field errors of a refused order", () => {
  it("a currency the gateway does not take: one message saying what it takes", async () => {
    const answer = await create(order({ currency: "XAU" }));
    expect(answer.status).toBe(400);
    expect(errorsOf(answer.body)).toEqual([
      {
        in: "body",
        pointer: "/currency",
        message:
          "must be an ISO 4217 code the gateway supports in capitals, e.g. IDR, USD or EUR (all are listed under currency in /docs), or null",
      },
    ]);
  });

  it("an empty customer_code: one error on its pointer, with the length it takes", async () => {
    const answer = await create(order({ customer_code: "" }));
    expect(errorsOf(answer.body)).toEqual([
      {
        in: "body",
        pointer: "/customer_code",
        message: "must be text of 1 to 64 characters, not only spaces",
      },
    ]);
  });

  it("every wrong field is listed, in the errors and in the detail", async () => {
    const answer = await create({
      ...order({ customer_code: "", site_code: "x".repeat(65), currency: "usd" }),
      purchase_order_no: "",
      products: [{ product_code: "SKU-1", quantity: 0, unit_price: "1e3" }],
      colour: "red",
    });
    expect(answer.body.code).toBe("validation_failed");
    const errors = errorsOf(answer.body);
    expect(errors.map((e) => e.pointer)).toEqual([
      "/colour",
      "/customer_code",
      "/site_code",
      "/purchase_order_no",
      "/products/0/quantity",
      "/products/0/unit_price",
      "/currency",
    ]);
    expect(new Set(errors.map((e) => e.pointer)).size).toBe(errors.length);
    expect(errors[0]?.message).toMatch(/^is not a known property \(known: customer_code, /);
    expect(errors.find((e) => e.pointer === "/purchase_order_no")?.message).toBe(
      "must be text of 1 to 64 characters, not only spaces, or null",
    );
    expect(errors.find((e) => e.pointer === "/products/0/quantity")?.message).toBe(
      "must be a number greater than 0 and at most 1000000000",
    );
    expect(errors.find((e) => e.pointer === "/products/0/unit_price")?.message).toMatch(
      /^must be a decimal such as 19.99/,
    );
    const detail = answer.body.detail as string;
    for (const e of errors) expect(detail).toContain(`body ${e.pointer} ${e.message}.`);
    expect(detail).not.toMatch(/and \d+ more/);
  });

  it("a wrong type names the type and its limits", async () => {
    const answer = await create(order({ products: "SKU-1" }));
    expect(errorsOf(answer.body)).toEqual([
      {
        in: "body",
        pointer: "/products",
        message: expect.stringMatching(/^must be a list of 1 to 500 items, each an object/),
      },
    ]);
    const missing = await create(order({ products: [{ quantity: 1, uom: true }] }));
    expect(errorsOf(missing.body)).toEqual([
      { in: "body", pointer: "/products/0/product_code", message: "is required" },
      {
        in: "body",
        pointer: "/products/0/uom",
        message: "must be text of 1 to 16 characters, not only spaces",
      },
    ]);
  });

  it("a query parameter out of range says the range", async () => {
    const answer = await httpRequest(base, "GET", "/api/v1/sales-orders?limit=500&status=open", {
      headers: signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
    });
    expect(errorsOf(answer.body)).toEqual([
      { in: "querystring", pointer: "/limit", message: "must be a whole number from 1 to 100" },
      {
        in: "querystring",
        pointer: "/status",
        message: "must be one of 'received', 'accepted', 'rejected', 'fulfilled' or 'cancelled'",
      },
    ]);
  });
});

describe("schemaWords", () => {
  it("says a long list by its size, a short one in full", () => {
    expect(schemaWords({ enum: ["a", "b"] })).toBe("one of 'a' or 'b'");
    const long = Array.from({ length: 20 }, (_, i) => `v${i}`);
    expect(schemaWords({ type: "string", enum: long })).toBe(
      "one of 20 allowed values, e.g. 'v0', 'v1', 'v2'",
    );
    expect(schemaWords({ type: "object", minProperties: 1, properties: { a: {}, b: {} } })).toBe(
      "an object with at least one of a or b",
    );
    expect(schemaWords({ type: "boolean" })).toBe("true or false");
  });
});

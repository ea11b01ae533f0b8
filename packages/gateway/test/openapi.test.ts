import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { ERROR_CATALOGUE } from "../src/problems/catalogue.js";
import { startGateway } from "./helpers.js";

let gw: Gateway;
let spec: {
  paths: Record<
    string,
    Record<string, { security?: unknown; tags?: string[]; responses: Record<string, unknown> }>
  >;
  components: { securitySchemes: Record<string, unknown> };
};

beforeAll(async () => {
  gw = await startGateway();
  spec = (await gw.app.inject({ method: "GET", url: "/openapi.json" })).json();
});
afterAll(async () => {
  await gw.close();
});

describe("OpenAPI document", () => {
  it("declares the seed's four security schemes, the tenant API's user token and the webhooks' signature", () => {
    expect(Object.keys(spec.components.securitySchemes).sort()).toEqual([
      "JWT-auth",
      "Orderline-Signature",
      "User-JWT",
      "X-CLIENT-ID",
      "X-SIGNATURE",
      "X-TIMESTAMP",
    ]);
    expect(spec.components.securitySchemes["JWT-auth"]).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
  });

  it("documents the tenant orders desk: search, totals, bulk moves and the CSV export", () => {
    const user = [{ "User-JWT": [] }];
    const text = JSON.stringify(spec.paths["/v1/orders"]?.get);
    for (const name of ['"q"', '"partner"', '"sort"', '"partner_name"', '"line_total"', '"total"'])
      expect(text).toContain(name);
    expect(spec.paths["/v1/tenant/orders/bulk"]?.post?.security).toEqual(user);
    expect(Object.keys(spec.paths["/v1/tenant/orders/bulk"]?.post?.responses ?? {})).toContain(
      "200",
    );
    expect(spec.paths["/v1/tenant/orders.csv"]?.get?.security).toEqual(user);
    expect(JSON.stringify(spec.paths["/v1/tenant/orders.csv"]?.get?.responses)).toContain(
      "text/csv",
    );
  });

  it("lists all four on every order operation and none on login and refresh", () => {
    const all = [{ "X-CLIENT-ID": [], "X-TIMESTAMP": [], "X-SIGNATURE": [], "JWT-auth": [] }];
    expect(spec.paths["/api/v1/sales-orders"]?.post?.security).toEqual(all);
    expect(spec.paths["/api/v1/sales-orders"]?.post?.tags).toEqual(["Sales Orders"]);
    expect(spec.paths["/api/v1/sales-orders"]?.get?.security).toEqual(all);
    expect(spec.paths["/api/v1/sales-orders/{id}"]?.get?.security).toEqual(all);
    expect(spec.paths["/api/v1/auth/login"]?.post?.security).toEqual([]);
    expect(spec.paths["/api/v1/auth/refresh"]?.post?.security).toEqual([]);
  });

  it("documents problem+json error responses", () => {
    const responses = spec.paths["/api/v1/sales-orders"]?.post?.responses ?? {};
    expect(Object.keys(responses)).toEqual(
      expect.arrayContaining(["201", "401", "409", "413", "415", "422"]),
    );
    expect(JSON.stringify(responses["409"])).toContain("application/problem+json");
  });
});

describe("tenant API in the document", () => {
  it("has every /v1 route, with the user token on all but login and refresh", () => {
    const operations: [string, string][] = [
      ["/v1/auth/login", "post"],
      ["/v1/auth/refresh", "post"],
      ["/v1/user/profile", "get"],
      ["/v1/user/profile", "patch"],
      ["/v1/tenant/i18n-config", "get"],
      ["/v1/tenant/i18n-config/{namespace}", "get"],
      ["/v1/tenant/i18n-config/{namespace}", "put"],
      ["/v1/orders", "get"],
      ["/v1/orders/{id}", "get"],
    ];
    const paths = spec.paths as Record<string, Record<string, { security?: unknown }>>;
    for (const [path, method] of operations) {
      const operation = paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation?.security).toEqual(path.startsWith("/v1/auth/") ? [] : [{ "User-JWT": [] }]);
    }
  });
});

describe("error catalogue", () => {
  it("is documented code by code in docs/gateway/errors.md", () => {
    const doc = readFileSync(new URL("../../../docs/gateway/errors.md", import.meta.url), "utf8");
    for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) {
      expect(doc, code).toMatch(new RegExp(`\\|\\s*\`${code}\`\\s*\\|\\s*${status}\\s*\\|`));
    }
  });
});

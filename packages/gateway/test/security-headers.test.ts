import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { createPartner, startGateway, tempDir } from "./helpers.js";
import { httpMessage, rawRequest } from "./support/raw-http.js";

/** Every answer, page or API, success or refusal, carries both headers: checked over HTTP. */
describe("Referrer-Policy and X-Content-Type-Options on every response", () => {
  let gw: Gateway;
  let base: string;
  const { dir, cleanup } = tempDir();

  beforeAll(async () => {
    const consoleDir = join(dir, "console");
    mkdirSync(join(consoleDir, "assets"), { recursive: true });
    writeFileSync(join(consoleDir, "index.html"), "<!doctype html><title>Console</title>");
    writeFileSync(join(consoleDir, "assets", "index-abc.js"), "console.log(1)");
    gw = await startGateway({ dir, config: { consoleDir } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await gw?.close();
    cleanup();
  });

  const expectBoth = (headers: Headers, what: string) => {
    expect(headers.get("referrer-policy"), what).toBe("no-referrer");
    expect(headers.get("x-content-type-options"), what).toBe("nosniff");
  };

  it("on pages, scripts, documents, the console, API answers, errors and 404s", async () => {
    const partner = await createPartner(gw);
    const cases: [string, RequestInit, number][] = [
      ["/docs", {}, 200],
      ["/docs/tenant", {}, 200],
      ["/docs/signer", {}, 200],
      ["/docs/assets/redoc.standalone.js", {}, 200],
      ["/docs/assets/signer.js", {}, 200],
      ["/openapi.json", {}, 200],
      ["/openapi/partner.json", {}, 200],
      ["/.well-known/jwks.json", {}, 200],
      ["/health", {}, 200],
      ["/console/", {}, 200],
      ["/console/assets/index-abc.js", {}, 200],
      ["/console/missing.js", {}, 404],
      ["/no/such/route", {}, 404],
      ["/api/v1/sales-orders", {}, 401],
      ["/api/v1/sales-orders", { method: "DELETE" }, 405],
      [
        "/api/v1/auth/login",
        { method: "POST", body: "x", headers: { "content-type": "text/plain" } },
        415,
      ],
      [
        "/api/v1/auth/login",
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            client_id: partner.clientId,
            client_secret: partner.clientSecret,
          }),
        },
        200,
      ],
      ["/api/v1/sales-orders/%ff", {}, 400],
    ];
    for (const [path, init, status] of cases) {
      const response = await fetch(`${base}${path}`, { redirect: "manual", ...init });
      expect(response.status, path).toBe(status);
      expectBoth(response.headers, `${init.method ?? "GET"} ${path}`);
      await response.arrayBuffer();
    }
  });

  it("on answers written before routing (a malformed request)", async () => {
    const answer = await rawRequest(
      base,
      httpMessage("GET", "/health", { "X-Folded": "a\r\n\tb" }),
    );
    expect(answer.status).toBe(400);
    expect(answer.headers["referrer-policy"]).toBe("no-referrer");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  });
});

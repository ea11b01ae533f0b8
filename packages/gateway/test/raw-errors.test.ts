import { writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { ERROR_CATALOGUE } from "../src/problems/catalogue.js";
import { startGateway, tempDir } from "./helpers.js";
import { httpMessage, type RawResponse, rawRequest } from "./support/raw-http.js";
import { storeKinds } from "./support/stores.js";

describe.each(storeKinds)("errors before routing are problem+json too (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;

  beforeAll(async () => {
    gw = await startGateway({ store: kind });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await gw.close();
  });

  function expectProblem(response: RawResponse, status: number, code: string): void {
    expect(response.status, response.body).toBe(status);
    expect(response.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const problem = response.json();
    expect(problem).toMatchObject({
      type: `urn:orderline:problem:${code}`,
      status,
      code,
      title: ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].title,
    });
    expect(problem.detail).toEqual(expect.any(String));
    expect(problem.request_id).toEqual(expect.any(String));
    expect(JSON.stringify(problem)).not.toMatch(/FST_ERR|Client Error/);
  }

  it("answers a header folded over two lines with 400 malformed_request", async () => {
    const response = await rawRequest(
      base,
      "GET /health HTTP/1.1\r\nHost: localhost\r\nX-Folded: first\r\n second\r\nConnection: close\r\n\r\n",
    );
    expectProblem(response, 400, "malformed_request");
    // The gateway keeps serving.
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });

  it("answers a bad request that follows a good one on a keep-alive connection", async () => {
    const socket = connect({ host: "127.0.0.1", port: Number(new URL(base).port) });
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    const closed = new Promise((resolve) => socket.on("close", resolve));
    socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n");
    // The first answer is complete before the bad request arrives.
    await new Promise<void>((resolve) => {
      const check = () =>
        Buffer.concat(received).includes('"status"') ? resolve() : setTimeout(check, 10);
      check();
    });
    socket.write("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Folded: a\r\n b\r\n\r\n");
    await closed;
    const text = Buffer.concat(received).toString("utf8");
    expect(text.match(/HTTP\/1\.1 \d{3}/g)).toEqual(["HTTP/1.1 200", "HTTP/1.1 400"]);
    expect(text).toContain('"code":"malformed_request"');
  });

  it("answers a broken request line and oversized headers", async () => {
    expectProblem(await rawRequest(base, "GARBAGE\r\n\r\n"), 400, "malformed_request");
    const huge = await rawRequest(
      base,
      httpMessage("GET", "/health", { "X-Big": "a".repeat(17_000) }),
    );
    expectProblem(huge, 431, "headers_too_large");
  });

  it("answers a 5,000-character id with 414 and bad percent-encoding with 400", async () => {
    const long = `/api/v1/sales-orders/${"a".repeat(5000)}`;
    expectProblem(await rawRequest(base, httpMessage("GET", long)), 414, "uri_too_long");
    expectProblem(
      await rawRequest(base, httpMessage("GET", "/api/v1/sales-orders/%ff%fe")),
      400,
      "url_invalid",
    );
    expectProblem(
      await rawRequest(base, httpMessage("GET", "/v1/orders/%ed%a0%80")),
      400,
      "url_invalid",
    );
  });

  it("answers an unknown content type with 415 and a body too large with 413", async () => {
    const xml = await rawRequest(
      base,
      httpMessage("POST", "/api/v1/auth/login", { "Content-Type": "application/xml" }, "<login/>"),
    );
    expectProblem(xml, 415, "unsupported_media_type");
    // Refused on the declared length, before the body is read.
    const big = await rawRequest(
      base,
      "POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" +
        "Content-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{",
    );
    expectProblem(big, 413, "payload_too_large");
  });

  it("answers 405 with Allow for a method a path does not take, 404 for unknown paths", async () => {
    const deleteOrder = await rawRequest(
      base,
      httpMessage("DELETE", "/api/v1/sales-orders/0190f0a0-0000-7000-8000-000000000000"),
    );
    expectProblem(deleteOrder, 405, "method_not_allowed");
    expect(deleteOrder.headers.allow).toBe("GET, HEAD");

    const putCollection = await rawRequest(base, httpMessage("PUT", "/api/v1/sales-orders/"));
    expectProblem(putCollection, 405, "method_not_allowed");
    expect(putCollection.headers.allow).toBe("GET, HEAD, POST");

    const getLogin = await rawRequest(base, httpMessage("GET", "/api/v1/auth/login"));
    expectProblem(getLogin, 405, "method_not_allowed");
    expect(getLogin.headers.allow).toBe("POST");

    const deleteVocabulary = await rawRequest(
      base,
      httpMessage("DELETE", "/v1/tenant/i18n-config/booking"),
    );
    expect(deleteVocabulary.headers.allow).toBe("GET, HEAD, PUT");

    const unknown = await rawRequest(base, httpMessage("DELETE", "/api/v1/nothing-here"));
    expectProblem(unknown, 404, "not_found");
    expect(unknown.headers.allow).toBeUndefined();
    expectProblem(
      await rawRequest(base, httpMessage("GET", "/api/v1/sales-orders/a/b")),
      404,
      "not_found",
    );
  });
});

describe("405 next to catch-all and static routes", () => {
  let gw: Gateway;
  let base: string;
  const { dir, cleanup } = tempDir();

  beforeAll(async () => {
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>Console</title>");
    gw = await startGateway({
      config: { corsOrigins: ["https://console.acme.example"], consoleDir: dir },
    });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await gw.close();
    cleanup();
  });

  it("keeps 404 for unknown paths when CORS answers OPTIONS everywhere", async () => {
    const unknown = await rawRequest(base, httpMessage("GET", "/api/v1/nothing-here"));
    expect(unknown.status).toBe(404);
    expect(unknown.json().code).toBe("not_found");
    const deleteLogin = await rawRequest(base, httpMessage("DELETE", "/api/v1/auth/login"));
    expect(deleteLogin.status).toBe(405);
    expect(deleteLogin.headers.allow).toBe("OPTIONS, POST");
  });

  it("answers a missing file under a static route 404, not 405", async () => {
    const missing = await rawRequest(base, httpMessage("GET", "/console/nothing.js"));
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const post = await rawRequest(base, httpMessage("POST", "/console/index.html"));
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD, OPTIONS");
  });
});

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInBrowser, launch } from "./support/browser.js";
import { PASSWORD, startTestGateway, type TestGateway } from "./support/gateway.js";

/** A page on another origin (another port): a front end served apart from the gateway. */
const pageServer = async (): Promise<{ server: Server; origin: string }> => {
  const server = createServer((_request, response) => {
    response
      .writeHead(200, { "content-type": "text/html" })
      .end("<!doctype html><title>app</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

/** Signs in and reads the profile from a page of the given origin, as its own code would. */
const callFrom = (browser: Browser, origin: string, base: string, email: string) =>
  (async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(origin);
    const outcome = await page.evaluate(
      async ({ base, email, password }) => {
        try {
          const login = await fetch(`${base}/v1/auth/login`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email, password }),
          });
          const { token } = (await login.json()) as { token: string };
          // Authorization makes this a preflighted request.
          const profile = await fetch(`${base}/v1/user/profile`, {
            headers: { authorization: `Bearer ${token}` },
          });
          return { ok: true, status: profile.status, requestId: login.headers.get("x-request-id") };
        } catch (error) {
          return { ok: false, error: String(error) };
        }
      },
      { base, email, password: PASSWORD },
    );
    await page.context().close();
    return outcome;
  })();

describeInBrowser("CORS in a browser", () => {
  let gateway: TestGateway;
  let closed: TestGateway;
  let browser: Browser;
  let allowed: { server: Server; origin: string };
  let refused: { server: Server; origin: string };

  beforeAll(async () => {
    allowed = await pageServer();
    refused = await pageServer();
    gateway = await startTestGateway({ corsOrigins: [allowed.origin] });
    closed = await startTestGateway();
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await closed?.close();
    allowed?.server.close();
    refused?.server.close();
  });

  it("lets a listed origin call /v1, preflight included, and read the exposed headers", async () => {
    const outcome = await callFrom(browser, allowed.origin, gateway.base, gateway.admin);
    expect(outcome).toMatchObject({ ok: true, status: 200 });
    expect(outcome.requestId).toMatch(/\S/);
  });

  it("blocks an origin that is not listed", async () => {
    const outcome = await callFrom(browser, refused.origin, gateway.base, gateway.admin);
    expect(outcome).toMatchObject({ ok: false });
    expect(outcome.error).toMatch(/Failed to fetch/);
  });

  it("blocks every other origin when no origin is configured (the default)", async () => {
    const outcome = await callFrom(browser, allowed.origin, closed.base, closed.admin);
    expect(outcome).toMatchObject({ ok: false });
  });
});

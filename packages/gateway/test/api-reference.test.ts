import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumOrSkip, launchChromium } from "../../../scripts/test-chromium.mjs";
import type { Gateway } from "../src/gateway.js";
import { createPartner, startGateway } from "./helpers.js";

const CHROMIUM = chromiumOrSkip("the API reference pages in a real browser");

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are open-ended JSON.
type Json = any;

let gw: Gateway & { dir: string };
let base: string;

beforeAll(async () => {
  gw = await startGateway();
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await gw.close();
});

const getJson = async (path: string): Promise<Json> => (await fetch(`${base}${path}`)).json();

function operations(doc: Json): { key: string; op: Json }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({ key: `${method} ${path}`, op })),
  );
}

describe("the partner API reference document", () => {
  it("holds the partner API only, with servers, the guide and unique operationIds", async () => {
    const doc = await getJson("/openapi/partner.json");
    const paths = Object.keys(doc.paths);
    expect(paths).toContain("/api/v1/sales-orders");
    expect(paths.every((p) => p.startsWith("/api/v1/") || p === "/.well-known/jwks.json")).toBe(
      true,
    );
    expect(doc.servers).toEqual([{ url: base, description: "This gateway" }]);
    expect(doc.info.title).toBe("Orderline Partner API");
    for (const section of ["# Signing requests", "# Errors", "# Idempotency", "# Webhook events"]) {
      expect(doc.info.description).toContain(section);
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(
      ["JWT-auth", "Orderline-Signature", "X-CLIENT-ID", "X-SIGNATURE", "X-TIMESTAMP"].sort(),
    );
    const ids = operations(doc).map(({ op }) => op.operationId);
    expect(ids).toContain("createSalesOrder");
    expect(new Set(ids).size).toBe(ids.length);
    const tenant = await getJson("/openapi/tenant.json");
    expect(Object.keys(tenant.paths).every((p) => p.startsWith("/v1/"))).toBe(true);
    expect(Object.keys(tenant.paths)).toContain("/v1/orders");
  });

  it("has an example on every body and response, each valid against its schema", async () => {
    const doc = await getJson("/openapi/partner.json");
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    let checked = 0;
    for (const { key, op } of operations(doc)) {
      const media = [
        ...Object.entries(op.requestBody?.content ?? {}).map(([t, m]) => [`${key} body ${t}`, m]),
        ...Object.entries(op.responses ?? {}).flatMap(([status, r]) =>
          Object.entries((r as Json).content ?? {}).map(([t, m]) => [`${key} ${status} ${t}`, m]),
        ),
      ] as [string, Json][];
      for (const [where, m] of media) {
        expect(m.example, `${where} has no example`).toBeDefined();
        // Named schemas are `#/components/schemas/…` references into the document.
        const valid = ajv.validate({ ...m.schema, components: doc.components }, m.example);
        expect(valid, `${where}: ${ajv.errorsText()}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe.skipIf(CHROMIUM === undefined)("the API reference pages in a real browser", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium(CHROMIUM as string);
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(path: string) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // Requests that left for another host: the page's CSP must stop any before it is sent.
    const foreign: string[] = [];
    const isForeign = (url: string) => !url.startsWith(base) && !/^(data|blob):/.test(url);
    page.on("requestfinished", (request) => {
      if (isForeign(request.url())) foreign.push(request.url());
    });
    page.on("requestfailed", (request) => {
      if (isForeign(request.url()) && request.failure()?.errorText !== "csp")
        foreign.push(`${request.url()} (${request.failure()?.errorText})`);
    });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${base}${path}`);
    return { page, foreign, errors };
  }

  it("/docs renders the partner operations, the guide and examples, from this gateway alone", async () => {
    const { page, foreign, errors } = await open("/docs");
    await page
      .getByRole("heading", { name: "Create a new sales order" })
      .waitFor({ timeout: 60_000 });
    expect(await page.title()).toBe("Orderline Partner API reference");
    const text = await page.locator("body").innerText();
    expect(text).toContain("Signing requests");
    expect(text).toContain("Idempotency");
    expect(text).toContain("SO-00000042");
    // The tenant API has its own page; no framework branding.
    expect(text).not.toContain("Sign a tenant user in");
    expect(text.toLowerCase()).not.toContain("swagger");
    expect(await page.locator('a[href*="redocly.com"]:visible').count()).toBe(0);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    // For a person to look at: the page as a partner first sees it.
    await page.screenshot({ path: join(tmpdir(), "orderline-partner-docs.png") });
  });

  it("/docs and /docs/webhooks: no console error, no CSP violation, and an icon", async () => {
    // Redoc's credit link loads its logo from a CDN the CSP refuses: the served bundle must not
    // name it (whether a given Redoc build renders the link is its own business).
    const bundle = await (await fetch(`${base}/docs/assets/redoc.standalone.js`)).text();
    expect(bundle).not.toContain("cdn.redoc.ly");
    expect(bundle.length).toBeGreaterThan(100_000);
    for (const [path, heading] of [
      ["/docs", "Create a new sales order"],
      ["/docs/webhooks", "Verifying a delivery"],
    ] as const) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const consoleErrors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(message.text());
      });
      // A CSP violation reaches the DevTools console through the Log domain, which playwright
      // does not report: the page's own securitypolicyviolation events list them instead.
      await page.addInitScript(`
        window.cspViolations = [];
        document.addEventListener("securitypolicyviolation", (event) =>
          window.cspViolations.push(event.violatedDirective + " " + event.blockedURI));
      `);
      const icons: number[] = [];
      page.on("response", (response) => {
        if (new URL(response.url()).pathname === "/favicon.ico") icons.push(response.status());
      });
      await page.goto(`${base}${path}`);
      await page.getByRole("heading", { name: heading }).first().waitFor({ timeout: 60_000 });
      // Redoc mounts its credit logo after the first paint: give it the time to ask for it.
      await page.waitForTimeout(500);
      expect(consoleErrors, path).toEqual([]);
      const violations = await page.evaluate("window.cspViolations");
      expect(violations, path).toEqual([]);
      const icon = await page.evaluate(async () => {
        const response = await fetch("/favicon.ico");
        return { status: response.status, type: response.headers.get("content-type") };
      });
      expect(icon).toEqual({ status: 200, type: "image/svg+xml" });
      expect(icons.every((status) => status === 200)).toBe(true);
      if (path === "/docs/webhooks") {
        const text = await page.locator("body").innerText();
        for (const word of ["order.created", "order.cancelled", "Python", "Java", "openssl"])
          expect(text).toContain(word);
        await page.screenshot({ path: join(tmpdir(), "orderline-webhooks-docs.png") });
      }
      await page.close();
    }
  });

  it("/docs/signer logs in, signs with WebCrypto and creates an order; the key never leaves", async () => {
    const partner = await createPartner(gw);
    await gw.partners.setSignatureVersion(partner.clientId, 2);
    const { page, foreign, errors } = await open("/docs/signer");
    const sent: string[] = [];
    page.on("request", (request) => sent.push(request.postData() ?? ""));
    await page.fill("#client-id", partner.clientId);
    await page.fill("#client-secret", partner.clientSecret);
    await page.click("#login");
    // Polled from outside the page: its CSP (no eval) refuses a predicate evaluated inside it.
    await expect.poll(() => page.inputValue("#token"), { timeout: 15_000 }).not.toBe("");
    await page.fill("#private-key", partner.keys.privatePem);
    await page.click("#send");
    await page.locator("#response", { hasText: "HTTP 201" }).waitFor({ timeout: 60_000 });
    expect(await page.locator("#response").innerText()).toMatch(/SO-\d+/);
    expect(await page.locator("#string-to-sign").innerText()).toContain("v2\\n");
    expect(sent.some((body) => body.includes("PRIVATE KEY"))).toBe(false);
    expect(sent.length).toBe(2);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.screenshot({ path: join(tmpdir(), "orderline-signer.png") });
  });

  it("/docs/tenant renders the tenant API on its own page", async () => {
    const { page, errors } = await open("/docs/tenant");
    await page
      .getByRole("heading", { name: "Sign a tenant user in with email and password" })
      .waitFor({ timeout: 60_000 });
    const text = await page.locator("body").innerText();
    expect(text).not.toContain("Create a new sales order");
    expect(errors).toEqual([]);
  });
});

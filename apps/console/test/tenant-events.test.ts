import { fileURLToPath } from "node:url";
import { loadConfig } from "@orderline/gateway";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInBrowser, launch } from "./support/browser.js";
import { openPage, signIn } from "./support/console-page.js";
import { createOrders, startTestGateway, type TestGateway } from "./support/gateway.js";

interface Received {
  id: string | undefined;
  type: string;
  data: { order?: { id: string; status: string }; namespace?: string; language?: string };
}

declare global {
  interface Window {
    tenantEvents: typeof import("../src/lib/tenant-events.js");
    received: Received[];
    stop: () => void;
  }
}

/** The module as the console bundles it, exposed on window for the test to drive. */
const moduleBundle = async (): Promise<string> => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("../src/lib/tenant-events.ts", import.meta.url))],
    bundle: true,
    format: "iife",
    globalName: "tenantEvents",
    write: false,
    platform: "browser",
  });
  return (result.outputFiles[0] as { text: string }).text;
};

/**
 * subscribeTenantEvents in Chromium against the real gateway: signed in through the console,
 * it receives the tenant's order events and vocabulary changes over one shared connection.
 */
describeInBrowser("tenant event stream in the browser", () => {
  let gateway: TestGateway;
  let browser: Browser;
  let bundle: string;

  beforeAll(async () => {
    // Streams end every 2 s, so the test also crosses reconnections (with Last-Event-ID).
    const events = { ...loadConfig({}).events, maxStreamSeconds: 2 };
    gateway = await startTestGateway({ events });
    browser = await launch();
    bundle = await moduleBundle();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it("receives orders and a word change, across reconnections, once each; then unsubscribes", async () => {
    const { page, errors } = await openPage(browser);
    await signIn(page, gateway.base, gateway.admin);
    // The console's own orders page and navigation hold one stream (the live list); streams
    // end every 2 s here, so counts are waited for, not read once.
    const settled = { timeout: 60_000, interval: 100 };
    await expect.poll(() => gateway.gw.streams.open, settled).toBe(1);
    await page.addScriptTag({ content: bundle });
    await page.evaluate(() => {
      window.received = [];
      const first = window.tenantEvents.subscribeTenantEvents((event) =>
        window.received.push(event as Received),
      );
      // A second subscriber shares the connection.
      const second = window.tenantEvents.subscribeTenantEvents(() => {});
      window.stop = () => {
        first();
        second();
      };
    });
    // The stream is open once the gateway holds it (beside the page's own).
    await expect.poll(() => gateway.gw.streams.open, settled).toBe(2);

    const [order] = await createOrders(gateway.base, gateway.partner, 1);
    await page.waitForFunction(() => window.received.some((e) => e.type === "order.created"));
    const created = await page.evaluate(() =>
      window.received.find((e) => e.type === "order.created"),
    );
    expect(created?.data.order).toMatchObject({ id: order?.id, status: "received" });
    expect(created?.id).toMatch(/^evt_/);

    const changed = await page.evaluate(async () => {
      // The page's own call: the session cookie and the console's Origin go with it.
      const response = await fetch("/v1/tenant/i18n-config/common", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ language: "de", overrides: { app: { name: "Bestellungen" } } }),
      });
      return response.status;
    });
    expect(changed).toBe(200);
    await page.waitForFunction(() => window.received.some((e) => e.type === "vocabulary.changed"));
    expect(
      await page.evaluate(() => window.received.find((e) => e.type === "vocabulary.changed")?.data),
    ).toEqual({ namespace: "common", language: "de" });

    // Across at least two reconnections: every change arrives once, none lost, none twice.
    const moved = [];
    for (let i = 0; i < 3; i++) {
      const [next] = await createOrders(gateway.base, gateway.partner, 1, `PO-LIVE-${i}`);
      moved.push(next?.id);
      await new Promise((r) => setTimeout(r, 1500));
    }
    const ids = [order?.id, ...moved];
    await page.waitForFunction(
      (n) => window.received.filter((e) => e.type === "order.created").length >= n,
      ids.length,
    );
    await new Promise((r) => setTimeout(r, 500));
    const createdIds = await page.evaluate(() =>
      window.received.filter((e) => e.type === "order.created").map((e) => e.data.order?.id),
    );
    expect(createdIds).toEqual(ids);

    await page.evaluate(() => window.stop());
    // Only the page's own stream is left (never this bundle's and the page's together).
    await expect.poll(() => gateway.gw.streams.open, settled).toBeLessThanOrEqual(1);
    expect(errors).toEqual([]);
  });
});

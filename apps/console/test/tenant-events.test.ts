import { fileURLToPath } from "node:url";
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
    gateway = await startTestGateway();
    browser = await launch();
    bundle = await moduleBundle();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it("receives an order created by the partner and a word changed by an admin, then unsubscribes", async () => {
    const { page, errors } = await openPage(browser);
    await signIn(page, gateway.base, gateway.admin);
    // The signed-in console holds its own stream (live vocabulary, src/vocabulary/live-vocabulary.tsx).
    await expect.poll(() => gateway.gw.streams.open).toBe(1);
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
    // The test's copy of the module opens one more, shared by its two subscribers.
    await expect.poll(() => gateway.gw.streams.open).toBe(2);

    const [order] = await createOrders(gateway.base, gateway.partner, 1);
    await page.waitForFunction(() => window.received.some((e) => e.type === "order.created"));
    const created = await page.evaluate(() =>
      window.received.find((e) => e.type === "order.created"),
    );
    expect(created?.data.order).toMatchObject({ id: order?.id, status: "received" });
    expect(created?.id).toMatch(/^evt_/);

    const changed = await page.evaluate(async () => {
      const session = JSON.parse(sessionStorage.getItem("orderline-console:session") ?? "{}");
      const response = await fetch("/v1/tenant/i18n-config/common", {
        method: "PUT",
        headers: { authorization: `Bearer ${session.token}`, "content-type": "application/json" },
        body: JSON.stringify({ language: "de", overrides: { app: { name: "Bestellungen" } } }),
      });
      return response.status;
    });
    expect(changed).toBe(200);
    await page.waitForFunction(() => window.received.some((e) => e.type === "vocabulary.changed"));
    expect(
      await page.evaluate(() => window.received.find((e) => e.type === "vocabulary.changed")?.data),
    ).toEqual({ namespace: "common", language: "de" });

    await page.evaluate(() => window.stop());
    await expect.poll(() => gateway.gw.streams.open).toBe(1);
    expect(errors).toEqual([]);
  });
});

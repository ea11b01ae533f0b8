import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  axeViolations,
  describeInBrowser,
  launch,
  screenshot,
  untranslated,
} from "./support/browser.js";
import { openPage } from "./support/console-page.js";
import {
  bearerToken,
  createOrders,
  PASSWORD,
  startTestGateway,
  type TestGateway,
  testKeyPair,
} from "./support/gateway.js";

/**
 * The Overview, the console's landing page (in a real Chromium against the real gateway): the
 * orders awaiting action with a link to them, orders per day and per partner as inline SVG
 * charts with the same numbers in tables for screen readers, amounts per currency with each
 * currency's decimals; at a desk (1366×850) and on a phone (390×844), in English and German.
 */
const DESK = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000 });
const HEADINGS: Record<string, string> = { en: "Overview", de: "Übersicht" };
const digits = (text: string) => text.replace(/\D/g, "");

interface Overview {
  awaiting: { count: number };
  per_day: { date: string; total: number }[];
  per_partner: { partner_name: string; orders: number }[];
  amounts: { currency: string | null; orders: number; amount: string }[];
}

describeInBrowser("the overview", () => {
  let gateway: TestGateway;
  let browser: Browser;
  let api: Overview;

  beforeAll(async () => {
    gateway = await startTestGateway({}, ["en", "id", "de"]);
    const { publicPem, privateKey } = testKeyPair(2);
    const created = await gateway.gw.partners.create("Pemasok Bahan Bangunan Nusantara", publicPem);
    const record = await gateway.gw.store.findPartnerByClientId(created.clientId);
    if (!record) throw new Error("partner missing");
    await gateway.gw.store.tenants.setPartnerTenant(record.id, gateway.tenantId);
    const second = { clientId: created.clientId, clientSecret: created.clientSecret, privateKey };
    const priced = (currency: string, price: number) => () => ({
      currency,
      products: [{ product_code: "RICE", quantity: 3, uom: "BAG", unit_price: price }],
    });
    const harbour = await createOrders(
      gateway.base,
      gateway.partner,
      5,
      "H",
      priced("IDR", 360000.5),
    );
    await createOrders(gateway.base, second, 4, "N", priced("EUR", 12.345));
    await createOrders(gateway.base, second, 2, "U", priced("USD", 1999.99));
    const token = await bearerToken(gateway.base, gateway.admin);
    const move = async (id: string, action: string) => {
      const moved = await fetch(`${gateway.base}/v1/orders/${id}/${action}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ reason: "checked" }),
      });
      if (moved.status !== 200) throw new Error(`${action}: ${moved.status}`);
    };
    await move((harbour[0] as { id: string }).id, "accept");
    await move((harbour[1] as { id: string }).id, "reject");
    const answer = await fetch(`${gateway.base}/v1/tenant/overview?days=30`, {
      headers: { authorization: `Bearer ${token}` },
    });
    api = ((await answer.json()) as { data: Overview }).data;
    browser = await launch();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  const open = async (language: string, viewport: { width: number; height: number }) => {
    const user = await gateway.gw.store.tenants.findUserByEmail(gateway.member);
    if (user) await gateway.gw.store.tenants.setUserLanguage(user.id, language, Date.now());
    const opened = await openPage(browser, viewport);
    const { page } = opened;
    await page.goto(`${gateway.base}/console/`);
    await page.locator("#email").fill(gateway.member);
    await page.locator("#password").fill(PASSWORD);
    await page.locator("form button[type=submit]").click();
    // The landing page after sign-in.
    await page.getByRole("heading", { level: 1, name: HEADINGS[language] }).waitFor();
    await page.getByTestId("amounts-table").waitFor();
    return opened;
  };

  const rowsOf = (page: Page, table: string) =>
    page
      .getByTestId(table)
      .locator("tbody tr")
      .evaluateAll((rows) =>
        rows.map((row) => [...row.children].map((cell) => (cell.textContent ?? "").trim())),
      );

  /** The page's figures against the API's (digits only: the language formats them). */
  const expectFigures = async (page: Page) => {
    expect(await page.getByTestId("awaiting-number").innerText()).toBe(String(api.awaiting.count));
    const days = await rowsOf(page, "day-table");
    expect(days).toHaveLength(30);
    expect(days.map((cells) => Number(digits(cells.at(-1) ?? "")))).toEqual(
      api.per_day.map((d) => d.total),
    );
    expect(await rowsOf(page, "partner-table")).toEqual(
      api.per_partner.map((p) => [p.partner_name, String(p.orders)]),
    );
    const amounts = await rowsOf(page, "amounts-table");
    expect(
      amounts.map(([currency, orders, amount]) => [currency, orders, digits(amount ?? "")]),
    ).toEqual(api.amounts.map((a) => [a.currency, String(a.orders), digits(a.amount)]));
  };

  it("the API counts what was sent: 11 orders, 9 awaiting, amounts in each currency's decimals", () => {
    expect(api.awaiting.count).toBe(9);
    expect(api.per_day.reduce((n, d) => n + d.total, 0)).toBe(11);
    expect(api.amounts).toEqual([
      { currency: "EUR", decimals: 2, orders: 4, amount: "148.16" },
      { currency: "IDR", decimals: 0, orders: 4, amount: "4320008" },
      { currency: "USD", decimals: 2, orders: 2, amount: "11999.94" },
    ]);
  });

  for (const [language, viewport, name] of [
    ["en", DESK, "desk"],
    ["de", DESK, "desk"],
    ["en", PHONE, "phone"],
    ["de", PHONE, "phone"],
  ] as const) {
    it(`shows the API's figures with tables for screen readers, axe clean (${language}, ${name})`, async () => {
      const { context, page, errors } = await open(language, viewport);
      await expectFigures(page);
      // The tables are there for screen readers but out of sight until asked for.
      const dayTable = page.getByTestId("day-table");
      const hidden = page.locator(".visually-hidden [data-testid=day-table]");
      expect(await hidden.count()).toBe(1);
      expect(await page.locator(".visually-hidden [data-testid=partner-table]").count()).toBe(1);
      expect(await page.locator("main [role=img]").count()).toBe(2);
      expect(untranslated(await page.locator("main").innerText())).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `overview.${name}.${language}`);
      // Shown on request: the same table, now visible, still axe clean.
      await page
        .locator('button[aria-controls="' + (await dayTable.getAttribute("id")) + '"]')
        .click();
      await poll(() => hidden.count()).toBe(0);
      expect(await dayTable.isVisible()).toBe(true);
      await screenshot(page, `overview.${name}.${language}.table`);
      expect(await axeViolations(page)).toEqual([]);
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        ),
      ).toBeLessThanOrEqual(0);
      // The awaiting figure leads to the filtered orders list.
      await page
        .locator("main")
        .getByRole("link", { name: new RegExp(String(api.awaiting.count)) })
        .click();
      await poll(() => page.evaluate(() => window.location.hash)).toBe("#/orders?status=received");
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

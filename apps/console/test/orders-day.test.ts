import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import {
  axeViolations,
  describeInBrowser,
  launch,
  screenshot,
  untranslated,
} from "./support/browser.js";
import { openPage, revealInMenu, signIn, switchLanguage } from "./support/console-page.js";
import {
  createOrders,
  startTestGateway,
  type TestGateway,
  testKeyPair,
} from "./support/gateway.js";

/**
 * A day at the orders desk (the staff's own tasks, in a real Chromium against the real gateway):
 * three partners with long names whose order numbers repeat, finding an order by the number a
 * partner quotes, a screen full of orders at 1366×850, a phone, bulk moves, and a page whose
 * code fails to load. Every test in at least two languages.
 */
const LONG_NAME = "Pemasok Bahan Bangunan Nusantara Sejahtera Abadi Jaya Makmur Sentosa PT";
const DESK = { width: 1366, height: 850 };
/** Waits for what the page shows, bounded only against a hang (a busy machine is slow). */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000 });
const PHONE = { width: 390, height: 844 };

describeInBrowser("a day at the orders desk", () => {
  let gateway: TestGateway;
  let browser: Browser;
  let mills: {
    clientId: string;
    clientSecret: string;
    privateKey: import("node:crypto").KeyObject;
  };

  beforeAll(async () => {
    gateway = await startTestGateway({}, ["en", "id", "de"]);
    const partner = async (n: number, name: string) => {
      const { publicPem, privateKey } = testKeyPair(n);
      const created = await gateway.gw.partners.create(name, publicPem);
      const record = await gateway.gw.store.findPartnerByClientId(created.clientId);
      if (!record) throw new Error("partner missing");
      await gateway.gw.store.tenants.setPartnerTenant(record.id, gateway.tenantId);
      return { clientId: created.clientId, clientSecret: created.clientSecret, privateKey };
    };
    mills = await partner(2, LONG_NAME);
    const third = await partner(3, "Mills & Sons GmbH");
    const vary = (currency: string) => (i: number) => ({
      currency,
      customer_code: i % 5 === 0 ? "WARUNG-KELONTONG-SUMBER-REJEKI-KEBAYORAN-LAMA-42" : `CUST-${i}`,
      products: [{ product_code: `RICE-${i}`, quantity: 2, uom: "BAG", unit_price: 360000.5 }],
    });
    await createOrders(gateway.base, gateway.partner, 12, "H", vary("IDR"));
    await createOrders(gateway.base, mills, 12, "N", vary("EUR"));
    await createOrders(gateway.base, third, 6, "M", vary("USD"));
    browser = await launch();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });
  afterEach(async () => {
    for (const email of [gateway.admin, gateway.member]) {
      const user = await gateway.gw.store.tenants.findUserByEmail(email);
      if (user) await gateway.gw.store.tenants.setUserLanguage(user.id, "en", Date.now());
    }
  });

  const language = async (page: Page, tag: string) => {
    const select = page
      .locator("select")
      .filter({ has: page.locator(`option[value="${tag}"]`) })
      .first();
    await revealInMenu(page, select);
    await switchLanguage(page, select, tag);
    await page.waitForFunction((lang) => document.documentElement.lang === lang, tag);
  };
  const rows = (page: Page) => page.locator("table.orders-table tbody tr");
  const noOverflow = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it("finds an order by the number its partner quotes, the partner beside it (en, id)", async () => {
    const { context, page, errors } = await openPage(browser, DESK);
    await signIn(page, gateway.base, gateway.member);
    await poll(() => rows(page).count()).toBe(20);
    // SO-00000005 is a number all three partners have: the list shows the three, each with its partner.
    await page.getByLabel("Search").fill("SO-00000005");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await poll(() => page.getByTestId("order-count").innerText()).toBe("3 orders");
    const listed = await rows(page).allInnerTexts();
    expect(listed.every((row) => row.includes("SO-00000005"))).toBe(true);
    for (const name of ["Harbour Retail", LONG_NAME, "Mills & Sons GmbH"])
      expect(listed.some((row) => row.includes(name))).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "day-number-three.en", { firstScreen: true });

    // SO-00000012 belongs to two partners only (the third sent six); with the partner
    // filter, or a number only one partner has, the search opens that order.
    await page.getByLabel("Search").fill("SO-00000012");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await poll(() => page.getByTestId("order-count").innerText()).toBe("2 orders");

    await language(page, "id");
    // Only the long-named partner's orders (its name in a row is the filter), then its number.
    await rows(page).getByRole("link", { name: LONG_NAME, exact: true }).first().click();
    await poll(() => page.locator(".chip").innerText()).toContain(LONG_NAME);
    await page.getByLabel("Cari").fill("so-00000003");
    await page.getByRole("button", { name: "Terapkan saringan" }).click();
    const landed = page.getByRole("heading", {
      level: 1,
      name: `Pesanan SO-00000003 (${LONG_NAME})`,
    });
    await landed.waitFor();
    expect(await page.locator("body").innerText()).toContain("N-3");
    // Back to the list the search made: the one order, its partner beside it.
    await page.getByRole("link", { name: "Kembali ke pesanan" }).click();
    await poll(() => rows(page).count()).toBe(1);
    // The bare number finds the order with that number too.
    await page.getByLabel("Cari").fill("3");
    await page.getByRole("button", { name: "Terapkan saringan" }).click();
    await landed.waitFor();
    expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "day-number-landed.id", { firstScreen: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  const INTEGRATION_CHUNK = /\/console\/assets\/integration-[^/]*\.js$/;
  const integrationHeading = (page: Page) =>
    page.getByRole("heading", { level: 1, name: "Integration" });

  it("says a page's code did not load while offline, and retries it once back online (en)", async () => {
    const { context, page } = await openPage(browser, DESK);
    await signIn(page, gateway.base, gateway.member);
    await context.setOffline(true);
    await page.getByRole("navigation").getByRole("link", { name: "Integration" }).click();
    const failed = page.getByTestId("page-error");
    await failed.waitFor();
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(
      "This page could not be shown",
    );
    expect(await failed.innerText()).toContain("the connection may have dropped");
    // The header still works: the user is not stuck on a blank page.
    expect(
      await page
        .getByRole("navigation")
        .getByRole("link", { name: /^Orders/ })
        .count(),
    ).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "day-chunk-offline.en", { firstScreen: true });
    await context.setOffline(false);
    await failed.getByRole("button", { name: "Try again" }).click();
    await integrationHeading(page).waitFor();
    await context.close();
  });

  it("reloads once for a chunk a new deployment removed, and says so if that does not help (de)", async () => {
    const { context, page } = await openPage(browser, PHONE);
    await signIn(page, gateway.base, gateway.member);
    await language(page, "de");
    let loads = 0;
    page.on("load", () => {
      loads += 1;
    });
    // The old build's chunk answers 404 once (the deployment replaced it); the reload gets the new one.
    let missing = 1;
    await context.route(INTEGRATION_CHUNK, (route) =>
      missing-- > 0 ? route.fulfill({ status: 404, body: "gone" }) : route.continue(),
    );
    const goToIntegration = async () => {
      const link = page.getByRole("navigation").getByRole("link", { name: "Integration" });
      await revealInMenu(page, link);
      await link.click();
    };
    await goToIntegration();
    await integrationHeading(page).waitFor();
    expect(loads).toBe(1);

    // Still missing after that reload: no second reload, the page says so in German.
    await context.unroute(INTEGRATION_CHUNK);
    await context.route(INTEGRATION_CHUNK, (route) => route.fulfill({ status: 404, body: "gone" }));
    // A fresh document (the loaded chunk forgotten), back on the orders.
    await page.goto(`${gateway.base}/console/#/orders`);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Aufträge" }).waitFor();
    await goToIntegration();
    const failed = page.getByTestId("page-error");
    await failed.waitFor();
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(
      "Diese Seite konnte nicht angezeigt werden",
    );
    expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "day-chunk-missing.de.phone", { firstScreen: true });
    await context.unroute(INTEGRATION_CHUNK);
    await failed.getByRole("button", { name: "Erneut versuchen" }).click();
    await integrationHeading(page).waitFor();
    await context.close();
  });

  /** How many of the listed orders the first screen shows whole (no scrolling). */
  const rowsOnFirstScreen = (page: Page) =>
    page.evaluate(
      () =>
        [...document.querySelectorAll("table.orders-table tbody tr")].filter((row) => {
          const box = row.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }).length,
    );

  it("shows a screen of orders at 1366×850, one line each, long names cut and readable in full (en, de)", async () => {
    const { context, page, errors } = await openPage(browser, DESK);
    await signIn(page, gateway.base, gateway.member);
    await poll(() => rows(page).count()).toBe(20);
    for (const lng of ["en", "de"]) {
      if (lng === "de") {
        await language(page, "de");
        await page.getByRole("heading", { level: 1, name: "Aufträge" }).waitFor();
      }
      await screenshot(page, `day-desk.${lng}`, { firstScreen: true });
      expect(await rowsOnFirstScreen(page)).toBeGreaterThanOrEqual(12);
      expect(await noOverflow(page)).toBe(true);
      const table = await page.locator(".table-scroll:has(.orders-table)").evaluate((box) => ({
        scroll: box.scrollWidth,
        client: box.clientWidth,
      }));
      expect(table.scroll).toBeLessThanOrEqual(table.client);
      // Number, partner, customer, status, amount and received date of each row are on screen.
      const cells = await rows(page)
        .first()
        .locator("th, td")
        .evaluateAll((all) =>
          all.map((cell) => {
            const box = cell.getBoundingClientRect();
            return { right: box.right, height: box.height };
          }),
        );
      for (const cell of cells) expect(cell.right).toBeLessThanOrEqual(1366);
      const heights = await rows(page).evaluateAll((all) =>
        all.map((row) => row.getBoundingClientRect().height),
      );
      expect(Math.max(...heights)).toBeLessThan(40);
      // The long partner name is cut, its full text on its link (title) and on keyboard focus.
      const partner = rows(page).getByRole("link", { name: LONG_NAME, exact: true }).first();
      const cut = () =>
        partner.evaluate((link) => ({ scroll: link.scrollWidth, client: link.clientWidth }));
      const before = await cut();
      expect(before.scroll).toBeGreaterThan(before.client);
      expect(await partner.getAttribute("title")).toContain(LONG_NAME);
      await partner.focus();
      await poll(async () => {
        const now = await cut();
        return now.scroll <= now.client;
      }).toBe(true);
      await page.locator("h1").focus();
      expect(untranslated(await page.locator("body").innerText())).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `day-desk.${lng}`, { firstScreen: true });
    }
    await language(page, "en");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("on a phone keeps filters behind a button, cards dense, German labels whole (de, id)", async () => {
    const { context, page, errors } = await openPage(browser, PHONE);
    await signIn(page, gateway.base, gateway.member);
    await language(page, "de");
    await page.getByRole("heading", { level: 1, name: "Aufträge" }).waitFor();
    await poll(() => rows(page).count()).toBe(20);
    await page.getByRole("button", { name: /^Menü/ }).click();
    expect(await noOverflow(page)).toBe(true);
    await screenshot(page, "day-phone.de", { firstScreen: true });
    // The first order is on the first screen; dates and the rest wait behind "Weitere Filter".
    const first = await rows(page).first().boundingBox();
    expect((first?.y ?? 999) + (first?.height ?? 0)).toBeLessThanOrEqual(844);
    expect(first?.height).toBeLessThan(200);
    const more = page.getByRole("button", { name: "Weitere Filter" });
    expect(await more.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByLabel("Eingegangen ab").isVisible()).toBe(false);
    // A label never breaks inside its word: the one-line values keep their cell to one line.
    const oneLine = await rows(page)
      .first()
      .locator('[data-label]:not([data-label="Kunde"])')
      .evaluateAll((cells) =>
        cells.map((cell) => ({
          label: cell.getAttribute("data-label"),
          lines: Math.round(
            cell.getBoundingClientRect().height / parseFloat(getComputedStyle(cell).lineHeight),
          ),
        })),
      );
    for (const cell of oneLine) expect(cell, cell.label ?? "").toMatchObject({ lines: 1 });
    expect(await axeViolations(page)).toEqual([]);

    await more.click();
    await page.getByLabel("Eingegangen ab").waitFor();
    expect(await more.getAttribute("aria-expanded")).toBe("true");
    await screenshot(page, "day-phone-filters.de", { firstScreen: true });

    await language(page, "id");
    await page.getByRole("heading", { level: 1, name: "Pesanan" }).waitFor();
    expect(await noOverflow(page)).toBe(true);
    expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "day-phone.id", { firstScreen: true });
    await language(page, "en");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("offers only the moves the selected statuses allow, confirms a large one and says the true count (en, de)", async () => {
    const { context, page, errors } = await openPage(browser, DESK);
    await signIn(page, gateway.base, gateway.admin);
    await page.goto(`${gateway.base}/console/#/orders?status=received`);
    await poll(() => rows(page).count()).toBe(20);
    await page.getByLabel("Select every order on this page").check();
    const bar = page.locator(".bulk-bar");
    expect(await bar.getByRole("button").allInnerTexts()).toEqual([
      "Accept 20 orders",
      "Reject 20 orders…",
      "Cancel 20 orders…",
    ]);
    await page.getByRole("button", { name: "Select all 30 matching orders" }).click();
    expect(await bar.getByRole("status").innerText()).toBe("30 orders selected");
    await bar.getByRole("button", { name: "Accept 30 orders" }).click();
    // 30 orders, more than a page: asked first; "Keep as it is" changes nothing.
    const dialog = page.getByRole("dialog", { name: "Change 30 orders at once?" });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "day-bulk-confirm.en", { firstScreen: true });
    await dialog.getByRole("button", { name: "Keep as it is" }).click();
    await dialog.waitFor({ state: "detached" });
    await bar.getByRole("button", { name: "Accept 30 orders" }).click();
    await dialog.getByRole("button", { name: "Accept 30 orders" }).click();
    await poll(() => page.getByTestId("bulk-summary").innerText()).toContain("30 orders accepted.");

    // Accepted orders, in German: fulfil or cancel them, never accept or reject.
    await language(page, "de");
    await page.goto(`${gateway.base}/console/#/orders?status=accepted`);
    await poll(() => rows(page).count()).toBe(20);
    await rows(page).first().getByRole("checkbox").check();
    await rows(page).nth(1).getByRole("checkbox").check();
    expect(await bar.getByRole("button").allInnerTexts()).toEqual([
      "2 Aufträge als erfüllt markieren",
      "2 Aufträge stornieren…",
    ]);
    // All matching without one status: which orders a move reaches is unknown, so it says so.
    await page.goto(`${gateway.base}/console/#/orders`);
    await poll(() => rows(page).count()).toBe(20);
    await page.getByLabel("Alle Aufträge dieser Seite auswählen").check();
    await page.getByRole("button", { name: "Alle 30 passenden Aufträge auswählen" }).click();
    expect(await bar.innerText()).toContain("filtern Sie zuerst nach einem Status");
    expect(await bar.getByRole("button").count()).toBe(0);
    expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "day-bulk-status.de", { firstScreen: true });
    await language(page, "en");
    expect(errors).toEqual([]);
    await context.close();
  });
});

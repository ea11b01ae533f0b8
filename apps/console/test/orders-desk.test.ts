import { tmpdir } from "node:os";
import type { Browser, Download, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { freshDatabaseUrl, storeKinds } from "../../../packages/gateway/test/support/stores.js";
import {
  axeViolations,
  describeInBrowser,
  launch,
  screenshot,
  untranslated,
} from "./support/browser.js";
import { openPage, revealInMenu, signIn, switchLanguage } from "./support/console-page.js";
import { createOrders, PASSWORD, startTestGateway, type TestGateway } from "./support/gateway.js";

/** A downloaded file's text, without its byte order mark (read over the browser's connection). */
const textOf = async (download: Download): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
};

/**
 * The orders desk in a real Chromium against the real gateway: money in the
 * order's currency, search, partner, count, sorting and page size kept in the URL and by
 * "Back to orders", bulk moves with a per-order summary, the CSV export, the awaiting count,
 * and cards on a phone; in English, German and Indonesian.
 *
 * Every test runs on the SQLite store; on PostgreSQL only the first, as a smoke test of the
 * console over that store. What the desk asks of the store (listing, search, exact money,
 * partner filter, counts, sorting, bulk moves, the CSV export, live events) the gateway's own
 * tests check over HTTP on both stores (packages/gateway/test/tenant-order-desk.test.ts,
 * tenant-events.test.ts): the browser would only repeat them (docs/decisions.md).
 */
for (const kind of storeKinds)
  describeInBrowser(`the orders desk in a browser (${kind} store)`, () => {
    let gateway: TestGateway;
    let browser: Browser;
    let orders: { order_number: string; id: string }[];

    beforeAll(async () => {
      gateway = await startTestGateway(
        kind === "postgres" ? { databaseUrl: await freshDatabaseUrl("postgres", tmpdir()) } : {},
      );
      orders = await createOrders(gateway.base, gateway.partner, 8, undefined, (i) => ({
        purchase_order_no: `PO-2026-${1000 + i}`,
        currency: i % 2 === 0 ? "EUR" : "IDR",
        customer_code: i === 3 ? "=CMD|calc" : `CUST-${i}`,
        products: [
          { product_code: `RICE-${i}`, quantity: 2, uom: "BAG", unit_price: 360000.5 },
          { product_code: "OIL-1L", quantity: 3, uom: "EA", unit_price: "0.1" },
        ],
      }));
      browser = await launch();
    });
    afterAll(async () => {
      await browser?.close();
      await gateway?.close();
    });

    // A test that fails midway leaves no language behind for the next one's sign-in.
    afterEach(async () => {
      for (const email of [gateway.admin, gateway.member]) {
        const user = await gateway.gw.store.tenants.findUserByEmail(email);
        if (user) await gateway.gw.store.tenants.setUserLanguage(user.id, "en", Date.now());
      }
    });

    /** How many orders match a listing query, as the API counts them. */
    const countOf = async (query: string): Promise<number> => {
      const login = await fetch(`${gateway.base}/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: gateway.admin, password: PASSWORD }),
      });
      const { token } = (await login.json()) as { token: string };
      const list = await fetch(`${gateway.base}/v1/orders?${query}&limit=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return ((await list.json()) as { total: { count: number } }).total.count;
    };
    const receivedCount = () => countOf("status=received");

    const noOverflow = (page: Page) =>
      page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    const rows = (page: Page) => page.locator("table.orders-table tbody tr");
    /** A test that runs on the SQLite store only (see above). */
    const onSqlite = (name: string, body: () => Promise<void>) => {
      if (kind === "sqlite") it(name, body);
    };
    const language = async (page: Page, tag: string) => {
      const select = page
        .locator("select")
        .filter({ has: page.locator(`option[value="${tag}"]`) })
        .first();
      await revealInMenu(page, select);
      await switchLanguage(page, select, tag);
      await page.waitForFunction((lang) => document.documentElement.lang === lang, tag);
    };

    it("shows amounts in the order's currency, line totals and the order total (en, de)", async () => {
      const { context, page, errors } = await openPage(browser);
      await signIn(page, gateway.base, gateway.admin);
      await expect.poll(() => rows(page).count()).toBe(8);
      const newest = rows(page).first();
      expect(await newest.innerText()).toContain("€720,001.30");
      // A list shows the currency's own decimals (none for IDR); the order's page the exact amount.
      expect(await rows(page).nth(1).innerText()).toMatch(/IDR\s720,001\s/);
      expect(await page.getByTestId("order-count").innerText()).toBe("8 orders");
      expect(await page.getByTestId("awaiting-count").innerText()).toContain("8");
      expect(
        await page.getByRole("link", { name: /Orders 8 orders awaiting action/ }).count(),
      ).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `desk-list.en${kind === "sqlite" ? "" : ".postgres"}`);

      await language(page, "de");
      await expect.poll(() => rows(page).first().innerText()).toMatch(/720\.001,30\s€/);
      expect(await page.getByTestId("order-count").innerText()).toBe("8 Aufträge");
      await rows(page).nth(1).getByRole("link").first().click();
      await page.getByTestId("order-total").waitFor();
      expect(await page.getByTestId("order-total").innerText()).toMatch(/720\.001,30\sIDR/);
      const lines = await page.locator("table tbody tr").allInnerTexts();
      expect(lines[0]).toMatch(/720\.001,00\sIDR/);
      expect(lines[1]).toMatch(/0,30\sIDR/);
      expect(untranslated(await page.locator("body").innerText())).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `desk-detail.de${kind === "sqlite" ? "" : ".postgres"}`);
      await language(page, "en");
      expect(errors).toEqual([]);
      await context.close();
    });

    onSqlite(
      "searches, filters by partner, sorts and sizes pages in the URL; Back to orders keeps them (en, id)",
      async () => {
        const { context, page, errors } = await openPage(browser);
        await signIn(page, gateway.base, gateway.member);
        await page.getByLabel("Search").fill("po-2026-100");
        await page.getByLabel("Order", { exact: true }).selectOption("oldest");
        await page.getByLabel("Per page").selectOption("50");
        await page.getByRole("button", { name: "Apply filters" }).click();
        await expect.poll(() => page.url()).toContain("q=po-2026-100");
        expect(page.url()).toContain("sort=oldest");
        expect(page.url()).toContain("size=50");
        // The newest-first rows stay on screen, marked busy, until the oldest-first page is in.
        await expect.poll(() => rows(page).first().innerText()).toContain("PO-2026-1001");
        expect(await rows(page).count()).toBe(8);
        expect(await page.locator("table.orders-table").getAttribute("aria-busy")).toBeNull();
        // The next page held back on its way (not the order-number lookup "1005" makes first,
        // which asks for 2): the rows on screen say they are stale.
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        const ordersList = (url: URL) =>
          url.pathname === "/v1/orders" && url.searchParams.get("limit") === "50";
        await page.route(ordersList, async (route) => {
          await held;
          await route.continue();
        });
        await page.getByLabel("Search").fill("1005");
        await page.getByRole("button", { name: "Apply filters" }).click();
        const table = page.locator("table.orders-table");
        await expect.poll(() => table.getAttribute("aria-busy")).toBe("true");
        expect(await rows(page).count()).toBe(8);
        release();
        await expect.poll(() => rows(page).count()).toBe(1);
        await page.unroute(ordersList);
        expect(await table.getAttribute("aria-busy")).toBeNull();
        expect(await page.getByTestId("order-count").innerText()).toBe("1 order");

        // The partner's name links to its orders only.
        await page.getByLabel("Search").fill("");
        await page.getByRole("button", { name: "Apply filters" }).click();
        await expect.poll(() => rows(page).count()).toBe(8);
        await rows(page).first().getByRole("link", { name: "Harbour Retail" }).click();
        await expect.poll(() => page.url()).toContain(`partner=${gateway.partner.clientId}`);
        expect(await page.getByText("Partner: Harbour Retail").count()).toBe(1);

        await language(page, "id");
        await rows(page).first().getByRole("link").first().click();
        await page.getByRole("link", { name: "Kembali ke pesanan" }).click();
        await expect.poll(() => page.url()).toContain(`partner=${gateway.partner.clientId}`);
        expect(page.url()).toContain("sort=oldest");
        expect(page.url()).toContain("size=50");
        expect(await page.getByLabel("Urutan").inputValue()).toBe("oldest");
        expect(untranslated(await page.locator("body").innerText())).toEqual([]);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `desk-filters.id${kind === "sqlite" ? "" : ".postgres"}`);
        await language(page, "en");
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    onSqlite("moves several orders at once and says what happened to each (en, de)", async () => {
      const { context, page, errors } = await openPage(browser);
      await signIn(page, gateway.base, gateway.admin);
      await page.goto(`${gateway.base}/console/#/orders?sort=oldest`);
      await expect.poll(() => rows(page).count()).toBe(8);
      // Someone accepts the second one meanwhile: the bulk accept reports it as already done.
      const [first, second, third] = orders as [
        (typeof orders)[0],
        (typeof orders)[0],
        (typeof orders)[0],
      ];
      await page.getByLabel(`Select order ${first.order_number}`).check();
      await page.getByLabel(`Select order ${second.order_number}`).check();
      await page.getByLabel(`Select order ${third.order_number}`).check();
      expect(await page.getByText("3 orders selected").count()).toBe(1);
      await page.getByRole("button", { name: "Reject 3 orders…" }).click();
      await page.getByLabel("Reason").fill("Out of stock");
      await page.getByRole("dialog").getByRole("button", { name: "Reject 3 orders…" }).click();
      await page.getByTestId("bulk-summary").waitFor();
      expect(await page.getByTestId("bulk-summary").innerText()).toContain("3 orders rejected.");
      await screenshot(page, `desk-bulk.en${kind === "sqlite" ? "" : ".postgres"}`);

      // Select all 5 remaining received ones plus the 3 rejected: only the 5 can be accepted,
      // and the bar offers just that (no move that could only fail, no "Mark fulfilled").
      await language(page, "de");
      await page.getByLabel("Alle Aufträge dieser Seite auswählen").check();
      expect(await page.getByText("8 Aufträge ausgewählt").count()).toBe(1);
      expect(await page.getByRole("button", { name: /erfüllt/ }).count()).toBe(0);
      await page.getByRole("button", { name: "5 Aufträge annehmen" }).click();
      await expect
        .poll(() => page.getByTestId("bulk-summary").innerText())
        .toContain("5 Aufträge angenommen.");
      const summary = await page.getByTestId("bulk-summary").innerText();
      expect(summary).not.toContain("konnten nicht geändert werden");
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `desk-bulk.de${kind === "sqlite" ? "" : ".postgres"}`);
      // The stream's events recount the orders awaiting action: none are left.
      await expect
        .poll(() => page.getByTestId("awaiting-count").count(), { timeout: 60_000 })
        .toBe(0);
      await language(page, "en");
      expect(errors).toEqual([]);
      await context.close();
    });

    onSqlite(
      "exports the filtered orders as CSV in the language's conventions (en, de)",
      async () => {
        const { context, page, errors } = await openPage(browser);
        await signIn(page, gateway.base, gateway.member);
        await page.goto(`${gateway.base}/console/#/orders?q=PO-2026-1003`);
        await expect.poll(() => rows(page).count()).toBe(1);
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("button", { name: "Export CSV" }).click(),
        ]);
        const en = await textOf(download);
        const [header, ...lines] = en.trimEnd().split("\r\n");
        expect(header).toMatch(/^Order number,Status,Partner,/);
        expect(lines).toHaveLength(2);
        expect(lines[0]).toContain("'=CMD|calc");
        expect(lines[0]).toContain(",IDR,720001.3,1,RICE-3,2,BAG,360000.5,720001,");

        await language(page, "de");
        const [german] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("button", { name: "CSV exportieren" }).click(),
        ]);
        const de = await textOf(german);
        expect(de.split("\r\n")[0]).toMatch(/^Auftragsnummer;Status;Partner;/);
        expect(de).toContain(";IDR;720001,3;1;RICE-3;2;BAG;360000,5;720001;");
        await language(page, "en");
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    onSqlite("reads orders as cards on a phone, without sideways scrolling (en, id)", async () => {
      const { context, page, errors } = await openPage(browser, { width: 390, height: 844 });
      await signIn(page, gateway.base, gateway.admin);
      await expect.poll(() => rows(page).count()).toBe(8);
      expect(await noOverflow(page)).toBe(true);
      const card = await rows(page).first().boundingBox();
      expect(card?.width).toBeLessThanOrEqual(390);
      expect(await rows(page).first().innerText()).toContain("€720,001.30");
      // Each value sits under its column's name (CSS generated content, not in innerText).
      const label = await rows(page)
        .first()
        .locator("td[data-label]")
        .nth(4)
        .evaluate((cell) => getComputedStyle(cell, "::before").content);
      expect(label).toBe('"Amount"');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `desk-cards.en.phone${kind === "sqlite" ? "" : ".postgres"}`);
      await language(page, "id");
      await expect
        .poll(() =>
          rows(page)
            .first()
            .locator("td[data-label]")
            .nth(4)
            .evaluate((cell) => getComputedStyle(cell, "::before").content),
        )
        .toBe('"Jumlah"');
      expect(await noOverflow(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `desk-cards.id.phone${kind === "sqlite" ? "" : ".postgres"}`);
      await language(page, "en");
      expect(errors).toEqual([]);
      await context.close();
    });

    onSqlite(
      "shows new orders as they arrive, without polling, and counts what awaits action (en, de)",
      async () => {
        const { context, page, errors } = await openPage(browser);
        const requests: string[] = [];
        page.on("request", (request) => requests.push(new URL(request.url()).pathname));
        await signIn(page, gateway.base, gateway.member);
        await expect.poll(() => rows(page).count()).toBeGreaterThan(0);
        const before = await rows(page).count();
        const awaiting = async () =>
          Number(
            (await page.getByTestId("awaiting-count").count()) === 0
              ? 0
              : (
                  await page.getByTestId("awaiting-count").locator("[aria-hidden]").innerText()
                ).trim(),
          );
        const waitingBefore = await receivedCount();
        await expect.poll(awaiting, { timeout: 60_000 }).toBe(waitingBefore);
        const lists = requests.filter((p) => p === "/v1/orders").length;
        // Quiet for a while: no polling.
        await page.waitForTimeout(1500);
        expect(requests.filter((p) => p === "/v1/orders").length).toBe(lists);

        const [arrived] = await createOrders(gateway.base, gateway.partner, 1, undefined, () => ({
          purchase_order_no: "PO-LIVE-1",
        }));
        // Events reach the stream within about a second (docs/gateway/tenant-api.md).
        const live = { timeout: 60_000 };
        await expect.poll(() => rows(page).first().innerText(), live).toContain("PO-LIVE-1");
        expect(await rows(page).count()).toBe(before + 1);
        expect(await page.getByTestId("orders-live").innerText()).toBe("1 new order arrived.");
        await expect.poll(awaiting, live).toBe(waitingBefore + 1);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `desk-live.en${kind === "sqlite" ? "" : ".postgres"}`);

        const streams = requests.filter((p) => p === "/v1/tenant/events").length;
        await language(page, "de");
        // The same stream serves the page in its new language.
        expect(requests.filter((p) => p === "/v1/tenant/events").length).toBe(streams);
        await createOrders(gateway.base, gateway.partner, 1, undefined, () => ({
          purchase_order_no: "PO-LIVE-2",
        }));
        await expect.poll(() => rows(page).first().innerText(), live).toContain("PO-LIVE-2");
        await expect
          .poll(() => page.getByTestId("orders-live").innerText(), live)
          .toBe("2 neue Aufträge sind eingegangen.");
        await expect.poll(awaiting, live).toBe(waitingBefore + 2);
        expect(
          await page
            .getByRole("link", {
              name: `Aufträge ${waitingBefore + 2} Aufträge warten auf Bearbeitung`,
            })
            .count(),
        ).toBe(1);
        expect(arrived?.order_number).toBeDefined();
        await language(page, "en");
        expect(errors).toEqual([]);
        await context.close();
      },
    );

    onSqlite(
      "moves all orders matching the filters, beyond the page, in one action (id)",
      async () => {
        await createOrders(gateway.base, gateway.partner, 22, undefined, (i) => ({
          purchase_order_no: `BULK-${i}`,
        }));
        const { context, page, errors } = await openPage(browser);
        await signIn(page, gateway.base, gateway.admin);
        await language(page, "id");
        await page.goto(`${gateway.base}/console/#/orders?q=bulk-&status=received`);
        // The filtered listing replaces whatever was shown before: wait for its count.
        await expect.poll(() => page.getByTestId("order-count").innerText()).toBe("22 pesanan");
        await expect.poll(() => rows(page).count()).toBe(20);
        await page.getByLabel("Pilih semua pesanan di halaman ini").check();
        await page.getByRole("button", { name: "Pilih semua 22 pesanan yang cocok" }).click();
        expect(await page.getByText("22 pesanan dipilih").count()).toBe(1);
        await page.getByRole("button", { name: "Setujui 22 pesanan" }).click();
        // More than a page (orders-day.test.ts checks "Keep as it is"): asked first.
        const dialog = page.getByRole("dialog", { name: "Ubah 22 pesanan sekaligus?" });
        await dialog.getByRole("button", { name: "Setujui 22 pesanan" }).click();
        await expect
          .poll(() => page.getByTestId("bulk-summary").innerText(), { timeout: 60_000 })
          .toContain("22 pesanan disetujui.");
        expect(await countOf("q=bulk-&status=accepted")).toBe(22);
        expect(untranslated(await page.locator("body").innerText())).toEqual([]);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `desk-bulk-all.id${kind === "sqlite" ? "" : ".postgres"}`);
        await language(page, "en");
        expect(errors).toEqual([]);
        await context.close();
      },
    );
  });

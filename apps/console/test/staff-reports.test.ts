import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import {
  axeViolations,
  describeInBrowser,
  launch,
  SCREENSHOTS,
  SCREENSHOTS_WANTED,
  screenshot,
  untranslated,
} from "./support/browser.js";
import { goTo, openPage, signIn } from "./support/console-page.js";
import {
  bearerToken,
  createOrders,
  startTestGateway,
  type TestGateway,
  testKeyPair,
} from "./support/gateway.js";

/**
 * What staff reported of the console, each in a real Chromium against the real gateway, in two
 * languages and at a desk's (1366×850) and a phone's (390×844) size where layout matters.
 */

/** A real gateway and Chromium on a shared 2-core machine: axe alone can take seconds. */
const SLOW = 180_000;
const DESK = { width: 1366, height: 850 };
const PHONE = { width: 390, height: 844 };

/** How far the page is wider than the screen, naming what sticks out when something does. */
const overflow = async (page: Page) => {
  const [excess, wide] = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const offenders = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map(
        (e) => `${e.tagName}.${e.className}#${e.id} ${Math.round(e.getBoundingClientRect().right)}`,
      );
    return [document.documentElement.scrollWidth - width, offenders] as const;
  });
  return excess > 0 ? `${excess}px: ${wide.join(", ")}` : excess;
};

/** Requests the page sends that change something, counted to show a refused form sends none. */
const changesSent = (page: Page, path: string) => {
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET" && request.url().includes(path)) sent.push(request.url());
  });
  return sent;
};

describeInBrowser("what staff reported of the console", () => {
  let gateway: TestGateway;
  let browser: Browser;
  let second: string;
  let orders: { order_number: string; id: string }[];

  const admin = async () => ({
    authorization: `Bearer ${await bearerToken(gateway.base, gateway.admin)}`,
    "content-type": "application/json",
  });
  const language = async (page: Page, code: string) => {
    const select = page.getByLabel(/^(Language|Sprache|Bahasa)$/);
    if (!(await select.isVisible())) await page.locator(".menu-toggle").click();
    await select.selectOption(code);
    await page.waitForFunction((lang) => document.documentElement.lang === lang, code);
    if (await page.locator(".menu-toggle").isVisible()) {
      if ((await page.locator(".menu-toggle").getAttribute("aria-expanded")) === "true")
        await page.locator(".menu-toggle").click();
    }
  };

  beforeAll(async () => {
    gateway = await startTestGateway();
    browser = await launch();
    const created = await gateway.gw.partners.create("Pelabuhan Jaya", testKeyPair(2).publicPem);
    second = created.clientId;
    const record = await gateway.gw.store.findPartnerByClientId(second);
    if (!record) throw new Error("partner missing");
    await gateway.gw.store.tenants.setPartnerTenant(record.id, gateway.tenantId);
    orders = await createOrders(gateway.base, gateway.partner, 3, undefined, (i) => ({
      currency: i === 1 ? "IDR" : "EUR",
      products: [{ product_code: `RICE-${i}`, quantity: 3, uom: "BAG", unit_price: "1.005" }],
    }));
    await createOrders(
      gateway.base,
      { ...created, privateKey: testKeyPair(2).privateKey },
      2,
      "PJ-1",
    );
  });
  // The language a test chooses is saved to the admin's profile: each test starts in English.
  const english = async () => {
    await fetch(`${gateway.base}/v1/user/profile`, {
      method: "PATCH",
      headers: await admin(),
      body: JSON.stringify({ language: "en" }),
    });
  };
  beforeEach(english);
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it(
    "m: refuses a 3,000-character partner name and a 5,000-character endpoint URL beside the field (en, de)",
    async () => {
      // The gateway's answer the console words: a problem+json field error on each field.
      const headers = await admin();
      const name = await fetch(`${gateway.base}/v1/tenant/partners`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "n".repeat(3000) }),
      });
      expect(name.status).toBe(400);
      expect(name.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(((await name.json()) as { errors: { pointer: string }[] }).errors[0]?.pointer).toBe(
        "/name",
      );
      const url = await fetch(
        `${gateway.base}/v1/tenant/partners/${gateway.partner.clientId}/webhook-endpoints`,
        {
          method: "POST",
          headers,
          body: JSON.stringify({ url: `https://hooks.example/${"a".repeat(4978)}`, events: ["*"] }),
        },
      );
      expect(url.status).toBe(400);
      expect(((await url.json()) as { errors: { pointer: string }[] }).errors[0]?.pointer).toBe(
        "/url",
      );

      const { context, page, errors } = await openPage(browser, DESK);
      await signIn(page, gateway.base, gateway.admin);
      for (const [code, _orders, partners, nameLabel, add, urlLabel, addUrl, tooLong] of [
        [
          "en",
          "Orders",
          "Partners",
          "Partner name",
          "Add partner",
          "Receiver URL",
          "Add endpoint",
          /^Too long: 3,000 characters, at most 200 allowed/,
        ],
        [
          "de",
          "Aufträge",
          "Partner",
          "Name des Partners",
          "Partner hinzufügen",
          "Empfänger-URL",
          "Endpunkt hinzufügen",
          /^Zu lang: 3\.000 Zeichen, höchstens 200 erlaubt/,
        ],
      ] as const) {
        if (code !== "en") await language(page, code);
        await goTo(page, partners);
        await page.getByRole("heading", { level: 1, name: partners }).waitFor();
        const sent = changesSent(page, "/v1/tenant/partners");
        const field = page.getByLabel(nameLabel);
        await field.fill("n".repeat(3000));
        await page.getByRole("button", { name: add }).click();
        expect(await page.locator("#new-name-error").innerText()).toMatch(tooLong);
        expect(await field.getAttribute("aria-invalid")).toBe("true");
        expect(await field.getAttribute("aria-describedby")).toContain("new-name-error");
        expect(await field.evaluate((f) => f === document.activeElement)).toBe(true);

        const hooks = page
          .getByRole("article", { name: "Harbour Retail" })
          .locator(".add-endpoint");
        const urlField = hooks.getByLabel(urlLabel);
        await urlField.fill(`https://hooks.example/${"a".repeat(4978)}`);
        await hooks.getByRole("button", { name: addUrl }).click();
        const urlError = hooks.locator(".field-error");
        expect(await urlError.innerText()).toMatch(code === "en" ? /5,000/ : /5\.000/);
        expect(await urlField.getAttribute("aria-invalid")).toBe("true");
        expect(sent).toEqual([]);
        expect(untranslated(await page.locator("main").innerText())).toEqual([]);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-m.${code}`, { firstScreen: true });
        await field.fill("");
        await urlField.fill("");
      }
      expect(errors).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    "n: a 300-character email at sign-in says why beside the field, in German and English, sending nothing",
    async () => {
      for (const viewport of [DESK, PHONE]) {
        const { context, page, errors } = await openPage(browser, viewport);
        await page.goto(`${gateway.base}/console/`);
        const logins = changesSent(page, "/v1/auth/");
        await page.getByLabel("Language", { exact: true }).selectOption("de");
        await page.getByRole("heading", { name: "Anmelden", level: 2 }).waitFor();
        const email = `${"a".repeat(287)}@acme.example`;
        const field = page.getByLabel("E-Mail", { exact: true });
        await field.fill(email);
        await page.getByLabel("Passwort", { exact: true }).fill("whatever");
        await page.getByRole("button", { name: "Anmelden" }).click();
        await expect
          .poll(() => page.locator("#email-error").innerText())
          .toMatch(/^Zu lang: 300 Zeichen, höchstens 254 erlaubt/);
        expect(await field.getAttribute("aria-invalid")).toBe("true");
        expect(await field.evaluate((f) => f === document.activeElement)).toBe(true);
        expect(logins).toEqual([]);
        expect(await overflow(page)).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-n.de.${viewport.width}`);
        await page.getByLabel("Sprache", { exact: true }).selectOption("en");
        await expect
          .poll(() => page.locator("#email-error").innerText())
          .toMatch(/^Too long: 300 characters, at most 254 allowed/);
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "a: filters the orders by a Partner select, named by partner, kept in the URL (en, id; desk and phone)",
    async () => {
      for (const [viewport, code, label, all] of [
        [DESK, "en", "Partner", "All partners"],
        [PHONE, "id", "Mitra", "Semua mitra"],
      ] as const) {
        const { context, page, errors } = await openPage(browser, viewport);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        const select = page.getByLabel(label, { exact: true });
        await expect
          .poll(() => select.locator("option").allInnerTexts())
          .toEqual([all, "Harbour Retail", "Pelabuhan Jaya"]);
        await select.selectOption({ label: "Pelabuhan Jaya" });
        await page.getByRole("button", { name: /^(Apply filters|Terapkan saringan)$/ }).click();
        await expect
          .poll(() => page.evaluate(() => window.location.hash))
          .toBe(`#/orders?partner=${second}`);
        const rows = page.locator("table.orders-table tbody tr");
        await expect.poll(() => rows.count()).toBe(2);
        for (const text of await rows.allInnerTexts()) expect(text).toContain("Pelabuhan Jaya");
        expect(await page.getByLabel(label, { exact: true }).inputValue()).toBe(second);
        expect(await overflow(page)).toBe(0);
        expect(untranslated(await page.locator("main").innerText())).toEqual([]);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-a.${code}.${viewport.width}`, { firstScreen: true });
        await page.getByLabel(label, { exact: true }).selectOption("");
        await page.getByRole("button", { name: /^(Apply filters|Terapkan saringan)$/ }).click();
        await expect.poll(() => rows.count()).toBe(5);
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "b, c: the order page follows a move made in another tab; its history names the partner (en, de)",
    async () => {
      const order = orders[1];
      if (!order) throw new Error("no order");
      for (const code of ["en", "de"] as const) {
        const { context, page, errors } = await openPage(browser, DESK);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        await page.goto(`${gateway.base}/console/#/orders/${order.id}`);
        const status = page.getByTestId("order-status");
        const history = page.getByTestId("history");
        await history.waitFor();
        // c: the partner by its name, never its client id.
        const historyText = await history.innerText();
        expect(historyText).toContain("Harbour Retail");
        expect(historyText).not.toContain(gateway.partner.clientId);
        const before = await status.innerText();

        // b: another tab of the same session moves the order; this one follows without reload.
        const other = await context.newPage();
        await other.goto(`${gateway.base}/console/#/orders/${order.id}`);
        const actions = other.getByRole("region", { name: /^(Actions|Aktionen)$/ });
        // English accepts the order; German then marks it fulfilled.
        const move = code === "en" ? "Accept order" : "Als erfüllt markieren";
        await actions.getByRole("button", { name: move, exact: true }).click();
        await expect.poll(() => status.innerText()).not.toBe(before);
        await expect.poll(() => history.locator("li").count()).toBeGreaterThan(1);
        expect(await history.innerText()).not.toContain(gateway.partner.clientId);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-bc.${code}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "d: lists money with the currency's decimals, the order page exactly (en, de)",
    async () => {
      // 3 × 1.005 = 3.015 exactly: €3.02 in the list, €3.015 on the order's page.
      for (const [code, listed, exact] of [
        ["en", "€3.02", "€3.015"],
        ["de", "3,02\u00a0€", "3,015\u00a0€"],
      ] as const) {
        const { context, page, errors } = await openPage(browser, DESK);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        const order = orders[2];
        if (!order) throw new Error("no order");
        const row = page
          .locator("table.orders-table tbody tr", { hasText: order.order_number })
          .filter({ hasText: "Harbour Retail" });
        await expect.poll(() => row.innerText()).toContain(listed);
        expect(await row.innerText()).not.toContain(exact);
        await page.goto(`${gateway.base}/console/#/orders/${order.id}`);
        await expect.poll(() => page.getByTestId("order-total").innerText()).toBe(exact);
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "f: Apply filters takes the focus to the results; a bulk move to its result, a status (en, de)",
    async () => {
      const focused = (page: Page) =>
        page.evaluate(() => [
          document.activeElement?.id ?? "",
          document.activeElement?.getAttribute("role") ?? "",
          document.activeElement?.textContent ?? "",
        ]);
      for (const [code, status, partner, apply, selectPage, move, done, count] of [
        [
          "en",
          "Status",
          "Partner",
          "Apply filters",
          "Select every order on this page",
          "Accept 2 orders",
          "2 orders accepted.",
          "2 orders",
        ],
        [
          "de",
          "Status",
          "Partner",
          "Filter anwenden",
          "Alle Aufträge dieser Seite auswählen",
          "2 Aufträge als erfüllt markieren",
          "2 Aufträge erfüllt.",
          "2 Aufträge",
        ],
      ] as const) {
        const { context, page, errors } = await openPage(browser, DESK);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        await page
          .getByLabel(status, { exact: true })
          .selectOption(code === "en" ? "received" : "accepted");
        await page.getByLabel(partner, { exact: true }).selectOption(second);
        await page.getByRole("button", { name: apply }).click();
        await expect.poll(() => focused(page)).toEqual(["order-results", "", count]);
        // The same filters again: the focus still goes to the results.
        await page.getByRole("button", { name: apply }).focus();
        await page.keyboard.press("Enter");
        await expect.poll(() => focused(page)).toEqual(["order-results", "", count]);

        await page.getByLabel(selectPage).check();
        await page.locator(".bulk-bar").getByRole("button", { name: move }).click();
        await expect
          .poll(() => focused(page))
          .toEqual(["", "status", expect.stringContaining(done)]);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-f.${code}`, { firstScreen: true });
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "g: on a phone the order page stacks its products, nothing wider than the screen; a desk keeps the table (en, de)",
    async () => {
      const [order] = await createOrders(gateway.base, gateway.partner, 1, "PO-WIDE", () => ({
        currency: "IDR",
        products: [
          {
            product_code: "BERAS-PREMIUM-PANDAN-WANGI-25KG",
            quantity: 1250.125,
            uom: "KARUNG",
            unit_price: "365000.1234",
            notes: "Kirim sebelum jam 10 pagi, gudang belakang",
          },
          { product_code: "MINYAK-GORENG-2L", quantity: 48, uom: "BOTOL", unit_price: "38500" },
        ],
      }));
      if (!order) throw new Error("no order");
      for (const [viewport, code, products] of [
        [PHONE, "en", "Products"],
        [PHONE, "de", "Produkte"],
        [DESK, "de", "Produkte"],
      ] as const) {
        await english();
        const { context, page, errors } = await openPage(browser, viewport);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        await page.goto(`${gateway.base}/console/#/orders/${order.id}`);
        await page.getByRole("heading", { level: 2, name: products }).waitFor();
        const table = page.locator("table.stacked");
        await table.locator("tbody tr").first().waitFor();
        expect(await overflow(page)).toBe(0);
        const box = await table.boundingBox();
        if (viewport === PHONE) {
          expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
        }
        // The column names: above the table on a desk, beside each value on a phone.
        const headVisible = await table
          .locator("thead")
          .evaluate((head) => head.getBoundingClientRect().height > 2);
        expect(headVisible).toBe(viewport === DESK);
        expect(await page.getByTestId("lines-total").isVisible()).toBe(true);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-g.${code}.${viewport.width}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "o: at 390 px Partners with a 200-character name and a 300-character endpoint URL fits, the full text readable (en, id)",
    async () => {
      const name = `PT-${"Sumber-Makmur-Sejahtera-Abadi-".repeat(7)}`.slice(0, 200);
      const created = await gateway.gw.partners.create(name, testKeyPair(3).publicPem);
      const record = await gateway.gw.store.findPartnerByClientId(created.clientId);
      if (!record) throw new Error("partner missing");
      await gateway.gw.store.tenants.setPartnerTenant(record.id, gateway.tenantId);
      const url =
        `https://hooks.example.com/${"deliveries-for-the-harbour-warehouse-".repeat(8)}`.slice(
          0,
          300,
        );
      const added = await fetch(
        `${gateway.base}/v1/tenant/partners/${created.clientId}/webhook-endpoints`,
        { method: "POST", headers: await admin(), body: JSON.stringify({ url, events: ["*"] }) },
      );
      expect(added.status, await added.clone().text()).toBe(201);
      for (const [viewport, code, partners] of [
        [PHONE, "en", "Partners"],
        [PHONE, "id", "Mitra"],
        [DESK, "en", "Partners"],
      ] as const) {
        await english();
        const { context, page, errors } = await openPage(browser, viewport);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        await goTo(page, partners);
        const card = page.getByRole("article", { name });
        await card.waitFor();
        await card
          .getByText(/^https:\/\/hooks\.example\.com/)
          .first()
          .waitFor();
        expect(await overflow(page)).toBe(0);
        // Whole: wrapped where it is shown, never cut without its full text at hand.
        const heading = card.getByRole("heading", { level: 2 });
        expect((await heading.innerText()).replace(/\s/g, "")).toBe(name);
        const shownUrl = card.locator("h4 code").first();
        expect((await shownUrl.innerText()).replace(/\s/g, "")).toBe(url);
        for (const element of [heading, shownUrl]) {
          const box = await element.boundingBox();
          expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
        }
        expect(await axeViolations(page)).toEqual([]);
        if (SCREENSHOTS_WANTED) {
          await card.screenshot({ path: `${SCREENSHOTS}staff-o.${code}.${viewport.width}.png` });
        }
        // The orders' Partner select names it too, and stays within the screen.
        await goTo(page, code === "en" ? "Orders" : "Pesanan");
        await page
          .locator("#filter-partner option", { hasText: name })
          .waitFor({ state: "attached" });
        expect(await overflow(page)).toBe(0);
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "h: Sign out does not look like a main or secondary action, on a desk and in the phone's menu (en, de)",
    async () => {
      const look = (button: ReturnType<Page["getByRole"]>) =>
        button.evaluate((b) => {
          const style = getComputedStyle(b);
          return {
            background: style.backgroundColor,
            colour: style.color,
            border: style.borderColor,
          };
        });
      for (const [viewport, code, signOut, apply, exportCsv] of [
        [DESK, "en", "Sign out", "Apply filters", "Export CSV"],
        [PHONE, "de", "Abmelden", "Filter anwenden", "CSV exportieren"],
      ] as const) {
        await english();
        const { context, page, errors } = await openPage(browser, viewport);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        const main = await look(page.getByRole("button", { name: apply }));
        const secondary = await look(page.getByRole("button", { name: exportCsv }));
        const button = page.getByRole("button", { name: signOut, exact: true });
        if (!(await button.isVisible())) await page.locator(".menu-toggle").click();
        const quiet = await look(button);
        expect(quiet.background).not.toBe(main.background);
        expect(quiet.colour).not.toBe(main.colour);
        expect(quiet.colour).not.toBe(secondary.colour);
        expect(quiet.border).not.toBe(secondary.border);
        expect(quiet.colour).toBe("rgb(27, 36, 48)");
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-h.${code}.${viewport.width}`, { firstScreen: true });
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "e: Activity says single and bulk order moves in words with counts, filters by name and takes dates in the console's language (en, de)",
    async () => {
      const moved = await createOrders(gateway.base, gateway.partner, 3, "PO-ACT");
      const [one, two, three] = moved;
      if (!one || !two || !three) throw new Error("no orders");
      const headers = await admin();
      const single = await fetch(`${gateway.base}/v1/orders/${one.id}/accept`, {
        method: "POST",
        headers,
        body: "{}",
      });
      expect(single.status).toBe(200);
      const bulk = await fetch(`${gateway.base}/v1/tenant/orders/bulk`, {
        method: "POST",
        headers,
        body: JSON.stringify({ action: "accept", ids: [one.id, two.id, three.id] }),
      });
      expect(bulk.status).toBe(200);
      const today = new Date();
      const two0 = (n: number) => String(n).padStart(2, "0");
      const [y, m, d] = [today.getFullYear(), two0(today.getMonth() + 1), two0(today.getDate())];

      for (const [viewport, code, activity, words] of [
        [
          DESK,
          "en",
          "Activity",
          {
            single: `Accepted order ${one.order_number} (Harbour Retail)`,
            bulk: "Accepted 2 orders at once (of 3 chosen)",
            action: "Action",
            bulkName: "Moved orders at once",
            from: "From day",
            date: `${m}/${d}/${y}`,
            wrong: "02/31/2026",
            apply: "Apply filters",
          },
        ],
        [
          PHONE,
          "de",
          "Aktivität",
          {
            single: `Auftrag ${one.order_number} (Harbour Retail) angenommen`,
            bulk: "2 Aufträge auf einmal angenommen (von 3 ausgewählten)",
            action: "Aktion",
            bulkName: "Mehrere Aufträge auf einmal geändert",
            from: "Ab Tag",
            date: `${d}.${m}.${y}`,
            wrong: "31.02.2026",
            apply: "Filter anwenden",
          },
        ],
      ] as const) {
        await english();
        const { context, page, errors } = await openPage(browser, viewport);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        await goTo(page, activity);
        await page.getByRole("heading", { level: 1, name: activity }).waitFor();
        const rows = page.getByTestId("audit-event");
        await rows.first().waitFor();
        const text = await page.locator("tbody").innerText();
        expect(text).toContain(words.single);
        expect(text).toContain(words.bulk);
        expect(text).not.toMatch(/orders\.(bulk_)?moved/);

        // The action by its name; the day in the console's own date field and format.
        await page
          .getByLabel(words.action, { exact: true })
          .selectOption({ label: words.bulkName });
        const from = page.getByLabel(words.from, { exact: true });
        await from.fill(words.wrong);
        await page.getByRole("button", { name: words.apply }).click();
        expect(await from.getAttribute("aria-invalid")).toBe("true");
        expect(await page.locator("#f-from-error").innerText()).not.toBe("");
        await from.fill(words.date);
        await page.getByRole("button", { name: words.apply }).click();
        // Only bulk moves (other tests' among them), the newest this test's.
        await expect
          .poll(async () => (await rows.allInnerTexts()).every((r) => !r.includes(words.single)))
          .toBe(true);
        expect(await rows.first().innerText()).toContain(words.bulk);
        expect(await page.locator("tbody").innerText()).not.toContain(words.single);
        expect(await overflow(page)).toBe(0);
        expect(untranslated(await page.locator("main").innerText())).toEqual([]);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-e.${code}.${viewport.width}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "j: the set-password page asks about its link once, whatever the language changes; a spent link is never posted again (de, id)",
    async () => {
      const invited = await fetch(`${gateway.base}/v1/tenant/users`, {
        method: "POST",
        headers: await admin(),
        body: JSON.stringify({ email: "neu@acme.example", role: "member", language: "de" }),
      });
      expect(invited.status, await invited.clone().text()).toBe(201);
      const { token } = ((await invited.json()) as { data: { link: { token: string } } }).data.link;
      const link = `${gateway.base}/console/#/set-password?token=${encodeURIComponent(token)}`;
      const posts = (page: Page) => {
        const sent: string[] = [];
        page.on("request", (request) => {
          if (request.method() === "POST") sent.push(new URL(request.url()).pathname);
        });
        return sent;
      };

      // A fresh link: read once, though the page switches to the inviter's German at once.
      const first = await openPage(browser, PHONE);
      const sent = posts(first.page);
      await first.page.goto(link);
      await first.page.getByText("Für das Konto neu@acme.example.").waitFor();
      await first.page.getByLabel("Sprache", { exact: true }).selectOption("id");
      await first.page.getByText("Untuk akun neu@acme.example.").waitFor();
      expect(sent).toEqual(["/v1/auth/password-link"]);
      await first.page.getByLabel("Kata sandi baru").fill("a long enough password");
      await first.page.getByLabel("Ulangi kata sandi").fill("a long enough password");
      await first.page.getByRole("button", { name: "Simpan kata sandi dan masuk" }).click();
      await first.page.getByRole("heading", { level: 1, name: /^(Ikhtisar|Übersicht)$/ }).waitFor();
      expect(sent.filter((p) => p === "/v1/auth/password-link")).toHaveLength(1);
      expect(sent.filter((p) => p === "/v1/auth/set-password")).toHaveLength(1);
      await first.context.close();

      // The spent link: said once, in each language chosen, and never sent again.
      for (const viewport of [PHONE, DESK]) {
        const { context, page, errors } = await openPage(browser, viewport);
        const again = posts(page);
        await page.goto(link);
        await page.getByText(/^This link no longer works/).waitFor();
        await page.getByLabel("Language", { exact: true }).selectOption("de");
        await page.getByText(/^Dieser Link gilt nicht mehr/).waitFor();
        await page.getByLabel("Sprache", { exact: true }).selectOption("id");
        await page.getByText(/^Tautan ini tidak berlaku lagi/).waitFor();
        expect(
          await page.getByRole("button", { name: "Simpan kata sandi dan masuk" }).isDisabled(),
        ).toBe(true);
        expect(again).toEqual(["/v1/auth/password-link"]);
        expect(await overflow(page)).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-j.id.${viewport.width}`, { firstScreen: true });
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "k: every landmark of the Partners page has a name of its own, by axe's landmark rules whatever their impact (en, de)",
    async () => {
      const LANDMARK_RULES = [
        "landmark-unique",
        "landmark-no-duplicate-banner",
        "landmark-no-duplicate-main",
        "landmark-no-duplicate-contentinfo",
        "landmark-one-main",
        "landmark-complementary-is-top-level",
        "landmark-main-is-top-level",
      ];
      for (const [viewport, code, partners, hooks] of [
        [DESK, "en", "Partners", "Webhook endpoints (Harbour Retail)"],
        [PHONE, "de", "Partner", "Webhook-Endpunkte (Pelabuhan Jaya)"],
      ] as const) {
        await english();
        const { context, page, errors } = await openPage(browser, viewport);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        await goTo(page, partners);
        await page.getByRole("region", { name: hooks, exact: true }).waitFor();
        // Serious and critical ones as everywhere; then the landmark rules, which axe rates
        // moderate (so the usual check lets them pass).
        expect(await axeViolations(page)).toEqual([]);
        const landmarks = await page.evaluate(async (rules) => {
          const axe = (
            window as unknown as {
              axe: {
                run(
                  options: object,
                ): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
              };
            }
          ).axe;
          const result = await axe.run({ runOnly: { type: "rule", values: rules } });
          return result.violations.map(
            (v) => `${v.id} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
          );
        }, LANDMARK_RULES);
        expect(landmarks).toEqual([]);
        await screenshot(page, `staff-k.${code}.${viewport.width}`, { firstScreen: true });
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "l: the vocabulary search finds a key of every area, by its key or with its area, named by the area (en, de)",
    async () => {
      // Every locale file is an area; its last key (the list's order puts it furthest down).
      const dir = fileURLToPath(new URL("../locales/en/", import.meta.url));
      const keyOf = (tree: Record<string, unknown>, prefix = ""): string[] =>
        Object.entries(tree).flatMap(([k, v]) =>
          typeof v === "string"
            ? [`${prefix}${k}`]
            : keyOf(v as Record<string, unknown>, `${prefix}${k}.`),
        );
      const areas = readdirSync(dir).map((file) => {
        const keys = keyOf(JSON.parse(readFileSync(`${dir}${file}`, "utf8")));
        return { area: file.replace(/\.json$/, ""), key: keys.at(-1) ?? "" };
      });
      expect(areas.map((a) => a.area)).toContain("orders");
      for (const [viewport, code, vocabulary, search] of [
        [DESK, "en", "Vocabulary", "Search words and keys"],
        [PHONE, "de", "Begriffe", "Wörter und Schlüssel suchen"],
      ] as const) {
        await english();
        const { context, page, errors } = await openPage(browser, viewport);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        await goTo(page, vocabulary);
        await page.getByRole("heading", { level: 1, name: vocabulary }).waitFor();
        const field = page.getByLabel(search, { exact: true });
        const found: string[] = [];
        for (const { area, key } of areas) {
          for (const query of [key, `${area}:${key}`, `${area}.${key}`]) {
            await field.fill(query);
            const row = page.locator("tbody tr").filter({
              has: page.locator("code", { hasText: new RegExp(`^${key.replace(/\./g, "\\.")}$`) }),
            });
            await expect
              .poll(() => row.count(), { message: `${query} in ${code}` })
              .toBeGreaterThan(0);
            const hint = await row.first().locator(".hint").innerText();
            expect(hint, `${query}: ${hint}`).not.toMatch(/areas\./);
            found.push(query);
          }
        }
        expect(found).toHaveLength(areas.length * 3);
        // Each area chosen alone lists its words.
        await field.fill("");
        const area = page.getByLabel(code === "en" ? "Area" : "Bereich", { exact: true });
        for (const { area: name } of areas) {
          await area.selectOption(name);
          await expect
            .poll(() => page.locator("tbody tr").count(), { message: name })
            .toBeGreaterThan(0);
        }
        await area.selectOption("");
        expect(await overflow(page)).toBe(0);
        // (Keys are on this page by design: no check for untranslated keys here.)
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-l.${code}.${viewport.width}`, { firstScreen: true });
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "i: editing words in place on a phone leaves Menu a button that opens the menu, not a word (en, de)",
    async () => {
      for (const [code, menu, start, stop] of [
        ["en", "Menu", "Edit words on this page", "Stop editing words"],
        ["de", "Menü", "Wörter auf dieser Seite bearbeiten", "Wörter bearbeiten beenden"],
      ] as const) {
        await english();
        const { context, page, errors } = await openPage(browser, PHONE);
        await signIn(page, gateway.base, gateway.admin);
        if (code !== "en") await language(page, code);
        const toggle = page.locator(".menu-toggle");
        await toggle.click();
        await page.getByRole("button", { name: start }).click();
        await page.waitForFunction(() => document.documentElement.hasAttribute("data-in-context"));
        if ((await toggle.getAttribute("aria-expanded")) === "true") await toggle.click();
        expect(await toggle.getAttribute("aria-expanded")).toBe("false");

        // The button opens the menu; no word editor opens for "Menu".
        await toggle.click();
        expect(await toggle.getAttribute("aria-expanded")).toBe("true");
        expect(await page.getByRole("dialog").count()).toBe(0);
        expect((await toggle.innerText()).trim()).toContain(menu);
        await toggle.click();
        expect(await toggle.getAttribute("aria-expanded")).toBe("false");
        // The page's own words stay editable: a click on the heading opens the editor.
        await page.getByRole("heading", { level: 1 }).click();
        await page.getByRole("dialog").waitFor();
        await page.keyboard.press("Escape");
        await page.getByRole("dialog").waitFor({ state: "detached" });
        expect(await overflow(page)).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `staff-i.${code}.390`, { firstScreen: true });
        await toggle.click();
        await page.getByRole("button", { name: stop }).click();
        expect(errors).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );
});

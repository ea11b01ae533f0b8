import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "@orderline/gateway";
import { INPUT_LIMITS } from "@orderline/gateway/contract";
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
  createOrders,
  PASSWORD,
  startTestGateway,
  type TestGateway,
  testKeyPair,
} from "./support/gateway.js";

/** A partner name of one long word, as some company names are, and a 121-character URL. */
const LONG_NAME = `PT-${"Sumber-Makmur-Sejahtera-".repeat(5)}Abadi`;

/** A real gateway and Chromium on a shared 2-core machine: axe alone can take seconds. */
const SLOW = 180_000;

const overflow = async (page: Page) => {
  const [excess, wide] = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const offenders = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);
    return [document.documentElement.scrollWidth - width, offenders] as const;
  });
  // Names what sticks out when something does, so a failure says where to look.
  return excess > 0 ? `${excess}px: ${wide.join(", ")}` : excess;
};

const mainText = (page: Page) => page.locator("main").innerText();

/** Requests the page sends that change something, counted to show a refused form sends none. */
const changesSent = (page: Page, path: string) => {
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET" && request.url().includes(path)) sent.push(request.url());
  });
  return sent;
};

const chooseLanguage = async (page: Page, code: string, ordersHeading: string) => {
  await page.getByLabel("Language", { exact: true }).selectOption(code);
  await page.getByRole("heading", { level: 1, name: ordersHeading }).waitFor();
};

describeInBrowser("the console for everyday work: errors, limits, dialogs, phones", () => {
  let gateway: TestGateway;
  let browser: Browser;
  let receiver: Server;
  let longUrl: string;
  let longPartner: string;
  let orders: { order_number: string; id: string }[];

  const adminToken = async () => {
    const login = await fetch(`${gateway.base}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: gateway.admin, password: PASSWORD }),
    });
    return ((await login.json()) as { token: string }).token;
  };

  beforeAll(async () => {
    receiver = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const port = (receiver.address() as AddressInfo).port;
    const webhooks = { ...loadConfig({}).webhooks, allowPrivate: "loopback" as const, pollMs: 100 };
    gateway = await startTestGateway({ webhooks });
    browser = await launch();

    // A second partner with a long name, and an endpoint with a 121-character URL that has
    // received one delivery: the data that made pages wider than a phone.
    const created = await gateway.gw.partners.create(LONG_NAME, testKeyPair(2).publicPem);
    longPartner = created.clientId;
    const record = await gateway.gw.store.findPartnerByClientId(created.clientId);
    if (!record) throw new Error("partner missing");
    await gateway.gw.store.tenants.setPartnerTenant(record.id, gateway.tenantId);
    const head = `http://127.0.0.1:${port}/orderline/webhooks/`;
    longUrl = `${head}${"deliveries-for-the-harbour-warehouse-".repeat(4)}`.slice(0, 121);
    const added = await fetch(
      `${gateway.base}/v1/tenant/partners/${gateway.partner.clientId}/webhook-endpoints`,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${await adminToken()}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ url: longUrl, events: ["*"] }),
      },
    );
    expect(added.status).toBe(201);
    orders = await createOrders(gateway.base, gateway.partner, 3);
  });
  // The language a test chooses is saved to the admin's profile: each test starts in English.
  beforeEach(async () => {
    const reset = await fetch(`${gateway.base}/v1/user/profile`, {
      method: "PATCH",
      headers: {
        authorization: `Bearer ${await adminToken()}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ language: "en" }),
    });
    expect(reset.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    receiver?.close();
  });

  it(
    "says the gateway's refusals in German beside their field, keeps over-long text whole and sends none of it",
    async () => {
      const { context, page, errors } = await openPage(browser);
      await signIn(page, gateway.base, gateway.admin);
      await chooseLanguage(page, "de", "Aufträge");
      await goTo(page, "Partner");
      const card = page.getByRole("article", { name: "Harbour Retail" });
      const hooks = card.getByRole("region", { name: "Webhook-Endpunkte" });
      const url = hooks.getByLabel("Empfänger-URL");
      const add = hooks.getByRole("button", { name: "Endpunkt hinzufügen" });
      const fieldError = hooks.locator(".add-endpoint .field-error");
      const sent = changesSent(page, "/webhook-endpoints");

      // 5,020 characters pasted: kept whole (no maxlength), counted, refused before sending.
      const pasted = `https://hooks.example/${"a".repeat(5020 - 22)}`;
      await url.fill(pasted);
      expect((await url.inputValue()).length).toBe(5020);
      await hooks.getByText("5.020 von 2.048 Zeichen").waitFor();
      await add.click();
      expect(await fieldError.innerText()).toBe(
        "Zu lang: 5.020 Zeichen, höchstens 2.048 erlaubt. Kürzen Sie den Text; es wurde nichts gesendet.",
      );
      expect(await url.getAttribute("aria-invalid")).toBe("true");
      expect(await url.evaluate((field) => field === document.activeElement)).toBe(true);
      expect(sent).toEqual([]);

      // A loopback address the gateway refuses: German, at the field, naming no operator setting.
      await url.fill("http://10.1.2.3/hook");
      expect(await hooks.getByText(/von 2\.048 Zeichen/).count()).toBe(0);
      await add.click();
      await expect
        .poll(() => fieldError.innerText())
        .toMatch(/^An diese Adresse kann nicht zugestellt werden/);
      // An empty URL reaches the gateway (the form sends it): its minLength comes back in words.
      await url.fill("");
      await add.click();
      await expect.poll(() => fieldError.innerText()).toBe("Pflichtfeld.");
      expect(sent).toHaveLength(2);

      // A public key the gateway cannot parse: German at the key field, not the parser's English.
      await page.getByLabel("Name des Partners").fill("Kaputt GmbH");
      await page
        .getByLabel("Öffentlicher Schlüssel (PEM, optional)")
        .fill("-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----");
      await page.getByRole("button", { name: "Partner hinzufügen" }).click();
      await page
        .locator("#new-pem-error")
        .getByText(/^Dieser öffentliche Schlüssel kann nicht/)
        .waitFor();

      const text = await mainText(page);
      expect(text).not.toMatch(
        /GATEWAY_|X\.509|SubjectPublicKeyInfo|must NOT|body \/|refused unless/,
      );
      expect(untranslated(text)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, "errors-limits.de");
      expect(errors).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    "in English too: a partner name over its limit and a 3,000-character reason are refused visibly, never cut",
    async () => {
      const { context, page, errors } = await openPage(browser);
      await signIn(page, gateway.base, gateway.admin);
      await goTo(page, "Partners");
      const partners = changesSent(page, "/v1/tenant/partners");
      const name = page.getByLabel("Partner name");
      await name.fill("n".repeat(INPUT_LIMITS.partnerName - 10));
      await page.getByText("190 of 200 characters").waitFor();
      await name.fill("n".repeat(INPUT_LIMITS.partnerName + 1));
      await page.getByText("201 of 200 characters").waitFor();
      await page.getByRole("button", { name: "Add partner" }).click();
      expect(await page.locator("#new-name-error").innerText()).toBe(
        "Too long: 201 characters, at most 200 allowed. Shorten it; nothing was sent.",
      );
      expect(partners).toEqual([]);

      const order = orders[0];
      if (!order) throw new Error("no order");
      await page.goto(`${gateway.base}/console/#/orders/${order.id}`);
      await page.getByRole("heading", { level: 1, name: `Order ${order.order_number}` }).waitFor();
      const actions = page.getByRole("region", { name: "Actions" });
      // Reject does not look like Accept: another background, the error colour.
      const look = (label: string) =>
        actions
          .getByRole("button", { name: label })
          .evaluate((b) => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]);
      const [acceptBackground] = await look("Accept order");
      const [rejectBackground, rejectColour] = await look("Reject order…");
      expect(rejectBackground).not.toBe(acceptBackground);
      expect(rejectColour).toBe("rgb(155, 28, 28)");

      const moves = changesSent(page, `/v1/orders/${order.id}/`);
      await actions.getByRole("button", { name: "Reject order…" }).click();
      const dialog = page.getByRole("dialog", { name: `Reject order ${order.order_number}` });
      const reason = dialog.getByLabel("Reason");
      await reason.fill("r".repeat(3000));
      expect((await reason.inputValue()).length).toBe(3000);
      await dialog.getByText("3,000 of 500 characters").waitFor();
      await dialog.getByRole("button", { name: "Reject order" }).click();
      await dialog
        .getByText("Too long: 3,000 characters, at most 500 allowed.", { exact: false })
        .waitFor();
      expect(moves).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, "reason-limit.en");
      await reason.fill("Customer unknown");
      await dialog.getByRole("button", { name: "Reject order" }).click();
      // Named with its partner: order numbers repeat across partners.
      await page.getByText(`Order ${order.order_number} (Harbour Retail) is rejected.`).waitFor();
      expect(moves).toHaveLength(1);
      expect(errors).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    "asks before disabling in its own dialog, in Indonesian: labelled, focus kept inside, Escape keeps everything",
    async () => {
      const { context, page, errors } = await openPage(browser);
      const native: string[] = [];
      page.on("dialog", (d) => {
        native.push(d.message());
        void d.dismiss();
      });
      await signIn(page, gateway.base, gateway.admin);
      await chooseLanguage(page, "id", "Pesanan");
      await goTo(page, "Mitra");
      const card = page.getByRole("article", { name: "Harbour Retail" });
      const disable = card.getByRole("button", { name: "Nonaktifkan Harbour Retail" });
      await disable.click();
      const dialog = page.getByRole("dialog", { name: /^Nonaktifkan Harbour Retail\?/ });
      await dialog.waitFor();
      // The safe choice has the focus; Tab and Shift+Tab stay inside.
      const focused = () => page.evaluate(() => document.activeElement?.textContent ?? "");
      expect(await focused()).toBe("Biarkan seperti semula");
      for (const key of ["Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
        await page.keyboard.press(key);
        expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      }
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, "confirm-dialog.id");
      await page.keyboard.press("Escape");
      await expect.poll(() => dialog.count()).toBe(0);
      expect(await disable.evaluate((b) => b === document.activeElement)).toBe(true);
      expect(await card.locator(".status-active").innerText()).toBe("Aktif");

      await disable.click();
      await dialog.getByRole("button", { name: "Nonaktifkan Harbour Retail" }).click();
      await card.locator(".status-disabled").getByText("Nonaktif").waitFor();
      await card.getByRole("button", { name: "Aktifkan Harbour Retail" }).click();
      await card.locator(".status-active").waitFor();
      expect(native).toEqual([]);
      expect(untranslated(await mainText(page))).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  for (const [language, orders, partners, integration] of [
    ["en", "Orders", "Partners", "Integration"],
    ["id", "Pesanan", "Mitra", "Integrasi"],
  ] as const) {
    it(
      `fits a 390 × 844 phone with long data, in ${language}: a compact header, a menu, no page wider than the screen`,
      async () => {
        const { context, page, errors } = await openPage(browser, { width: 390, height: 844 });
        await signIn(page, gateway.base, gateway.admin);
        if (language !== "en") {
          await page.locator(".menu-toggle").click();
          await chooseLanguage(page, language, orders);
          await page.locator(".menu-toggle").click();
        }
        const header = async () => (await page.locator("header.top").boundingBox())?.height ?? 999;
        expect(await header()).toBeLessThanOrEqual(90);
        expect(await overflow(page)).toBe(0);

        // The menu: a button that says whether it is open; following a link closes it.
        const toggle = page.locator(".menu-toggle");
        expect(await toggle.getAttribute("aria-expanded")).toBe("false");
        await toggle.click();
        expect(await toggle.getAttribute("aria-expanded")).toBe("true");
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `phone-menu.${language}`);
        await page
          .getByRole("navigation")
          .getByRole("link", { name: partners, exact: true })
          .click();
        await page.getByRole("heading", { level: 1, name: partners }).waitFor();
        expect(await toggle.getAttribute("aria-expanded")).toBe("false");
        expect(await header()).toBeLessThanOrEqual(90);

        // The long partner name and the 121-character URL wrap; the deliveries read as rows.
        const long = page.getByRole("article", { name: LONG_NAME });
        await long.waitFor();
        const endpoint = page.getByRole("article", { name: new RegExp(longUrl.slice(0, 40)) });
        await endpoint
          .getByRole("button", { name: /^(Recent deliveries|Pengiriman terbaru)/ })
          .click();
        await endpoint.locator("tbody tr").first().waitFor();
        if (SCREENSHOTS_WANTED) {
          await endpoint.screenshot({ path: `${SCREENSHOTS}phone-endpoint.${language}.png` });
        }
        expect(await overflow(page)).toBe(0);
        const row = await endpoint.locator("tbody tr").first().boundingBox();
        expect(row && row.x >= 0 && row.x + row.width <= 390).toBe(true);
        // The full name and URL are there to read (wrapped), not cut.
        expect(await long.getByRole("heading", { level: 2 }).innerText()).toBe(LONG_NAME);
        expect((await endpoint.locator("h4 code").innerText()).replace(/\s/g, "")).toBe(longUrl);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `phone-partners.${language}`);

        // A confirm dialog fits too.
        await endpoint.getByRole("button", { name: /^(Disable|Nonaktifkan)/ }).click();
        const dialog = page.getByRole("dialog");
        const box = await dialog.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
        await screenshot(page, `phone-confirm.${language}`);
        await page.keyboard.press("Escape");

        await goTo(page, integration);
        await page.getByRole("heading", { level: 1, name: integration }).waitFor();
        expect(await overflow(page)).toBe(0);
        await goTo(page, orders);
        await page.getByRole("heading", { level: 1, name: orders }).waitFor();
        expect(await header()).toBeLessThanOrEqual(90);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `phone-orders.${language}`);
        expect(errors).toEqual([]);
        await context.close();
      },
      SLOW,
    );
  }

  it(
    "gives the Integration page a table of contents whose links move to each diagram, in English and German",
    async () => {
      const { context, page, errors } = await openPage(browser);
      await signIn(page, gateway.base, gateway.admin);
      for (const [language, integration, contents] of [
        ["en", "Integration", "On this page"],
        ["de", "Integration", "Auf dieser Seite"],
      ] as const) {
        if (language !== "en") {
          await page.getByLabel("Language", { exact: true }).selectOption(language);
          await page.getByRole("navigation", { name: contents }).waitFor();
        }
        await goTo(page, integration);
        await page.getByRole("heading", { level: 1, name: integration }).waitFor();
        const toc = page.getByRole("navigation", { name: contents });
        const links = toc.getByRole("link");
        const diagrams = page.locator("section.diagram > h2");
        expect(await links.count()).toBe(await diagrams.count());
        expect(await links.count()).toBeGreaterThan(2);
        const last = links.last();
        const title = await last.innerText();
        await last.click();
        const focused = await page.evaluate(() => document.activeElement?.textContent ?? "");
        expect(focused).toBe(title);
        expect(await page.evaluate(() => window.location.hash)).toBe("#/integration");
        expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `integration-contents.${language}`);
      }
      expect(errors).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    "takes dates in the console's language, not the browser's: German, then Indonesian",
    async () => {
      const { context, page, errors } = await openPage(browser);
      await signIn(page, gateway.base, gateway.admin);
      await chooseLanguage(page, "de", "Aufträge");
      const from = page.getByLabel("Eingegangen ab");
      expect(await from.getAttribute("placeholder")).toBe("TT.MM.JJJJ");
      const today = new Date();
      const two = (n: number) => String(n).padStart(2, "0");
      const iso = `${today.getFullYear()}-${two(today.getMonth() + 1)}-${two(today.getDate())}`;
      const german = `${two(today.getDate())}.${two(today.getMonth() + 1)}.${today.getFullYear()}`;
      await from.fill(german);
      await page.getByRole("button", { name: "Filter anwenden" }).click();
      await expect
        .poll(() => page.evaluate(() => window.location.hash))
        .toBe(`#/orders?from=${iso}`);
      await expect.poll(() => page.locator("tbody tr").count()).toBeGreaterThan(0);
      // A day that does not exist is refused at the field; the filter stays as it was.
      await page.getByLabel("Eingegangen bis").fill("31.02.2026");
      await page.getByRole("button", { name: "Filter anwenden" }).click();
      await page.getByText("Kein Datum: geben Sie es als TT.MM.JJJJ ein.").waitFor();
      expect(await page.evaluate(() => window.location.hash)).toBe(`#/orders?from=${iso}`);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, "date-filter.de");
      await page.getByLabel("Eingegangen bis").fill("");

      await page.getByLabel("Sprache", { exact: true }).selectOption("id");
      await page.getByRole("heading", { level: 1, name: "Pesanan" }).waitFor();
      const dari = page.getByLabel("Diterima sejak");
      expect(await dari.getAttribute("placeholder")).toBe("hh/bb/tttt");
      expect(await dari.inputValue()).toBe(german.replace(/\./g, "/"));
      expect(untranslated(await mainText(page))).toEqual([]);
      await screenshot(page, "date-filter.id");
      expect(errors).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    "says what to do next when a list is empty",
    async () => {
      const { context, page } = await openPage(browser);
      await signIn(page, gateway.base, gateway.admin);
      await goTo(page, "Partners");
      const long = page.getByRole("article", { name: LONG_NAME });
      await long.getByText("No webhook endpoints yet. Add one below").waitFor();
      expect(await long.innerText()).toContain(longPartner);
      await context.close();
    },
    SLOW,
  );

  // Last: the failed sign-ins it makes count against this machine's address too.
  it(
    "says a throttled sign-in's wait in words with the right plural, in English and German; an over-long email is refused at its field",
    async () => {
      const email = "throttled@acme.example";
      await gateway.gw.users.create({
        tenantId: gateway.tenantId,
        email,
        role: "member",
        password: PASSWORD,
      });
      const { context, page, errors } = await openPage(browser);
      await page.goto(`${gateway.base}/console/`);
      const logins = changesSent(page, "/v1/auth/login");
      const field = page.locator("#email");
      await field.fill(`${"a".repeat(250)}@acme.example`);
      await page.getByLabel("Password").fill("whatever");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page
        .getByText("Too long: 263 characters, at most 254 allowed.", { exact: false })
        .waitFor();
      expect(logins).toEqual([]);

      const fail = () =>
        fetch(`${gateway.base}/v1/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password: "not the password" }),
        });
      for (let i = 0; i < 6; i++) await fail();
      const attempt = async (password: string) => {
        await field.fill(email);
        await page.locator("#password").fill(password);
        await page.getByRole("button", { name: /^(Sign in|Anmelden)$/ }).click();
        return page.getByRole("alert").innerText();
      };
      await expect
        .poll(() => attempt("not the password"))
        .toMatch(/^Too many failed sign-ins\. Try again in (1 second|\d+ seconds)\.$/);
      expect(await page.getByRole("alert").innerText()).not.toMatch(/1 seconds/);
      await page.getByLabel("Language", { exact: true }).selectOption("de");
      await page.getByRole("heading", { name: "Anmelden", level: 2 }).waitFor();
      await expect
        .poll(() => attempt("not the password"))
        .toMatch(
          /^Zu viele fehlgeschlagene Anmeldeversuche\. Versuchen Sie es in (1 Sekunde|\d+ Sekunden) noch einmal\.$/,
        );
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, "sign-in-throttled.de");
      expect(errors).toEqual([]);
      await context.close();
    },
    SLOW,
  );
});

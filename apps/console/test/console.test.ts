import { readFileSync } from "node:fs";
import { loadType } from "@orderline/diagrams";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  axeViolations,
  describeInBrowser,
  launch,
  screenshot,
  untranslated,
} from "./support/browser.js";
import {
  confirmDialog,
  goTo,
  openPage,
  signIn as signInAs,
  switchLanguage,
} from "./support/console-page.js";
import {
  bearerToken,
  createOrders,
  PASSWORD,
  startTestGateway,
  type TestGateway,
  testKeyPair,
} from "./support/gateway.js";

const example = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../../../examples/diagrams/${name}.json`, import.meta.url), "utf8"),
  );

/** The diagrams the Integration page must show, by name, with their titles from the examples. */
const DIAGRAM_TITLES: Record<string, string> = Object.fromEntries(
  [
    "partner-order-flow",
    "partner-order-sequence",
    "token-refresh-sequence",
    "sales-order-lifecycle",
    "access-token-lifecycle",
    "change-language-lifecycle",
    "orderline-architecture",
    "signed-order-data-flow",
  ].map((name) => [name, example(name).meta.title]),
);

/**
 * The console in a real chromium against the real gateway (fresh SQLite store, free port),
 * used as the tenant's staff would: by keyboard, in three languages, on a phone and a desktop.
 */
describeInBrowser("the console in a browser", () => {
  let gateway: TestGateway;
  let browser: Browser;
  let orders: { order_number: string; id: string }[];
  const clock = { offsetMs: 0 };

  beforeAll(async () => {
    // Indonesian is in the console but not in this gateway's languages: switching to it is a
    // real failing profile PATCH (422), which the console must revert.
    gateway = await startTestGateway({}, ["en", "de"], clock);
    orders = await createOrders(gateway.base, gateway.partner, 23);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  const open = (viewport?: { width: number; height: number }) => openPage(browser, viewport);
  const signIn = (page: Page, email = gateway.admin, options?: { typed?: boolean }) =>
    signInAs(page, gateway.base, email, options);
  /** A member on the Integration page. */
  const openIntegration = async (viewport?: { width: number; height: number }) => {
    const opened = await open(viewport);
    await signIn(opened.page, gateway.member);
    await goTo(opened.page, "Integration");
    await opened.page.getByRole("heading", { level: 1, name: "Integration" }).waitFor();
    return opened;
  };
  /** A drawing wider than the screen scrolls sideways inside its region; the page does not. */
  const scrollsInsideNotPage = async (page: Page, region: Locator) => {
    await expect
      .poll(() => region.evaluate((el) => el.scrollWidth - el.clientWidth))
      .toBeGreaterThan(0);
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
  };

  it("paints a translated sign-in page first and refuses a wrong password clearly", async () => {
    const { context, page } = await open();
    // The first frame the browser paints, captured before any script of the test runs.
    await page.goto(`${gateway.base}/console/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    const text = await page.locator("body").innerText();
    expect(untranslated(text)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "sign-in.en");

    await page.getByLabel("Email").fill(gateway.admin);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect
      .poll(() => page.getByRole("alert").innerText())
      .toBe("The email or password is not right.");
    await context.close();
  });

  it("signs in by keyboard, lists the orders a page at a time and opens one with its products", async () => {
    const { context, page, errors } = await open();
    await signIn(page, gateway.admin, { typed: true });
    const rows = page.locator("tbody tr");
    // The heading paints before the first page of orders arrives.
    await rows.nth(19).waitFor();
    expect(await rows.count()).toBe(20);
    // Newest first.
    expect(await rows.first().locator("th").innerText()).toBe(orders.at(-1)?.order_number);
    expect(await page.getByText("Signed in as admin@acme.example (Acme Trading)").count()).toBe(1);
    expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "orders.en");

    await page.getByRole("link", { name: "Next page" }).click();
    await page.getByText("Page 2").waitFor();
    // The first page stays on screen until the second arrives (a busy machine shows it longer).
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(3);
    expect(await rows.last().locator("th").innerText()).toBe(orders[0]?.order_number);
    await page.getByRole("link", { name: "Previous page" }).click();
    await page.getByText("Page 1").waitFor();

    // Open an order from the keyboard: focus its link, Enter; the heading takes the focus.
    const first = orders.at(-1) as { order_number: string };
    await page.getByRole("link", { name: first.order_number }).focus();
    await page.keyboard.press("Enter");
    const heading = page.getByRole("heading", { level: 1, name: `Order ${first.order_number}` });
    await heading.waitFor();
    expect(await heading.evaluate((h) => h === document.activeElement)).toBe(true);
    const products = page.getByRole("region", { name: "Products" });
    expect(await products.locator("tbody tr").count()).toBe(2);
    expect(await products.innerText()).toContain("WIDGET-1");
    expect(await products.innerText()).toContain("Zinc plated");
    expect(await page.getByText("1 Harbour Road").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "order.en");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("switches the language at once, saves it to the profile, and reverts visibly when saving fails", async () => {
    const { context, page } = await open();
    await signIn(page);
    const language = page.getByLabel("Language", { exact: true });
    await language.selectOption("de");
    await page.getByRole("heading", { level: 1, name: "Aufträge" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
    await expect
      .poll(async () => (await gateway.gw.store.tenants.findUserByEmail(gateway.admin))?.language)
      .toBe("de");
    expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "orders.de");
    const newest = orders.at(-1)?.order_number as string;
    await page.getByRole("link", { name: newest }).click();
    await page.getByRole("heading", { level: 1, name: `Auftrag ${newest}` }).waitFor();
    await screenshot(page, "order.de");
    await page.getByRole("link", { name: "Zurück zu den Aufträgen" }).click();

    // This gateway does not support Indonesian: the PATCH is refused and German comes back.
    await page.getByLabel("Sprache", { exact: true }).selectOption("id");
    const alert = page.getByTestId("language-failure");
    await alert.waitFor();
    expect(await alert.innerText()).toContain(
      "Bahasa Indonesia konnte nicht als Ihre Sprache gespeichert werden; Deutsch ist zurück.",
    );
    await page.getByRole("heading", { level: 1, name: "Aufträge" }).waitFor();
    expect(await page.getByLabel("Sprache", { exact: true }).inputValue()).toBe("de");
    expect(await page.evaluate(() => localStorage.getItem("orderline-console:language"))).toBe(
      "de",
    );
    await screenshot(page, "language-failed.de");

    // The choice survives a reload, painted in German from the first frame.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Aufträge" }).waitFor();
    await switchLanguage(page, "Sprache", "en");
    await page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
    await context.close();
  });

  it("paints the tenant's cached words with the first frame on a reload", async () => {
    const { context, page } = await open();
    await signIn(page);
    // A tenant admin renames "Orders" (through the real API, as the editor would).
    const token = await bearerToken(gateway.base, gateway.admin);
    const put = await fetch(`${gateway.base}/v1/tenant/i18n-config/orders`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ language: "en", overrides: { title: "Purchase requests" } }),
    });
    expect(put.status).toBe(200);
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Purchase requests" }).waitFor();

    // Next reload: hold the vocabulary requests. The tenant's word still paints first.
    // The requests wait until the heading has been read, however slow the machine is.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/v1/tenant/i18n-config/**", async (route) => {
      await held;
      await route.continue();
    });
    const requested = page.waitForRequest("**/v1/tenant/i18n-config/**");
    await page.reload();
    await requested;
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Purchase requests");
    release();
    // Lets the held requests go on through their handler rather than answering them here.
    await page.unrouteAll({ behavior: "wait" });

    // Signing out leaves nothing of this tenant's words for the next user of the browser.
    const other = await gateway.gw.tenants.create("Globex");
    await gateway.gw.users.create({
      tenantId: other.tenant_id,
      email: "staff@globex.example",
      role: "member",
      password: PASSWORD,
    });
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByLabel("Email").fill("staff@globex.example");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("Signed in as staff@globex.example (Globex)").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Orders");
    await context.close();
    // Back to the standard words for the other tests.
    const reset = await fetch(`${gateway.base}/v1/tenant/i18n-config/orders`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ language: "en", overrides: {} }),
    });
    expect(reset.status).toBe(200);
  });

  it("shows members no vocabulary editor", async () => {
    const { context, page } = await open();
    await signIn(page, gateway.member);
    expect(await page.getByRole("link", { name: "Vocabulary" }).count()).toBe(0);
    await page.goto(`${gateway.base}/console/#/vocabulary`);
    await page.getByText("Only tenant admins can change the vocabulary.").waitFor();
    await context.close();
  });

  it("creates a partner on the partners page whose secret and key then make a real signed order", async () => {
    const { context, page, errors } = await open();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: gateway.base,
    });
    await signIn(page);
    await page.getByRole("link", { name: "Partners" }).click();
    await page.getByRole("heading", { level: 1, name: "Partners" }).waitFor();

    // A pasted key that is not one is refused at the field with the CLI's message.
    await page.getByLabel("Partner name").fill("Coastal Foods");
    await page.getByLabel("Public key (PEM, optional)").fill("-----BEGIN PUBLIC KEY-----\nnope");
    await page.getByRole("button", { name: "Add partner" }).click();
    const pem = page.getByLabel("Public key (PEM, optional)");
    await expect.poll(() => pem.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#new-pem-error").innerText()).not.toBe("");

    const { publicPem, privateKey } = testKeyPair(2);
    await pem.fill(publicPem);
    await page.getByRole("button", { name: "Add partner" }).click();
    const once = page.getByTestId("secret-once");
    await once.waitFor();
    const clientId = await page.getByTestId("client-id").innerText();
    const clientSecret = await page.getByTestId("client-secret").innerText();
    await page.getByRole("button", { name: "Copy secret" }).click();
    await page.getByText("Secret copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(clientSecret);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "partners.en");

    // The partner's system, with what the page showed: log in, sign, create an order.
    const [created] = await createOrders(gateway.base, { clientId, clientSecret, privateKey }, 1);
    await page.getByRole("button", { name: "I have stored the secret" }).click();
    expect(await once.count()).toBe(0);
    await page.getByRole("link", { name: "Orders" }).click();
    await page.getByRole("link", { name: created?.order_number }).waitFor();

    // Rotate the secret (the old one stops), revoke the key, disable and enable.
    await page.getByRole("link", { name: "Partners" }).click();
    await page.getByRole("button", { name: "Rotate secret of Coastal Foods" }).click();
    await confirmDialog(page);
    await page.getByTestId("secret-once").waitFor();
    const rotated = await page.getByTestId("client-secret").innerText();
    expect(rotated).not.toBe(clientSecret);
    await expect(
      createOrders(gateway.base, { clientId, clientSecret, privateKey }, 1),
    ).rejects.toThrow(/partner login: 401/);
    await page.getByRole("button", { name: "I have stored the secret" }).click();
    const coastal = page.getByRole("article", { name: "Coastal Foods" });
    await coastal.getByRole("button", { name: /^Revoke key key_/ }).click();
    await confirmDialog(page);
    await page.getByText(/^Key key_\w+ revoked\.$/).waitFor();
    await coastal.getByText("No active key: the partner cannot sign orders yet.").waitFor();
    await page.getByRole("button", { name: "Disable Coastal Foods" }).click();
    await confirmDialog(page);
    await page.getByText("Coastal Foods is disabled.").waitFor();
    await page.getByRole("button", { name: "Enable Coastal Foods" }).click();
    await page.getByText("Coastal Foods is enabled.").waitFor();

    await page.getByLabel("Language", { exact: true }).selectOption("de");
    await page.getByRole("heading", { level: 1, name: "Partner" }).waitFor();
    // The last message follows the language too.
    await page.getByText("Coastal Foods ist aktiviert.").waitFor();
    expect(untranslated(await page.locator("main").innerText())).toEqual([]);
    await screenshot(page, "partners.de");
    await switchLanguage(page, "Sprache", "en");
    await page.getByRole("heading", { level: 1, name: "Partners" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the project's diagrams of every type, rendered at build time, each with its text", async () => {
    const { context, page, errors } = await openIntegration();
    // Every example the page names is shown as a loaded image, described by its text.
    for (const [name, title] of Object.entries(DIAGRAM_TITLES)) {
      await page.getByRole("heading", { level: 2, name: title }).waitFor();
      const image = page.getByRole("img", { name: `Diagram: ${title}` });
      await image.scrollIntoViewIfNeeded();
      await expect
        .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      expect(await image.getAttribute("aria-describedby")).toBe(`text-${name}`);
      expect(await page.locator(`#text-${name} li`).count()).toBeGreaterThan(0);
    }
    // Workflow: the guided views.
    expect(await page.locator("#steps-partner-order-flow li").count()).toBeGreaterThanOrEqual(3);
    expect(await page.getByText("1. Log in").count()).toBe(1);
    // Sequence: the messages in the order drawn, numbered as the drawing numbers them, with the
    // guards of the fragments around them; dividers between them carry no number.
    const messages = page.locator("#messages-partner-order-sequence > li");
    expect(await messages.first().innerText()).toBe(
      "Partner system → Order gateway: POST /api/v1/auth/login {client_id, client_secret}",
    );
    expect(await messages.nth(1).innerText()).toBe(
      "[credentials valid] Order gateway → Partner system: 200 {token, expired_at} (12 h)",
    );
    expect(await messages.nth(2).getAttribute("value")).toBe("3");
    const divider = page.locator("#messages-partner-order-sequence > li.divider");
    expect(await divider.innerText()).toBe(
      "The 201 is lost on the way: the partner times out and retries",
    );
    expect(await divider.getAttribute("value")).toBeNull();
    // Lifecycle: every transition in UML words; a state without a label is named by its kind.
    const transitions = page.locator("#transitions-sales-order-lifecycle > li");
    expect(await transitions.count()).toBe(9);
    expect(await transitions.first().innerText()).toBe(
      "start → Received: POST /api/v1/sales-orders / 201 with the stored order",
    );
    expect(await transitions.nth(1).innerText()).toBe(
      "Received → Accepted: accept [stock and prices confirmed]",
    );
    expect(await transitions.last().innerText()).toBe("Cancelled → end");
    // Architecture: the parts by boundary, nested as drawn, and the relationships with their
    // technology and kind in the console's words.
    const parts = page.locator("#parts-orderline-architecture");
    expect(await parts.locator(":scope > li").count()).toBe(4);
    expect(await parts.locator(":scope > li").first().innerText()).toBe(
      "Partner systems (external system · partner-sdk): Partners' ERPs and shops, through the partner SDK",
    );
    const cluster = parts.locator("li.boundary li.boundary", {
      hasText: "Gateway instances (cluster · Node.js 20)",
    });
    expect(await cluster.locator("li").first().innerText()).toBe(
      "Gateway instance 1 (container · Fastify): Orders API, signatures, tenants",
    );
    const relationships = page.locator("#relationships-orderline-architecture > li");
    expect(await relationships.count()).toBe(10);
    expect(await relationships.first().innerText()).toBe(
      "Partner systems → Gateway instance 1: submits signed orders [HTTPS, HMAC] (synchronous call)",
    );
    expect(await relationships.nth(4).innerText()).toBe(
      "Gateway instance 1 → Orders database: reads and writes [SQL/TLS] (data read or copied)",
    );
    expect(await relationships.nth(8).innerText()).toBe(
      "Tenant console → i18n engine: translates with (synchronous call)",
    );
    // Data flow: every flow with protocol and classification; those the diagram tool's own
    // boundaries report lists say which trust boundaries they leave and enter.
    const dataFlow = example("signed-order-data-flow");
    const crossing = (await loadType("data-flow")).reports?.boundaries?.rows(dataFlow) ?? [];
    const flows = page.locator("#flows-signed-order-data-flow > li");
    expect(await flows.count()).toBe(dataFlow.flows.length);
    expect(crossing.length).toBeGreaterThan(0);
    expect(await page.locator("#flows-signed-order-data-flow > li.crossing").count()).toBe(
      crossing.length,
    );
    expect(await flows.first().innerText()).toBe(
      "Partner sales staff → Partner system: Sales order (personal data)",
    );
    expect(await flows.nth(2).innerText()).toBe(
      "Partner system → Login: client_id, client_secret (HTTPS, confidential data) — crosses a trust boundary: leaves Partner network, Internet; enters Orderline gateway",
    );
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "integration.en");
    await page.getByLabel("Language", { exact: true }).selectOption("de");
    await page.getByText("Die Diagramme sind auf Englisch.").waitFor();
    expect(await transitions.first().innerText()).toBe(
      "Anfang → Received: POST /api/v1/sales-orders / 201 with the stored order",
    );
    expect(
      await page.locator("#transitions-sales-order-lifecycle em").first().getAttribute("lang"),
    ).toBe("de");
    expect(await flows.nth(2).innerText()).toBe(
      "Partner system → Login: client_id, client_secret (HTTPS, vertrauliche Daten) — überquert eine Vertrauensgrenze: verlässt Partner network, Internet; betritt Orderline gateway",
    );
    expect(await flows.nth(2).locator("span[lang=de]").count()).toBe(4);
    expect(await relationships.first().innerText()).toBe(
      "Partner systems → Gateway instance 1: submits signed orders [HTTPS, HMAC] (synchroner Aufruf)",
    );
    expect(untranslated(await page.locator("main").innerText())).toEqual([]);
    await screenshot(page, "integration.de");
    await switchLanguage(page, "Sprache", "en");
    await page.getByRole("heading", { level: 1, name: "Integration" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("scrolls a wide diagram inside its figure at 375 px, by keyboard too, not the page", async () => {
    const { context, page, errors } = await openIntegration({ width: 375, height: 740 });
    const region = page.getByRole("region", { name: DIAGRAM_TITLES["partner-order-sequence"] });
    await scrollsInsideNotPage(page, region);
    await region.focus();
    await page.keyboard.press("ArrowRight");
    // A smooth scroll on a loaded machine can take longer than expect.poll's default second.
    await expect
      .poll(() => region.evaluate((el) => el.scrollLeft), { timeout: 60_000 })
      .toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "integration.mobile.en");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("switches the architecture diagram between its views by keyboard, at 375 px too", async () => {
    const { context, page, errors } = await openIntegration({ width: 375, height: 740 });
    const title = DIAGRAM_TITLES["orderline-architecture"];
    const views = page.getByRole("group", { name: "View" });
    const radios = views.getByRole("radio");
    // Every view the description declares, in its order, the first one shown.
    const declared = example("orderline-architecture").views.map((v: { title: string }) => v.title);
    expect(await radios.evaluateAll((all) => all.map((r) => r.parentElement?.textContent))).toEqual(
      declared,
    );
    const image = page.getByRole("img", { name: `Diagram: ${title},` });
    const shown = async () => ({
      name: await image.getAttribute("alt"),
      src: await image.getAttribute("src"),
      loaded: await image.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0),
    });
    expect(await views.getByRole("radio", { name: declared[0] }).isChecked()).toBe(true);
    await views.getByRole("radio", { name: declared[0] }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await views.getByRole("radio", { name: declared[1] }).isChecked()).toBe(true);
    await expect.poll(shown).toEqual({
      name: `Diagram: ${title}, ${declared[1]}`,
      src: "/console/diagrams/orderline-architecture.containers.svg",
      loaded: true,
    });
    // The wider view scrolls inside its region; the page does not.
    const region = page.getByRole("region", { name: title });
    await scrollsInsideNotPage(page, region);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(async () => (await shown()).name).toBe(`Diagram: ${title}, ${declared[0]}`);
    expect(await axeViolations(page)).toEqual([]);
    await region.scrollIntoViewIfNeeded();
    await screenshot(page, "integration-views.mobile.en", { firstScreen: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("ends a session left alone for 12 hours, and says so", async () => {
    const { context, page, errors } = await open();
    await signIn(page);
    try {
      // The server session slides with use; twelve hours without a request end it.
      clock.offsetMs = 12 * 60 * 60 * 1000 + 60_000;
      await page.getByRole("link", { name: "Next page" }).click();
      await page.getByText("Your session has ended. Please sign in again.").waitFor();
      await page.getByRole("heading", { name: "Sign in" }).waitFor();
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    } finally {
      clock.offsetMs = 0;
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it("speaks Indonesian and German on the sign-in page too, before anyone signs in", async () => {
    const { context, page } = await open();
    await page.goto(`${gateway.base}/console/`);
    await page.getByLabel("Language", { exact: true }).selectOption("id");
    await page.getByRole("heading", { name: "Masuk", exact: true }).waitFor();
    expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("id");
    await screenshot(page, "sign-in.id");
    await page.getByLabel("Bahasa", { exact: true }).selectOption("de");
    await page.getByRole("heading", { name: "Anmelden", exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "sign-in.de");
    // The choice is this browser's; signing in then follows the profile language (English).
    await page.getByLabel("E-Mail").fill(gateway.member);
    await page.getByLabel("Passwort").fill(PASSWORD);
    await page.getByRole("button", { name: "Anmelden" }).click();
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    await context.close();
  });

  it("is usable at 375 px: nothing wider than the screen, every control reachable", async () => {
    const { context, page } = await open({ width: 375, height: 740 });
    await page.goto(`${gateway.base}/console/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await screenshot(page, "sign-in.mobile.en");
    await signIn(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "orders.mobile.en");
    await page.getByRole("link", { name: orders.at(-2)?.order_number }).click();
    await page
      .getByRole("heading", { level: 1, name: `Order ${orders.at(-2)?.order_number}` })
      .waitFor();
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
    await screenshot(page, "order.mobile.en");
    await context.close();
  });
});

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeInBrowser, launch, screenshot } from "./support/browser.js";
import { openPage, signIn } from "./support/console-page.js";
import { createOrders, PASSWORD, startTestGateway, type TestGateway } from "./support/gateway.js";

const COOKIE = "orderline_session";

/** The gateway's answer to a request carrying only this cookie (as a console tab sends it). */
const profileStatus = async (base: string, value: string) =>
  (await fetch(`${base}/v1/user/profile`, { headers: { cookie: `${COOKIE}=${value}` } })).status;

/** What the page shows on its sign-in form, in either language. */
const SIGN_IN = { en: "Sign in", de: "Anmelden" } as const;
const ORDER = { en: "Order", de: "Auftrag" } as const;
const BACK = { en: "Back to orders", de: "Zurück zu den Aufträgen" } as const;
const ENDED = {
  en: "Your session has ended. Please sign in again.",
  de: "Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.",
} as const;

/**
 * The console's server session in a real Chromium: the cookie's attributes, tabs that share it,
 * sign-out that ends it on the server, and a cross-site form post that is refused.
 */
describeInBrowser("console sessions in a browser", () => {
  let gateway: TestGateway;
  let browser: Browser;
  let order: { order_number: string; id: string };
  const german = "lager@acme.example";

  beforeAll(async () => {
    gateway = await startTestGateway();
    await gateway.gw.users.create({
      tenantId: gateway.tenantId,
      email: german,
      role: "member",
      password: PASSWORD,
      language: "de",
    });
    [order] = (await createOrders(gateway.base, gateway.partner, 1)) as [typeof order];
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  /** Signs in by the form (the German user's UI turns German after sign-in). */
  const signInAs = async (page: Page, email: string) => {
    if (email === gateway.admin) return signIn(page, gateway.base, email);
    await page.goto(`${gateway.base}/console/#/orders`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Aufträge" }).waitFor();
  };

  for (const [language, email] of [
    ["en", () => gateway.admin],
    ["de", () => german],
  ] as const) {
    it(`(${language}) keeps the session in an HttpOnly cookie that a Ctrl+click tab shares; sign-out ends it on the server`, async () => {
      const { context, page, errors } = await openPage(browser);
      await signInAs(page, email());
      const [cookie, ...others] = (await context.cookies()).filter((c) => c.name === COOKIE);
      expect(others).toEqual([]);
      // Chromium keeps a Secure cookie from http://127.0.0.1 (a secure context).
      expect(cookie).toMatchObject({
        httpOnly: true,
        secure: true,
        sameSite: "Strict",
        path: "/v1",
        domain: "127.0.0.1",
      });
      expect(await page.evaluate(() => document.cookie)).not.toContain(COOKIE);
      expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(
        cookie?.value ?? "-",
      );

      // Desk work: an order opened in a second tab with Ctrl+click is signed in.
      const opened = context.waitForEvent("page");
      await page.getByRole("link", { name: order.order_number }).click({ modifiers: ["Control"] });
      const tab = await opened;
      await tab
        .getByRole("heading", { level: 1, name: `${ORDER[language]} ${order.order_number}` })
        .waitFor();
      await screenshot(tab, `second-tab.${language}`);

      // Sign-out in the first tab ends the session on the server at once …
      expect(await profileStatus(gateway.base, cookie?.value ?? "")).toBe(200);
      await page.getByRole("button", { name: language === "en" ? "Sign out" : "Abmelden" }).click();
      await page.getByRole("heading", { name: SIGN_IN[language] }).waitFor();
      expect(await profileStatus(gateway.base, cookie?.value ?? "")).toBe(401);
      expect((await context.cookies()).filter((c) => c.name === COOKIE)).toEqual([]);
      // … and the second tab, on its next call, is back at sign-in, told why.
      await tab.getByRole("link", { name: BACK[language] }).click();
      await tab.getByText(ENDED[language]).waitFor();
      await tab.getByRole("heading", { name: SIGN_IN[language] }).waitFor();
      await screenshot(tab, `session-ended.${language}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("refuses a form posted from another site, with a problem+json code", async () => {
    const { context, page } = await openPage(browser);
    await signIn(page, gateway.base, gateway.admin);
    const before = (await gateway.gw.team.list(gateway.tenantId)).length;
    // Another site's page that posts a form to the gateway as soon as it loads.
    await page.route("https://evil.example/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<form method="post" action="${gateway.base}/v1/tenant/users"><input name="email" value="intruder@evil.example"><input name="role" value="admin"></form><script>document.forms[0].submit()</script>`,
      }),
    );
    const answered = page.waitForResponse(`${gateway.base}/v1/tenant/users`);
    await page.goto("https://evil.example/");
    const response = await answered;
    expect(response.status()).toBe(403);
    expect(response.headers()["content-type"]).toContain("application/problem+json");
    expect(((await response.json()) as { code: string }).code).toBe("cross_site_refused");
    expect((await gateway.gw.team.list(gateway.tenantId)).length).toBe(before);
    await context.close();
  });

  it("an admin sees a colleague's open sessions and ends them; the colleague is told in German", async () => {
    const colleague = await openPage(browser);
    await signInAs(colleague.page, german);
    const admin = await openPage(browser);
    await signIn(admin.page, gateway.base, gateway.admin);
    await admin.page.getByRole("link", { name: "Team" }).click();
    const card = admin.page.getByTestId("member").filter({ hasText: german });
    await card.getByRole("button", { name: "Sessions" }).click();
    const sessions = card.getByTestId("member-sessions");
    await sessions.getByRole("button", { name: "End session" }).waitFor();
    expect(await sessions.locator("li").count()).toBe(1);
    expect(await sessions.innerText()).toContain("from 127.0.0.1");
    await screenshot(admin.page, "member-sessions.en");
    await sessions.getByRole("button", { name: "End session" }).click();
    await sessions.getByText("Session ended: it is signed out everywhere.").waitFor();
    await sessions.getByText("No open sessions.").waitFor();

    // The colleague's next call finds the session ended.
    await colleague.page.getByRole("link", { name: "Team" }).click();
    await colleague.page.getByText(ENDED.de).waitFor();
    await colleague.page.getByRole("heading", { name: SIGN_IN.de }).waitFor();
    expect(colleague.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await colleague.context.close();
    await admin.context.close();
  });

  for (const [locale, heading] of [
    ["id-ID", "Masuk"],
    ["de-DE", "Anmelden"],
  ] as const) {
    it(`greets a first visit from a ${locale} browser in its language`, async () => {
      const context = await browser.newContext({ locale });
      const page = await context.newPage();
      await page.goto(`${gateway.base}/console/`);
      await page.getByRole("heading", { name: heading }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale.slice(0, 2));
      await screenshot(page, `sign-in.browser-${locale}`);
      await context.close();
    });
  }

  it("an Indonesian admin invites in Indonesian; the set-password page opens in Indonesian", async () => {
    const indonesian = "kepala@acme.example";
    await gateway.gw.users.create({
      tenantId: gateway.tenantId,
      email: indonesian,
      role: "admin",
      password: PASSWORD,
      language: "id",
    });
    const { context, page } = await openPage(browser);
    await page.goto(`${gateway.base}/console/`);
    await page.getByLabel("Email").fill(indonesian);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    // Her console speaks Indonesian once she is signed in: the invite form too.
    await page.getByRole("heading", { level: 1, name: "Ikhtisar" }).waitFor();
    await page.getByRole("link", { name: "Tim" }).click();
    await page.getByLabel("Email", { exact: true }).fill("baru@acme.example");
    await page.getByLabel("Nama mereka (opsional)").fill("Dewi Baru");
    const language = page.getByLabel("Bahasa orang itu");
    // The invitee's language starts as the inviter's own.
    expect(await language.inputValue()).toBe("id");
    await language.selectOption("id");
    await page.getByRole("button", { name: "Undang" }).click();
    const link = await page.getByTestId("password-link").innerText();
    await context.close();
    const invited = await gateway.gw.store.tenants.findUserByEmail("baru@acme.example");
    expect(invited).toMatchObject({ language: "id", displayName: "Dewi Baru" });
    // The invitee's browser is English; the page speaks Indonesian, as the inviter chose.
    const invitee = await openPage(browser);
    await invitee.page.goto(link);
    await invitee.page.getByRole("heading", { name: "Pilih kata sandi Anda" }).waitFor();
    await invitee.page.getByText("Untuk akun baru@acme.example.").waitFor();
    await screenshot(invitee.page, "set-password.invited-id");
    expect(invitee.errors).toEqual([]);
    await invitee.context.close();
  });
});

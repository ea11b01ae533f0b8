import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  axeViolations,
  describeInBrowser,
  launch,
  screenshot,
  untranslated,
} from "./support/browser.js";
import { openPage, signIn } from "./support/console-page.js";
import { startTestGateway, type TestGateway } from "./support/gateway.js";

const NEW_PASSWORD = "a fresh password of my own";
const TENANT_WORDS = "orderline-i18n:tenant-words:";

/** The page is no wider than the screen: nothing scrolls sideways. */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const tenantEntries = (page: Page) =>
  page.evaluate(
    (prefix) => Object.keys(localStorage).filter((key) => key.startsWith(prefix)).length,
    TENANT_WORDS,
  );

/**
 * Team management in a real Chromium against the real gateway: an admin invites a colleague,
 * the colleague sets a password through the link and signs in, the Activity page shows it.
 */
describeInBrowser("team and activity in a browser", () => {
  let gateway: TestGateway;
  let browser: Browser;
  let link = "";

  beforeAll(async () => {
    gateway = await startTestGateway();
    // A word of the tenant, so the console caches the tenant's words in localStorage.
    await gateway.gw.vocabulary.replace(
      gateway.tenantId,
      "common",
      "en",
      { app: { tagline: "Acme orders" } },
      null,
    );
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  it("an admin invites a colleague and copies the one-time link; sign-out leaves no tenant data", async () => {
    const { context, page, errors } = await openPage(browser);
    await signIn(page, gateway.base, gateway.admin);
    await expect.poll(() => tenantEntries(page)).toBeGreaterThan(0);
    await page.getByRole("link", { name: "Team" }).click();
    await page.getByRole("heading", { level: 1, name: "Team" }).waitFor();
    await page.getByLabel("Email").fill("newbie@acme.example");
    await page.getByLabel("Role").selectOption("member");
    await page.getByRole("button", { name: "Invite" }).click();
    const shown = page.getByTestId("password-link");
    await shown.waitFor();
    link = await shown.innerText();
    expect(link).toMatch(/\/console\/#\/set-password\?token=/);
    expect(await page.getByText("Copy it and give it to them yourself.").count()).toBe(1);
    expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "team-link.en");
    await page.getByRole("button", { name: "Done" }).click();
    await expect.poll(() => page.getByTestId("member").count()).toBe(3);
    expect(
      await page.getByTestId("member").filter({ hasText: "newbie@acme.example" }).innerText(),
    ).toContain("Invited");

    // The last admin cannot demote themself: told why, in the page's language.
    const self = page.getByTestId("member").filter({ hasText: "(you)" });
    await self.getByRole("button", { name: "Make member" }).click();
    await expect
      .poll(() => page.getByRole("alert").innerText())
      .toContain("Your team needs at least one active admin.");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await tenantEntries(page)).toBe(0);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("the colleague opens the link, sets a password and is signed in; the link works once", async () => {
    const { context, page } = await openPage(browser, { width: 390, height: 844 });
    await page.goto(link);
    await page.getByText("For the account newbie@acme.example.").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "set-password.phone.en");
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByLabel("Repeat the password").fill("something else entirely");
    await page.getByRole("button", { name: "Save password and sign in" }).click();
    await expect
      .poll(() => page.getByRole("alert").innerText())
      .toBe("The two passwords are not the same.");
    await page.getByLabel("Repeat the password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Save password and sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
    expect(await page.getByText("Signed in as newbie@acme.example (Acme Trading)").count()).toBe(1);
    // A member sees the team read-only. (By address: on a phone the links may sit in a menu.)
    await page.evaluate(() => {
      window.location.hash = "#/team";
    });
    await page.getByText("Only admins can change it.").waitFor();
    expect(await page.getByRole("button", { name: "Invite" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Activity" }).count()).toBe(0);

    const again = await openPage(browser);
    await again.page.goto(link);
    await again.page.getByRole("alert").waitFor();
    expect(await again.page.getByRole("alert").innerText()).toContain("This link no longer works");
    await again.context.close();
    await context.close();
  });

  it("a colleague disabled while signed in is signed out at their next step, leaving nothing of the tenant", async () => {
    const { context, page } = await openPage(browser);
    await signIn(page, gateway.base, gateway.member);
    await expect.poll(() => tenantEntries(page)).toBeGreaterThan(0);
    const member = await gateway.gw.store.tenants.findUserByEmail(gateway.member);
    if (!member) throw new Error("member missing");
    await gateway.gw.team.setDisabled(gateway.tenantId, member.id, true);
    try {
      await page.getByRole("link", { name: "Team" }).click();
      await page.getByText("Your session has ended. Please sign in again.").waitFor();
      expect(await tenantEntries(page)).toBe(0);
      expect(
        await page.evaluate(() => sessionStorage.getItem("orderline-console:session")),
      ).toBeNull();
    } finally {
      await gateway.gw.team.setDisabled(gateway.tenantId, member.id, false);
    }
    await context.close();
  });

  it("'Forgot password?' tells the user to ask an admin when the gateway sends no mail", async () => {
    const { context, page } = await openPage(browser, { width: 390, height: 844 });
    await page.goto(`${gateway.base}/console/`);
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await page.getByLabel("Email").last().fill("anyone@acme.example");
    await page.getByRole("button", { name: "Send me a link" }).click();
    await page.getByText("Ask an admin of your team for a reset link").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "forgot-password.phone.en");
    await context.close();
  });

  it("the Activity page lists who did what, filters, pages, exports; in three languages, on a phone", async () => {
    const { context, page, errors } = await openPage(browser);
    await signIn(page, gateway.base, gateway.admin);
    await page.getByRole("link", { name: "Activity" }).click();
    await page.getByRole("heading", { level: 1, name: "Activity" }).waitFor();
    const rows = page.getByTestId("audit-event");
    await rows.first().waitFor();
    const text = await page.locator("tbody").innerText();
    expect(text).toContain("Invited a user");
    expect(text).toContain("Set their password");
    expect(text).toContain("newbie@acme.example");
    expect(text).toContain("127.0.0.1");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "activity.en");

    await page.getByLabel("Concerning").selectOption("user");
    await page.getByLabel("Action (e.g. user_invited)").fill("user_invited");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(() => rows.count()).toBe(1);
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const csv = await (await download).createReadStream();
    let body = "";
    for await (const chunk of csv) body += chunk;
    expect(body.split("\r\n")[1]).toContain("user_invited");

    for (const [label, language, heading] of [
      ["Language", "de", "Aktivität"],
      ["Sprache", "id", "Aktivitas"],
    ] as const) {
      await page.getByLabel(label, { exact: true }).selectOption(language);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "activity.phone.id");
    expect(errors).toEqual([]);
    await context.close();
  });
});

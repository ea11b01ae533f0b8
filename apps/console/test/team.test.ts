import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  axeViolations,
  describeInBrowser,
  launch,
  screenshot,
  untranslated,
} from "./support/browser.js";
import { confirmDialog, openPage, signIn } from "./support/console-page.js";
import { PASSWORD, startTestGateway, type TestGateway } from "./support/gateway.js";

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
    await page.getByLabel("Email", { exact: true }).fill("newbie@acme.example");
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
    await confirmDialog(page);
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
    await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
    expect(await page.getByText("Signed in as newbie@acme.example (Acme Trading)").count()).toBe(1);
    // A member sees the team read-only. (By address: on a phone the links may sit in a menu.)
    await page.evaluate(() => {
      window.location.hash = "#/team";
    });
    await page.getByText("Only admins can change it.").waitFor();
    expect(await page.getByRole("button", { name: "Invite" }).count()).toBe(0);
    // A member renames only themself (through their profile).
    expect(await page.getByRole("button", { name: "Rename" }).count()).toBe(1);
    await page
      .getByTestId("member")
      .filter({ hasText: "(you)" })
      .getByRole("button", { name: "Rename" })
      .click();
    await page.getByRole("dialog", { name: "Your name" }).getByLabel("Name").fill(" Nina Baru ");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByText("newbie@acme.example is now called Nina Baru.").waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(
      (await gateway.gw.store.tenants.findUserByEmail("newbie@acme.example"))?.displayName,
    ).toBe("Nina Baru");
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
    await page.getByLabel("Action", { exact: true }).selectOption({ label: "Invited a user" });
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
  /** A colleague of the tenant with a display name, for the tests below. */
  const colleague = async (email: string, name: string) => {
    const user = await gateway.gw.users.create({
      tenantId: gateway.tenantId,
      email,
      role: "member",
      password: NEW_PASSWORD,
    });
    await gateway.gw.team.rename(gateway.tenantId, user.user_id, name);
    return user.user_id;
  };
  const stored = (id: string) => gateway.gw.team.member(gateway.tenantId, id);
  /** The admin's profile language (the Activity test above leaves it Indonesian). */
  const adminSpeaks = async (language: string) => {
    const admin = await gateway.gw.store.tenants.findUserByEmail(gateway.admin);
    if (!admin) throw new Error("admin missing");
    await gateway.gw.store.tenants.setUserLanguage(admin.id, language, Date.now());
  };
  const rows = (page: Page) => page.getByTestId("member");
  const notice = (page: Page) => page.locator("p.notice[role=status]");

  it("the team is a table searched by name or email; role changes and disabling ask first, naming the person, and say what changed", async () => {
    const siti = await colleague("siti@acme.example", "Siti Rahayu");
    const budi = await colleague("budi@acme.example", "Budi Santoso");
    await adminSpeaks("en");
    const { context, page, errors } = await openPage(browser);
    await signIn(page, gateway.base, gateway.admin);
    await page.getByRole("link", { name: "Team" }).click();
    await rows(page).filter({ hasText: "Siti Rahayu" }).waitFor();
    const total = await rows(page).count();
    // Existing users without a name are shown by their email.
    expect(await rows(page).filter({ hasText: gateway.member }).innerText()).toContain(
      "No name yet",
    );

    // The admin names themself: the header follows.
    const self = rows(page).filter({ hasText: "(you)" });
    await self.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("dialog").getByLabel("Name").fill("Ayu Pratiwi");
    await page.getByRole("dialog").getByRole("button", { name: "Save name" }).click();
    await page.getByText("Signed in as Ayu Pratiwi (Acme Trading)").waitFor();

    const search = page.getByLabel("Search by name or email");
    await search.fill("rahayu");
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).innerText()).toContain("siti@acme.example");
    await search.fill("BUDI@acme");
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).innerText()).toContain("Budi Santoso");
    await search.fill("nobody at all");
    await page.getByText("No one matches “nobody at all”.").waitFor();
    expect(await rows(page).count()).toBe(0);
    await search.fill("");
    await expect.poll(() => rows(page).count()).toBe(total);

    // Cancel changes nothing: the role stays, nothing is announced.
    const sitiRow = rows(page).filter({ hasText: "Siti Rahayu" });
    await sitiRow.getByRole("button", { name: "Make admin" }).click();
    const dialog = page.getByRole("dialog", {
      name: "Make Siti Rahayu an admin? Admins change the team, partners and webhooks.",
    });
    await dialog.getByRole("button", { name: "Keep as it is" }).click();
    await dialog.waitFor({ state: "detached" });
    expect((await stored(siti)).role).toBe("member");
    // The only notice is the one of the renaming before: nothing was said about Siti.
    expect((await notice(page).allInnerTexts()).join(" ")).toBe(
      `${gateway.admin} is now called Ayu Pratiwi.`,
    );
    // Confirmed: changed, and said in a status notice naming her.
    await sitiRow.getByRole("button", { name: "Make admin" }).click();
    await confirmDialog(page);
    await notice(page).getByText("Siti Rahayu is now an admin.").waitFor();
    await expect.poll(async () => (await stored(siti)).role).toBe("admin");
    await sitiRow.getByText("Admin", { exact: true }).waitFor();

    const budiRow = rows(page).filter({ hasText: "Budi Santoso" });
    await budiRow.getByRole("button", { name: "Disable" }).click();
    await page
      .getByRole("dialog", {
        name: "Disable Budi Santoso? They are signed out everywhere at once.",
      })
      .getByRole("button", { name: "Keep as it is" })
      .click();
    expect((await stored(budi)).disabledAt ?? null).toBeNull();
    await budiRow.getByRole("button", { name: "Disable" }).click();
    await confirmDialog(page);
    await notice(page).getByText("Budi Santoso is disabled and signed out everywhere.").waitFor();
    expect((await stored(budi)).disabledAt).not.toBeNull();
    expect(await axeViolations(page)).toEqual([]);
    expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    await screenshot(page, "team.desktop.en");

    // The Activity page names the actor by her name, her email beside it.
    await page.getByRole("link", { name: "Activity" }).click();
    const first = page.getByTestId("audit-event").first();
    await first.waitFor();
    expect(await first.innerText()).toContain("Ayu Pratiwi");
    expect(await first.innerText()).toContain(gateway.admin);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("in Indonesian: search, a cancelled and a confirmed role change, announced in Indonesian", async () => {
    const wayan = await colleague("wayan@acme.example", "I Wayan Sudirta");
    // An Indonesian admin: the console follows her profile's language when she signs in.
    await adminSpeaks("id");
    const { context, page, errors } = await openPage(browser);
    await page.goto(`${gateway.base}/console/`);
    await page.getByLabel("Email").fill(gateway.admin);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Ikhtisar" }).waitFor();
    await page.getByRole("link", { name: "Tim" }).click();
    await page.getByLabel("Cari berdasarkan nama atau email").fill("sudirta");
    await expect.poll(() => rows(page).count()).toBe(1);
    const row = rows(page).filter({ hasText: "I Wayan Sudirta" });
    await row.getByRole("button", { name: "Jadikan admin" }).click();
    const asked = page.getByRole("dialog", {
      name: "Jadikan I Wayan Sudirta admin? Admin dapat mengubah tim, mitra, dan webhook.",
    });
    await asked.getByRole("button", { name: "Biarkan" }).click();
    await asked.waitFor({ state: "detached" });
    expect((await stored(wayan)).role).toBe("member");
    expect(await notice(page).count()).toBe(0);
    await row.getByRole("button", { name: "Jadikan admin" }).click();
    await confirmDialog(page);
    await notice(page).getByText("I Wayan Sudirta sekarang admin.").waitFor();
    expect((await stored(wayan)).role).toBe("admin");
    expect(untranslated(await page.locator("body").innerText())).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "team.desktop.id");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("on a phone each member is a card; a 200-character name does not widen the page", async () => {
    const long = "W".repeat(200);
    await colleague("long@acme.example", long);
    await adminSpeaks("en");
    const { context, page, errors } = await openPage(browser, { width: 390, height: 844 });
    await signIn(page, gateway.base, gateway.admin);
    await page.evaluate(() => {
      window.location.hash = "#/team";
    });
    await rows(page).filter({ hasText: "long@acme.example" }).waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    // Every card fits the screen, and its buttons are on it.
    const widths = await rows(page).evaluateAll((cards) =>
      cards.map((card) => card.getBoundingClientRect().right),
    );
    for (const right of widths) expect(right).toBeLessThanOrEqual(390);
    await page.getByLabel("Search by name or email").fill("long@");
    await expect.poll(() => rows(page).count()).toBe(1);
    const button = rows(page).getByRole("button", { name: "Make admin" });
    expect((await button.boundingBox())?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "team.phone.en");
    await page.getByLabel("Search by name or email").fill("");
    await screenshot(page, "team.phone.all.en");
    expect(errors).toEqual([]);
    await context.close();
  });
});

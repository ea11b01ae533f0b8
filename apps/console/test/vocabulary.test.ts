import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { axeViolations, describeInBrowser, launch, screenshot } from "./support/browser.js";
import { goTo, openPage, revealInMenu, signIn, switchLanguage } from "./support/console-page.js";
import { createOrders, startTestGateway, type TestGateway } from "./support/gateway.js";

/** The page's text as a user reads it: without the in-context mode's invisible marks. */
const visible = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => (el as HTMLElement).innerText.replace(/\u2063[\u200c\u200d]+/g, ""));

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * The tenant's vocabulary in a real chromium against the real gateway: the vocabulary page
 * (search, changed only, three languages, history, revert) and the in-context mode on any page.
 */
describeInBrowser("vocabulary in the console", () => {
  let gateway: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    gateway = await startTestGateway();
    await createOrders(gateway.base, gateway.partner, 2);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  const stored = async (namespace: string, language: string) =>
    JSON.parse((await gateway.gw.vocabulary.read(gateway.tenantId, namespace, language)).json).data
      .overrides;

  it("finds words by text or key, shows three languages, refuses an unknown placeholder at its field, and reverts from the history", async () => {
    const { context, page, errors } = await openPage(browser);
    await signIn(page, gateway.base, gateway.admin);
    await page.getByRole("link", { name: "Vocabulary" }).click();
    await page.getByRole("heading", { level: 1, name: "Vocabulary" }).waitFor();
    const count = page.getByTestId("vocabulary-count");
    // The status says how many of the words the list draws.
    await expect.poll(() => count.innerText()).toMatch(/^(\d+) of \1 words, the first 50 shown$/);
    // The area list names every area, webhooks included.
    expect(
      await page.getByLabel("Area", { exact: true }).locator("option").allInnerTexts(),
    ).toContain("Webhooks");
    for (const column of ["English", "Bahasa Indonesia", "Deutsch"]) {
      await page.getByRole("columnheader", { name: column }).waitFor();
    }
    // The list draws its first 50 words; each "Show more words" 50 more.
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(50);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "vocabulary.en");
    // What the first screen shows, too.
    await screenshot(page, "vocabulary-first-screen.en", { firstScreen: true });
    await page.getByRole("button", { name: "Show more words" }).click();
    await expect.poll(() => rows.count()).toBe(100);
    await expect.poll(() => count.innerText()).toMatch(/^(\d+) of \1 words, the first 100 shown$/);

    // Search over the current text…
    await page.getByRole("searchbox", { name: "Search words and keys" }).fill("back to ORDERS");
    await expect.poll(() => count.innerText()).toMatch(/^1 of \d+ words$/);
    // …and over keys. The default text is the row's label, the key beside it.
    await page.getByRole("searchbox", { name: "Search words and keys" }).fill("detail.title");
    const row = page.locator("tbody tr").first();
    // Both searches find one word, so the count alone does not say the list has changed: wait
    // for the row itself.
    await expect.poll(() => row.locator("th .word-label").innerText()).toBe("Order {{number}}");
    await expect.poll(() => count.innerText()).toMatch(/^1 of \d+ words$/);
    expect(await row.locator("th code").innerText()).toBe("detail.title");
    expect(await row.locator("td[lang=de]").innerText()).toBe("Auftrag {{number}}");

    await page.getByRole("button", { name: "Edit “Order {{number}}”" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit “Order {{number}}”" });
    const german = dialog.getByLabel("Your word in Deutsch");
    await expect.poll(() => german.isEnabled()).toBe(true);
    await german.fill("Auftrag {{evil}}");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => german.getAttribute("aria-invalid")).toBe("true");
    expect(await dialog.locator(".field-error").innerText()).toBe(
      "The standard text has no {{evil}}; use only {{number}}.",
    );
    expect(await stored("orders", "de")).toEqual({});
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "vocabulary-dialog-refused.en");

    await german.fill("Bestellung {{number}}");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect
      .poll(() => row.locator("td[lang=de]").innerText())
      .toContain("Bestellung {{number}}");
    expect(await row.locator("td[lang=de] .badge").innerText()).toBe("changed");
    await page.getByRole("button", { name: "Edit “Order {{number}}”" }).click();
    await expect.poll(() => german.inputValue()).toBe("Bestellung {{number}}");
    await german.fill("Auftragsnummer {{number}}");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await stored("orders", "de")).toEqual({
      detail: { title: "Auftragsnummer {{number}}" },
    });

    // Changed only: just this key.
    await page.getByRole("searchbox", { name: "Search words and keys" }).fill("");
    await page.getByRole("checkbox", { name: "Changed only" }).check();
    await expect.poll(() => count.innerText()).toMatch(/^1 of \d+ words$/);

    // The history, newest first, and a revert to the first word.
    await page.getByRole("button", { name: "Edit “Order {{number}}”" }).click();
    const history = dialog.getByRole("region", { name: "History" });
    await expect.poll(() => history.locator("li").count()).toBe(2);
    expect(await history.locator("li").first().innerText()).toContain("Auftragsnummer {{number}}");
    expect(await history.locator("li").first().innerText()).toContain(gateway.admin);
    await screenshot(page, "vocabulary-history.en");
    await history
      .getByRole("button", { name: "Put back “Bestellung {{number}}” in Deutsch" })
      .click();
    await expect.poll(() => german.inputValue()).toBe("Bestellung {{number}}");
    await expect.poll(() => history.locator("li").count()).toBe(3);
    expect(await stored("orders", "de")).toEqual({ detail: { title: "Bestellung {{number}}" } });
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a 390 px screen: the list scrolls inside its region, the dialog fits", async () => {
    const { context, page } = await openPage(browser, { width: 390, height: 844 });
    await signIn(page, gateway.base, gateway.admin);
    await page.goto(`${gateway.base}/console/#/vocabulary`);
    await page.getByTestId("vocabulary-count").waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "vocabulary.mobile.en");
    await screenshot(page, "vocabulary-first-screen.mobile.en", { firstScreen: true });
    await page.getByRole("searchbox", { name: "Search words and keys" }).fill("sign out");
    await page.getByRole("button", { name: "Edit “Sign out”" }).click();
    await page.getByRole("dialog").getByLabel("Your word in English").waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "vocabulary-dialog.mobile.en");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

    // The in-context mode on the orders page fits too, with its bar and the word dialog.
    await goTo(page, "Orders");
    await page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
    const editWords = page.getByRole("button", { name: "Edit words on this page" });
    await revealInMenu(page, editWords);
    await editWords.click();
    await page.getByRole("button", { name: "Stop editing words" }).waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "in-context-on.mobile.en");
    await page.getByRole("heading", { level: 1 }).click();
    await page.getByRole("dialog").getByLabel("Your word in English").waitFor();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Stop editing words" }).click();
    await context.close();
  });

  it("lets an admin turn on in-context mode and rename a word by clicking it on the orders page, in German; another signed-in browser shows it within 10 s without reload", async () => {
    // A second browser: a member of the tenant on the orders page, in German.
    const other = await openPage(browser);
    await signIn(other.page, gateway.base, gateway.member);
    await other.page.getByLabel("Language", { exact: true }).selectOption("de");
    await other.page.getByRole("heading", { level: 1, name: "Aufträge" }).waitFor();
    await other.page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    const { context, page, errors } = await openPage(browser);
    await signIn(page, gateway.base, gateway.admin);
    await page.getByLabel("Language", { exact: true }).selectOption("de");
    await page.getByRole("heading", { level: 1, name: "Aufträge" }).waitFor();
    const toggle = page.getByRole("button", { name: "Wörter auf dieser Seite bearbeiten" });
    await toggle.click();
    await page.getByRole("button", { name: "Wörter bearbeiten beenden" }).waitFor();
    expect(await visible(page, "h1")).toBe("Aufträge");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "in-context-on.de");

    // A click on the heading edits its word instead of doing anything else.
    await page.getByRole("heading", { level: 1 }).click();
    const dialog = page.getByRole("dialog");
    const german = dialog.getByLabel("Ihr Wort auf Deutsch");
    await expect.poll(() => german.isEnabled()).toBe(true);
    expect(await dialog.locator("code").innerText()).toBe("title");
    await german.fill("Bestellungen {{evil}}");
    await dialog.getByRole("button", { name: "Speichern" }).click();
    await expect.poll(() => german.getAttribute("aria-invalid")).toBe("true");
    await german.fill("Bestellungen");
    await dialog.getByRole("button", { name: "Speichern" }).click();
    await dialog.waitFor({ state: "detached" });
    // The page shows the new word at once, without a reload.
    await expect.poll(() => visible(page, "h1")).toBe("Bestellungen");
    expect((await stored("orders", "de")).title).toBe("Bestellungen");
    // The other browser too, through the tenant event stream, within 10 s and without a reload.
    const seen = Date.now();
    await other.page
      .getByRole("heading", { level: 1, name: "Bestellungen" })
      .waitFor({ timeout: 60_000 });
    expect(Date.now() - seen).toBeLessThan(10_000);
    expect(
      await other.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).toBe(true);
    await screenshot(other.page, "in-context-live-other-browser.de");
    expect(other.errors).toEqual([]);
    // Back to English for the next test (the language is the user's profile).
    await switchLanguage(other.page, "Sprache", "en");
    await other.page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
    await other.context.close();

    // A click on a link in the header edits the link's word; the page does not change.
    await page.getByRole("link", { name: "Aufträge" }).click();
    await dialog.waitFor();
    expect(await dialog.locator("code").innerText()).toBe("nav.orders");
    await dialog.getByRole("button", { name: "Abbrechen" }).click();
    await dialog.waitFor({ state: "detached" });

    // Off again: plain text, and links work as links.
    await page.getByRole("button", { name: "Wörter bearbeiten beenden" }).click();
    expect(await page.locator("h1").innerText()).toBe("Bestellungen");
    await switchLanguage(page, "Sprache", "en");
    await page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the tenant's brand name (the demo's seeded word) on every page", async () => {
    await gateway.gw.vocabulary.replace(
      gateway.tenantId,
      "common",
      "en",
      { app: { name: "Demo Orders" } },
      null,
    );
    const { context, page } = await openPage(browser, { width: 390, height: 844 });
    await signIn(page, gateway.base, gateway.member);
    await expect.poll(() => page.locator(".brand").innerText()).toBe("Demo Orders");
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await context.close();
  });
});

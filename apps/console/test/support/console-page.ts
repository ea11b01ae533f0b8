import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { PASSWORD } from "./gateway.js";

/**
 * A fresh browser context and page, collecting the page's errors. bypassCSP only so tests can
 * inject axe-core; the app itself runs under the CSP.
 */
export const openPage = async (
  browser: Browser,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> => {
  const context = await browser.newContext({ viewport, bypassCSP: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    // Refused requests a test provokes (a 422, a 412) are logged by chromium itself; not app errors.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      errors.push(message.text());
    }
  });
  return { context, page, errors };
};

/**
 * Signs in with the keyboard only: Tab between fields, Enter submits. Each field's text goes in
 * as one input (as a paste or an input method enters it); with `typed`, one key press per
 * character, as the test about signing in by keyboard does.
 */
export const signIn = async (
  page: Page,
  base: string,
  email: string,
  { typed = false } = {},
): Promise<void> => {
  const enter = (text: string) =>
    typed ? page.keyboard.type(text) : page.keyboard.insertText(text);
  // Straight to the orders (the landing page is the Overview): the tests that sign in this way
  // start on the desk. A route opened while signed out is where signing in leads.
  await page.goto(`${base}/console/#/orders`);
  await page.getByLabel("Email").focus();
  await enter(email);
  await page.keyboard.press("Tab");
  await enter(PASSWORD);
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
};

/** Opens the phone's menu (by its button) when `target`, which lives in it, is not shown. */
export const revealInMenu = async (page: Page, target: Locator): Promise<void> => {
  if (!(await target.isVisible())) await page.locator(".menu-toggle").click();
};

/**
 * Follows a link of the header's navigation. On a phone the links are in the menu: opened
 * first (by its button) when they are not shown.
 */
export const goTo = async (page: Page, link: string): Promise<void> => {
  // The name may go on with what the link counts ("Orders 3 orders awaiting action").
  const name = new RegExp(`^${link.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s|$)`);
  const target = page.getByRole("navigation").getByRole("link", { name });
  await revealInMenu(page, target);
  await target.click();
};

/** Says yes in the console's confirm dialog (its second button goes ahead) and waits for it to close. */
export const confirmDialog = async (page: Page): Promise<void> => {
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button").nth(1).click();
  await dialog.waitFor({ state: "detached" });
};

/**
 * Chooses `code` in the header's language switcher (`switcher`, or the field labelled so in the
 * language shown) as a signed-in user, and waits for the gateway's answer to the profile change
 * it sends. The page switches at once (the change is optimistic): a test that closed its page as
 * soon as the words changed could end it before the change was saved, and that account's next
 * sign-in, in a later test, came up in the old language.
 */
export const switchLanguage = async (
  page: Page,
  switcher: string | Locator,
  code: string,
): Promise<void> => {
  const saved = page.waitForResponse(
    (response) =>
      response.request().method() === "PATCH" && response.url().endsWith("/v1/user/profile"),
  );
  const select =
    typeof switcher === "string" ? page.getByLabel(switcher, { exact: true }) : switcher;
  await select.selectOption(code);
  const answer = await saved;
  if (answer.status() !== 200) throw new Error(`language ${code} not saved: ${answer.status()}`);
};

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  axeViolations,
  describeInBrowser,
  launch,
  screenshot,
  untranslated,
} from "./support/browser.js";
import { openPage, signIn, switchLanguage } from "./support/console-page.js";
import { createOrders, PASSWORD, startTestGateway, type TestGateway } from "./support/gateway.js";

/**
 * The order lifecycle in the console: a real chromium, the real gateway (fresh SQLite store,
 * free port). Every test takes its own orders, so they do not depend on each other's order.
 */
describeInBrowser("order actions and history in a browser", () => {
  let gateway: TestGateway;
  let browser: Browser;
  let orders: { order_number: string; id: string }[];
  let taken = 0;
  /** An order no other test has touched (status received, version 1). */
  const fresh = () => orders[taken++] as { order_number: string; id: string };
  /** How the console names an order: its number with its partner (numbers repeat across partners). */
  const named = (order: { order_number: string }) => `${order.order_number} (Harbour Retail)`;

  beforeAll(async () => {
    gateway = await startTestGateway();
    orders = await createOrders(gateway.base, gateway.partner, 10);
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  /** Someone else, elsewhere: a tenant user acting through the API behind the page's back. */
  const actBehindTheBack = async (id: string, action: string, reason?: string) => {
    const login = await fetch(`${gateway.base}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: gateway.admin, password: PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const response = await fetch(`${gateway.base}/v1/orders/${id}/${action}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(reason ? { reason } : {}),
    });
    expect(response.status).toBe(200);
  };

  const openOrder = async (page: Page, order: { order_number: string; id: string }) => {
    await page.goto(`${gateway.base}/console/#/orders/${order.id}`);
    await page.getByRole("heading", { level: 1, name: `Order ${order.order_number}` }).waitFor();
  };

  const statusOf = (page: Page) => page.getByTestId("order-status").innerText();
  const history = (page: Page) => page.getByTestId("history").locator("li");
  const actionButtons = (page: Page) =>
    page.getByRole("region", { name: "Actions" }).getByRole("button").allInnerTexts();

  it("accepts and then fulfils an order, with the history growing on the page", async () => {
    const { context, page, errors } = await openPage(browser);
    const order = fresh();
    await signIn(page, gateway.base, gateway.admin);
    await openOrder(page, order);
    expect(await actionButtons(page)).toEqual(["Accept order", "Reject order…", "Cancel order…"]);
    expect(await history(page).count()).toBe(1);
    // The partner by its name, not its client id.
    expect(await history(page).first().innerText()).toContain("by partner Harbour Retail");

    await page.getByRole("button", { name: "Accept order" }).click();
    await page.getByText(`Order ${named(order)} is accepted.`).waitFor();
    expect(await statusOf(page)).toBe("Accepted");
    expect(await actionButtons(page)).toEqual(["Mark as fulfilled", "Cancel order…"]);
    await expect.poll(() => history(page).count()).toBe(2);
    const accepted = await history(page).nth(1).innerText();
    expect(accepted).toContain("Received");
    expect(accepted).toContain("Accepted");
    expect(accepted).toContain(`by ${gateway.admin}`);
    // Focus moved to what happened, not lost with the button that went away.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      `Order ${named(order)} is accepted.`,
    );
    expect(untranslated(await page.locator("main").innerText())).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "order-accepted.en");

    await page.getByRole("button", { name: "Mark as fulfilled" }).click();
    await page.getByText(`Order ${named(order)} is fulfilled.`).waitFor();
    expect(await statusOf(page)).toBe("Fulfilled");
    expect(await actionButtons(page)).toEqual([]);
    await page.getByText("This order is Fulfilled: it does not change any more.").waitFor();
    const stored = await gateway.gw.orders.getForTenant(gateway.tenantId, order.id);
    expect(stored.status).toBe("fulfilled");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("rejects with a reason by keyboard alone: the dialog keeps focus, Escape closes, nothing typed is lost", async () => {
    const { context, page, errors } = await openPage(browser);
    const order = fresh();
    await signIn(page, gateway.base, gateway.admin);
    await openOrder(page, order);
    const reject = page.getByRole("button", { name: "Reject order…" });
    await reject.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: `Reject order ${named(order)}` });
    await dialog.waitFor();
    const reason = dialog.getByLabel("Reason");
    expect(await reason.evaluate((el) => el === document.activeElement)).toBe(true);

    // No reason: refused at the field, which keeps the focus.
    await page.keyboard.press("Tab"); // to the hint-less submit button
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Reject order");
    await page.keyboard.press("Enter");
    await expect.poll(() => reason.getAttribute("aria-invalid")).toBe("true");
    expect(await dialog.getByText("Give a reason.").count()).toBe(1);
    expect(await reason.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "order-reject-dialog.en");

    // Tab and Shift+Tab never leave the dialog.
    await page.keyboard.type("Prices expired on 1 November");
    for (const key of ["Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    // Escape closes it, gives the focus back, and the order is unchanged.
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await reject.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await statusOf(page)).toBe("Received");

    // Opened again, the reason typed is still there.
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    expect(await reason.inputValue()).toBe("Prices expired on 1 November");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.getByText(`Order ${named(order)} is rejected.`).waitFor();
    expect(await dialog.count()).toBe(0);
    expect(await statusOf(page)).toBe("Rejected");
    await expect.poll(() => history(page).count()).toBe(2);
    expect(await history(page).nth(1).innerText()).toContain(
      "Reason: Prices expired on 1 November",
    );
    const stored = await gateway.gw.orders.getForTenant(gateway.tenantId, order.id);
    expect(stored.history?.at(-1)?.reason).toBe("Prices expired on 1 November");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("cancels an accepted order with a reason, in German, and shows the timeline", async () => {
    const { context, page, errors } = await openPage(browser);
    const order = fresh();
    await actBehindTheBack(order.id, "accept");
    await signIn(page, gateway.base, gateway.admin);
    await page.getByLabel("Language", { exact: true }).selectOption("de");
    await page.getByRole("heading", { level: 1, name: "Aufträge" }).waitFor();
    await page.goto(`${gateway.base}/console/#/orders/${order.id}`);
    await page.getByRole("heading", { level: 1, name: `Auftrag ${order.order_number}` }).waitFor();
    expect(await statusOf(page)).toBe("Angenommen");
    await page.getByRole("button", { name: "Auftrag stornieren…" }).click();
    const dialog = page.getByRole("dialog", { name: `Auftrag ${named(order)} stornieren` });
    await dialog.getByLabel("Grund").fill("Kunde hat abbestellt");
    expect(untranslated(await dialog.innerText())).toEqual([]);
    await screenshot(page, "order-cancel-dialog.de");
    await dialog.getByRole("button", { name: "Auftrag stornieren" }).click();
    await page.getByText(`Auftrag ${named(order)} ist storniert.`).waitFor();
    expect(await statusOf(page)).toBe("Storniert");
    await expect.poll(() => history(page).count()).toBe(3);
    expect(await history(page).nth(2).innerText()).toContain("Grund: Kunde hat abbestellt");
    expect(untranslated(await page.locator("main").innerText())).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "order-history.de");
    await switchLanguage(page, "Sprache", "en");
    await page.getByRole("heading", { level: 1, name: `Order ${order.order_number}` }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("says the order changed meanwhile (412) and shows it fresh; a refused move (409) names the status", async () => {
    const { context, page, errors } = await openPage(browser);
    const order = fresh();
    // The page follows moves made elsewhere over the live event stream; without it (a dropped
    // connection, a proxy that buffers it) it still shows the order as first read.
    await page.route("**/v1/tenant/events", (route) => route.abort());
    await signIn(page, gateway.base, gateway.admin);
    await openOrder(page, order);
    // Someone accepts the order elsewhere while the page still shows it received.
    await actBehindTheBack(order.id, "accept");
    expect(await statusOf(page)).toBe("Received");
    await page.getByRole("button", { name: "Accept order" }).click();
    const problem = page.getByTestId("order-problem");
    await problem.waitFor();
    expect(await problem.innerText()).toBe(
      `Order ${named(order)} changed while you had it open: it is now Accepted. This is the order as it is now; decide again.`,
    );
    expect(await problem.getAttribute("role")).toBe("alert");
    expect(await statusOf(page)).toBe("Accepted");
    expect(await actionButtons(page)).toEqual(["Mark as fulfilled", "Cancel order…"]);
    await expect.poll(() => history(page).count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "order-stale.en");

    // With the fresh ETag the next action goes through.
    await page.getByRole("button", { name: "Mark as fulfilled" }).click();
    await page.getByText(`Order ${named(order)} is fulfilled.`).waitFor();

    // A client without If-Match meets the status check alone: the 409 names where the order is.
    const other = fresh();
    await openOrder(page, other);
    await actBehindTheBack(other.id, "reject", "Out of stock");
    await page.route("**/v1/orders/*/accept", async (route) => {
      const headers = { ...route.request().headers() };
      delete headers["if-match"];
      await route.continue({ headers });
    });
    await page.getByRole("button", { name: "Accept order" }).click();
    await expect
      .poll(() => problem.innerText())
      .toBe("Not done: the order is Rejected now and does not change any more.");
    expect(await statusOf(page)).toBe("Rejected");
    expect(await actionButtons(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows members the actions their role allows and says who may cancel", async () => {
    const { context, page } = await openPage(browser);
    const order = fresh();
    await signIn(page, gateway.base, gateway.member);
    await openOrder(page, order);
    expect(await actionButtons(page)).toEqual(["Accept order", "Reject order…"]);
    await page.getByText("Only tenant admins can cancel an order.").waitFor();
    await context.close();
  });

  it("fits a 375 px screen: actions, the reason dialog and the history", async () => {
    const { context, page, errors } = await openPage(browser, { width: 375, height: 740 });
    const order = fresh();
    await signIn(page, gateway.base, gateway.admin);
    await openOrder(page, order);
    const overflow = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole("button", { name: "Reject order…" }).click();
    const dialog = page.getByRole("dialog", { name: `Reject order ${named(order)}` });
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    expect(await overflow()).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "order-reject-dialog.mobile.en", { firstScreen: true });
    await dialog.getByLabel("Reason").fill("Duplicate of an earlier order");
    await dialog.getByRole("button", { name: "Reject order" }).click();
    await page.getByText(`Order ${named(order)} is rejected.`).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, "order-history.mobile.en");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("filters the list by status, dates and purchase order, kept in the URL", async () => {
    const { context, page, errors } = await openPage(browser);
    const accepted = fresh();
    await actBehindTheBack(accepted.id, "accept");
    await signIn(page, gateway.base, gateway.admin);
    const rows = page.locator("tbody tr");
    await rows.first().waitFor();
    await page.getByLabel("Status", { exact: true }).selectOption("accepted");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect
      .poll(() => page.evaluate(() => window.location.hash))
      .toBe("#/orders?status=accepted");
    await expect
      .poll(async () => [...new Set(await rows.locator("td .badge").allInnerTexts())])
      .toEqual(["Accepted"]);
    expect(await rows.locator("th").allInnerTexts()).toContain(accepted.order_number);

    // A reload keeps the filter, on the list and in the form.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
    await rows.first().waitFor();
    expect(await page.getByLabel("Status", { exact: true }).inputValue()).toBe("accepted");
    expect([...new Set(await rows.locator("td .badge").allInnerTexts())]).toEqual(["Accepted"]);

    // Today, as a date range, and one purchase order: exactly that order.
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
    });
    await page.getByLabel("Status", { exact: true }).selectOption("");
    await page.getByLabel("Received from").fill(today);
    await page.getByLabel("Received until").fill(today);
    await page.getByLabel("Purchase order").fill("PO-8");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.locator('td[data-label="Purchase order"]').innerText()).toBe("PO-8");

    // A backwards range is refused at the field, and the list stays as it was.
    await page.getByLabel("Received from").fill("2026-12-31");
    await page.getByLabel("Received until").fill("2026-01-01");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByText("The last day is before the first day.").waitFor();
    expect(await page.getByLabel("Received until").getAttribute("aria-invalid")).toBe("true");
    expect(await axeViolations(page)).toEqual([]);

    // Nothing matches: said so; "Clear filters" shows every order again.
    await page.getByLabel("Received from").fill("");
    await page.getByLabel("Received until").fill("");
    await page.getByLabel("Purchase order").fill("PO-404");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.getByText("No orders match these filters.").waitFor();
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect.poll(() => rows.count()).toBe(orders.length);

    await page.getByLabel("Language", { exact: true }).selectOption("de");
    await page.getByLabel("Status", { exact: true }).selectOption("accepted");
    await page.getByRole("button", { name: "Filter anwenden" }).click();
    await expect
      .poll(async () => [...new Set(await rows.locator("td .badge").allInnerTexts())])
      .toEqual(["Angenommen"]);
    expect(untranslated(await page.locator("main").innerText())).toEqual([]);
    await screenshot(page, "orders-filtered.de");
    await switchLanguage(page, "Sprache", "en");
    await page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});

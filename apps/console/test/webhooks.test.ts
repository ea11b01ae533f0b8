import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "@orderline/gateway";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  axeViolations,
  describeInBrowser,
  launch,
  screenshot,
  untranslated,
} from "./support/browser.js";
import { confirmDialog, goTo, openPage, signIn } from "./support/console-page.js";
import { createOrders, PASSWORD, startTestGateway, type TestGateway } from "./support/gateway.js";

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A partner's receiver on this machine: records every delivery, answers 204. */
const startReceiver = async () => {
  const deliveries: Delivery[] = [];
  /** The path and query each delivery was posted to. */
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    paths.push(request.url ?? "");
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      deliveries.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/orderline/hook`;
  return { server, url, deliveries, paths };
};

/** The contract's recipe: HMAC-SHA256 with the secret over `<t>.<raw body>`, any v1 matching. */
const signedWith = (secret: string, delivery: Delivery): boolean => {
  const header = String(delivery.headers["orderline-signature"] ?? "");
  const parts = header.split(",").map((p) => p.split("=") as [string, string]);
  const t = parts.find(([k]) => k === "t")?.[1] ?? "";
  const expected = createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(`${t}.${delivery.body}`)
    .digest();
  return parts
    .filter(([k]) => k === "v1")
    .some(([, v]) => {
      const given = Buffer.from(v, "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
};

/**
 * Webhook endpoints on the partners page, against the real gateway delivering to a real
 * receiver on a free port: add, see the secret once, receive a signed delivery, read it in the
 * deliveries, resend it, disable, rotate, delete.
 */
describeInBrowser("webhook endpoints on the partners page", () => {
  let gateway: TestGateway;
  let browser: Browser;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    // Loopback receivers allowed (the receiver is on this machine); a short poll.
    const webhooks = { ...loadConfig({}).webhooks, allowPrivate: "loopback" as const, pollMs: 100 };
    gateway = await startTestGateway({ webhooks });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    receiver?.server.close();
  });

  it("adds an endpoint whose secret, shown once, signs the deliveries; disables, rotates and deletes it", async () => {
    const { context, page, errors } = await openPage(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: gateway.base,
    });
    await signIn(page, gateway.base, gateway.admin);
    await page.getByRole("link", { name: "Partners" }).click();
    const card = page.getByRole("article", { name: "Harbour Retail" });
    const hooks = card.getByRole("region", { name: "Webhook endpoints" });
    await hooks.getByText("No webhook endpoints yet.").waitFor();
    const url = hooks.getByLabel("Receiver URL");

    // A URL the gateway refuses is refused at the field, with its reason.
    await url.fill("ftp://partner.example/hook");
    await hooks.getByRole("button", { name: "Add endpoint" }).click();
    await expect.poll(() => url.getAttribute("aria-invalid")).toBe("true");
    expect(await hooks.locator(".field-error").innerText()).toMatch(
      /^This address cannot receive deliveries\. Use a complete https:\/\/ or http:\/\/ address/,
    );
    // No event chosen: said at the events, before asking the gateway.
    await url.fill(receiver.url);
    await hooks.getByLabel("All events, also types added later").uncheck();
    await hooks.getByRole("button", { name: "Add endpoint" }).click();
    await hooks.getByText("Choose at least one event.").waitFor();
    await hooks.getByLabel("All events, also types added later").check();
    await hooks.getByRole("button", { name: "Add endpoint" }).click();

    // The secret, once, with a copy button.
    const once = hooks.getByTestId("secret-once");
    await once.waitFor();
    const secret = await once.getByTestId("signing-secret").innerText();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await once.getByRole("button", { name: "Copy secret" }).click();
    await once.getByText("Secret copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const endpoint = hooks.getByRole("article", { name: new RegExp(receiver.url) });
    expect(await endpoint.getByText("Enabled", { exact: true }).count()).toBe(1);
    expect(await endpoint.innerText()).toContain("All events");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "webhooks.en");
    await once.getByRole("button", { name: "I have stored the secret" }).click();
    expect(await page.locator("main").innerText()).not.toContain(secret);

    // The partner sends an order: the receiver gets it, signed with the secret the page showed.
    const [order] = await createOrders(gateway.base, gateway.partner, 1);
    await expect.poll(() => receiver.deliveries.length, { timeout: 60_000 }).toBe(1);
    const [first] = receiver.deliveries as [Delivery];
    expect(first.headers["orderline-event-type"]).toBe("order.created");
    expect(signedWith(secret, first)).toBe(true);
    expect(JSON.parse(first.body).data.order.order_number).toBe(order?.order_number);

    // Its delivery in the list, then sent again: same event id.
    await endpoint.getByRole("button", { name: /^Recent deliveries/ }).click();
    const rows = endpoint.locator("tbody tr");
    await expect
      .poll(async () => {
        await endpoint.getByRole("button", { name: "Refresh deliveries" }).click();
        return rows.count();
      })
      .toBe(1);
    const row = await rows.first().innerText();
    expect(row).toContain("order.created");
    expect(row).toContain("Succeeded");
    expect(row).toContain("204");
    expect(await endpoint.innerText()).not.toContain("None yet");
    await screenshot(page, "webhook-deliveries.en");
    await rows
      .first()
      .getByRole("button", { name: /^Resend evt_/ })
      .click();
    await hooks.getByText(/^Event evt_[\w-]+ is queued to be delivered again\.$/).waitFor();
    await expect.poll(() => receiver.deliveries.length, { timeout: 60_000 }).toBe(2);
    expect(receiver.deliveries[1]?.headers["orderline-event-id"]).toBe(
      first.headers["orderline-event-id"],
    );

    // Disabled: listed as disabled, with who did it.
    await endpoint.getByRole("button", { name: /^Disable/ }).click();
    await confirmDialog(page);
    await hooks.getByText(`Endpoint ${receiver.url} is disabled.`).waitFor();
    await endpoint.getByText("Disabled", { exact: true }).waitFor();
    expect(await endpoint.getByTestId("disabled-reason").innerText()).toContain(gateway.admin);
    // The list reloaded in place: the deliveries opened before are still open.
    expect(await rows.count()).toBeGreaterThan(0);
    // The wide table scrolls inside its frame; the page stays as wide as the window.
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel("Language", { exact: true }).selectOption("de");
    await page.getByRole("heading", { level: 1, name: "Partner" }).waitFor();
    await card
      .getByRole("region", { name: "Webhook-Endpunkte" })
      .getByText(`Endpunkt ${receiver.url} ist deaktiviert.`)
      .waitFor();
    // Why it is disabled, said in German too (the gateway stores an English sentence).
    expect(await card.getByTestId("disabled-reason").innerText()).toBe(
      `Deaktiviert von der Mandanten-Administration ${gateway.admin}.`,
    );
    expect(untranslated(await page.locator("main").innerText())).toEqual([]);
    await screenshot(page, "webhooks.de");
    await page.getByLabel("Sprache", { exact: true }).selectOption("en");
    await page.getByRole("heading", { level: 1, name: "Partners" }).waitFor();

    // Rotated: a new secret, once, and the old one still signs for the grace period.
    await endpoint.getByRole("button", { name: /^Enable/ }).click();
    await endpoint.getByText("Enabled", { exact: true }).waitFor();
    await endpoint.getByRole("button", { name: /^Rotate secret/ }).click();
    await confirmDialog(page);
    await once.waitFor();
    const rotated = await once.getByTestId("signing-secret").innerText();
    expect(rotated).not.toBe(secret);
    expect(await once.innerText()).toContain("The previous secret keeps signing beside it until");
    await once.getByRole("button", { name: "I have stored the secret" }).click();

    // Deleted, after confirming.
    await endpoint.getByRole("button", { name: /^Delete/ }).click();
    await confirmDialog(page);
    await hooks.getByText(`Endpoint ${receiver.url} deleted.`).waitFor();
    await hooks.getByText("No webhook endpoints yet.").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a 375 px screen: an endpoint, its secret and its deliveries", async () => {
    const { context, page, errors } = await openPage(browser, { width: 375, height: 740 });
    await signIn(page, gateway.base, gateway.admin);
    await goTo(page, "Partners");
    const hooks = page
      .getByRole("article", { name: "Harbour Retail" })
      .getByRole("region", { name: "Webhook endpoints" });
    await hooks.getByLabel("Receiver URL").fill(`${receiver.url}?narrow=1`);
    await hooks.getByRole("button", { name: "Add endpoint" }).click();
    await hooks.getByTestId("secret-once").waitFor();
    const overflow = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
    expect(await overflow()).toBeLessThanOrEqual(0);
    await hooks.getByRole("button", { name: /^Recent deliveries/ }).click();
    await hooks.getByRole("button", { name: "Refresh deliveries" }).waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "webhooks.mobile.en");
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const language of ["en", "de"] as const) {
    it(`(${language}) edits an endpoint's URL and events in place, keeping its secret, and sends a test event`, async () => {
      const words = {
        en: {
          partners: "Partners",
          region: "Webhook endpoints",
          add: "Add endpoint",
          url: "Receiver URL",
          stored: "I have stored the secret",
          edit: /^Edit/,
          all: "All events, also types added later",
          accepted: "Order accepted",
          save: "Save changes",
          saved: "saved; its secret is unchanged.",
          test: /^Send test event/,
          sent: /^Test event evt_\S+ is on its way/,
        },
        de: {
          partners: "Partner",
          region: "Webhook-Endpunkte",
          add: "Endpunkt hinzufügen",
          url: "Empfänger-URL",
          stored: "Ich habe das Secret gespeichert",
          edit: /^Bearbeiten/,
          all: "Alle Ereignisse, auch später hinzukommende Typen",
          accepted: "Auftrag angenommen",
          save: "Änderungen speichern",
          saved: "gespeichert; sein Secret bleibt gleich.",
          test: /^Testereignis senden/,
          sent: /^Testereignis evt_\S+ ist unterwegs/,
        },
      }[language];
      const email = `hooks-${language}@acme.example`;
      await gateway.gw.users.create({
        tenantId: gateway.tenantId,
        email,
        role: "admin",
        password: PASSWORD,
        language,
      });
      const { context, page, errors } = await openPage(browser);
      await page.goto(`${gateway.base}/console/`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("link", { name: words.partners, exact: true }).click();
      const hooks = page
        .getByRole("article", { name: "Harbour Retail" })
        .getByRole("region", { name: words.region });
      const before = `${receiver.url}?before=${language}`;
      await hooks.getByLabel(words.url).fill(before);
      await hooks.getByRole("button", { name: words.add }).click();
      const secret = await hooks.getByTestId("signing-secret").innerText();
      await hooks.getByRole("button", { name: words.stored }).click();

      // Its name is its URL, then its state ("Enabled").
      const endpoint = hooks.getByRole("article", {
        name: new RegExp(`^${before.replace(/[?.]/g, "\\$&")}( |$)`),
      });
      await endpoint.getByRole("button", { name: words.edit }).click();
      const after = `${receiver.url}?after=${language}`;
      await endpoint.getByLabel(words.url).fill(after);
      await endpoint.getByLabel(words.all).uncheck();
      await endpoint.getByLabel(words.accepted).check();
      await screenshot(page, `webhook-edit.${language}`);
      await endpoint.getByRole("button", { name: words.save }).click();
      await hooks.getByText(words.saved).waitFor();
      const edited = hooks.getByRole("article", {
        name: new RegExp(`^${after.replace(/[?.]/g, "\\$&")}( |$)`),
      });
      expect(await edited.getByRole("definition").first().innerText()).toBe(words.accepted);
      expect(untranslated(await page.locator("main").innerText())).toEqual([]);

      // The receiver gets the test event at the new URL, signed with the secret from before.
      const received = receiver.deliveries.length;
      await edited.getByRole("button", { name: words.test }).click();
      await hooks.getByText(words.sent).waitFor();
      await expect.poll(() => receiver.deliveries.length, { timeout: 60_000 }).toBe(received + 1);
      const test = receiver.deliveries.at(-1) as Delivery;
      expect(test.headers["orderline-event-type"]).toBe("webhook.test");
      expect(signedWith(secret, test)).toBe(true);
      expect(receiver.paths.at(-1)).toBe(new URL(after).pathname + new URL(after).search);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `webhook-test-sent.${language}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

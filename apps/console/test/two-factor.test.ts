import { Secret, TOTP } from "otpauth";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { axeViolations, describeInBrowser, launch, screenshot } from "./support/browser.js";
import { openPage, signIn } from "./support/console-page.js";
import { PASSWORD, startTestGateway, type TestGateway } from "./support/gateway.js";

const STEP_MS = 30_000;

/** The words the test finds things by, and the refusal it expects, per language. */
const WORDS = {
  en: {
    nav: "Two-step sign-in",
    start: "Set up two-step sign-in",
    confirm: "Turn on",
    stored: "I have stored my codes",
    signOut: "Sign out",
    verify: "Verify",
    wrong:
      "That code is not right, or it was used already. Enter the code your authenticator app shows now, or a recovery code.",
  },
  id: {
    nav: "Verifikasi dua langkah",
    start: "Aktifkan verifikasi dua langkah",
    confirm: "Aktifkan",
    stored: "Saya sudah menyimpan kode saya",
    signOut: "Keluar",
    verify: "Verifikasi",
    wrong:
      "Kode itu salah atau sudah pernah dipakai. Masukkan kode yang sedang ditampilkan aplikasi autentikator Anda, atau kode pemulihan.",
  },
} as const;

/** An authenticator app: a code the server accepts now, never the same step twice. */
const authenticator = (secret: string) => {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  let last = Number.NEGATIVE_INFINITY;
  return {
    async fresh(): Promise<string> {
      for (;;) {
        const now = Date.now();
        const current = Math.floor(now / STEP_MS);
        const step = [current, current + 1].find((s) => s > last);
        if (step !== undefined) {
          last = step;
          return totp.generate({ timestamp: step * STEP_MS });
        }
        await new Promise((resolve) => setTimeout(resolve, (current + 1) * STEP_MS - now + 50));
      }
    },
    wrong(): string {
      const near = new Set(
        [-2, -1, 0, 1, 2].map((d) => totp.generate({ timestamp: Date.now() + d * STEP_MS })),
      );
      return ["000000", "123456", "999999"].find((c) => !near.has(c)) ?? "424242";
    },
  };
};

/**
 * Two-step sign-in in a real Chromium: set it up from the console (the key read off the page,
 * the code computed as an app would), sign out, sign in with password and code; a wrong code is
 * refused in the user's language.
 */
describeInBrowser("two-step sign-in in a browser", () => {
  let gateway: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    gateway = await startTestGateway();
    for (const language of ["en", "id"])
      await gateway.gw.users.create({
        tenantId: gateway.tenantId,
        email: `totp-${language}@acme.example`,
        role: "member",
        password: PASSWORD,
        language,
      });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  /** The password step by the form's fields (their words follow the page's language). */
  const passwordStep = async (page: Page, email: string) => {
    await page.locator("#email").fill(email);
    await page.locator("#password").fill(PASSWORD);
    await page.locator("#password").press("Enter");
  };

  for (const language of ["en", "id"] as const) {
    it(`(${language}) sets up from the console, then signs in with password and code`, async () => {
      const words = WORDS[language];
      const email = `totp-${language}@acme.example`;
      const { context, page, errors } = await openPage(browser);
      await page.goto(`${gateway.base}/console/`);
      await passwordStep(page, email);
      await page.getByRole("link", { name: words.nav }).click();
      await page.getByRole("button", { name: words.start }).click();

      // The key as text (grouped by four for reading) and the QR code beside it.
      const shown = await page.getByTestId("totp-secret").innerText();
      const app = authenticator(shown.replace(/\s/g, ""));
      await page.getByTestId("totp-qr").waitFor();
      await screenshot(page, `two-factor-enrol.${language}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.locator("#enrol-code").fill(await app.fresh());
      await page.getByRole("button", { name: words.confirm, exact: true }).click();
      const codes = (await page.getByTestId("recovery-codes").innerText()).split(/\s+/);
      expect(codes).toHaveLength(10);
      await screenshot(page, `two-factor-recovery-codes.${language}`);
      await page.getByRole("button", { name: words.stored }).click();
      await page.getByTestId("two-factor-on").waitFor();
      const user = await gateway.gw.store.tenants.findUserByEmail(email);
      expect((await gateway.gw.store.twoFactor.find(user?.id ?? ""))?.confirmedAt).toBeTypeOf(
        "number",
      );

      await page.getByRole("button", { name: words.signOut }).click();
      await page.locator("#email").waitFor();
      await passwordStep(page, email);
      const step = page.getByTestId("second-factor");
      const code = step.locator("#one-time-code");
      await code.waitFor();
      expect(await code.getAttribute("autocomplete")).toBe("one-time-code");
      // A wrong code: refused, in the user's language, and the step stays.
      await code.fill(app.wrong());
      await step.getByRole("button", { name: words.verify, exact: true }).click();
      await step.getByRole("alert").filter({ hasText: words.wrong }).waitFor();
      await screenshot(page, `two-factor-second-step.${language}`);
      expect(await axeViolations(page)).toEqual([]);
      await code.fill(await app.fresh());
      await step.getByRole("button", { name: words.verify, exact: true }).click();
      await page.getByRole("link", { name: words.nav }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("an admin requires it of admins on the Team page and is sent to set it up before anything else", async () => {
    const { context, page, errors } = await openPage(browser);
    await signIn(page, gateway.base, gateway.admin);
    await page.getByRole("link", { name: "Team" }).click();
    await page.getByLabel("Required for").selectOption("admins");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    // The gateway now refuses the admin everything but the set-up: the console shows only that.
    await page
      .getByText("Your organisation requires two-step sign-in. Set it up to continue.")
      .waitFor();
    expect(await page.getByRole("navigation").count()).toBe(0);
    await screenshot(page, "two-factor-required.en");
    await page.getByRole("button", { name: WORDS.en.start }).click();
    const app = authenticator(
      (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, ""),
    );
    await page.locator("#enrol-code").fill(await app.fresh());
    await page.getByRole("button", { name: WORDS.en.confirm, exact: true }).click();
    await page.getByRole("button", { name: WORDS.en.stored }).click();
    // Set up: the console opens.
    await page.getByRole("link", { name: "Team" }).click();
    await page.getByLabel("Required for").waitFor();
    expect(await page.getByLabel("Required for").inputValue()).toBe("admins");
    const actions = (
      await gateway.gw.store.audit.listAuditEvents(gateway.tenantId, { limit: 100 })
    ).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(["tenant_two_factor_policy_changed", "user_two_factor_enrolled"]),
    );
    expect(errors).toEqual([]);
    await context.close();
  });
});

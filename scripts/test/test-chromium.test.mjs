import { chromium } from "playwright-core";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  chromiumLaunchOptions,
  chromiumOrSkip,
  findChromium,
  UNUSED_FEATURES,
} from "../test-chromium.mjs";

// The helper every browser test uses to find Chromium (scripts/test-chromium.mjs): where it is
// missing the suites skip loudly on a developer's machine and fail in CI.
describe("finding Chromium for the browser tests", () => {
  afterEach(() => vi.restoreAllMocks());

  it("CHROMIUM_PATH wins over the known paths", () => {
    expect(findChromium({ CHROMIUM_PATH: "/opt/chrome/chrome" }, [process.execPath])).toBe(
      "/opt/chrome/chrome",
    );
  });

  it("else the first known path that can be executed", () => {
    expect(findChromium({}, ["/nonexistent/chromium", process.execPath])).toBe(process.execPath);
  });

  it("none found: a warning naming the suite outside CI, an error in CI", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(chromiumOrSkip("the preview", {}, ["/nonexistent/chromium"])).toBeUndefined();
    expect(warn.mock.calls[0]?.[0]).toContain('SKIPPING "the preview"');
    expect(() => chromiumOrSkip("the preview", { CI: "true" }, ["/nonexistent/chromium"])).toThrow(
      /CI runs every browser test/,
    );
  });
});

const CHROMIUM = chromiumOrSkip("launching Chromium for the browser tests");
const DISABLED = "--disable-features=";
const disabledFeatures = (args) =>
  args
    .filter((arg) => arg.startsWith(DISABLED))
    .map((arg) => arg.slice(DISABLED.length).split(","));

describe.skipIf(CHROMIUM === undefined)("launching Chromium for the browser tests", () => {
  it("turns the omnibox's popups off and keeps every feature Playwright turns off", async () => {
    const plain = await chromium.launchServer({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    const playwrights = disabledFeatures(plain.process().spawnargs);
    await plain.close();

    const server = await chromium.launchServer(await chromiumLaunchOptions(CHROMIUM));
    try {
      // Chromium reads only the last --disable-features: one list holding both.
      const lists = disabledFeatures(server.process().spawnargs);
      expect(lists).toHaveLength(1);
      expect(lists[0]).toEqual(expect.arrayContaining([...playwrights.flat(), ...UNUSED_FEATURES]));
      // And the browser still opens and runs a page.
      const browser = await chromium.connect(server.wsEndpoint());
      const page = await browser.newPage();
      await page.setContent("<p>ready</p>");
      expect(await page.locator("p").textContent()).toBe("ready");
      await browser.close();
    } finally {
      await server.close();
    }
  }, 60_000);
});

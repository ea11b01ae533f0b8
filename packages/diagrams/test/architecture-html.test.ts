import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumOrSkip, launchChromium } from "../../../scripts/test-chromium.mjs";
import { exportDiagram } from "../src/export/index.js";
import type { ArchitectureDiagram } from "../src/types/architecture/model.js";
import { EXAMPLES_DIR } from "./support/cases.js";

const CHROMIUM = chromiumOrSkip("architecture HTML page in Chromium");

// The HTML page of a diagram with views, in headless Chromium: one view shown at a time,
// switched by its buttons and by the keyboard, cards opening on every view.
const SLOW = 120_000;

describe.skipIf(CHROMIUM === undefined)("architecture HTML page in Chromium", () => {
  let browser: Browser;
  let html: string;

  beforeAll(async () => {
    const d = JSON.parse(
      readFileSync(join(EXAMPLES_DIR, "orderline-architecture.json"), "utf8"),
    ) as ArchitectureDiagram;
    html = (await exportDiagram(d, "html")) as string;
    browser = await launchChromium(CHROMIUM as string);
  }, SLOW);

  afterAll(async () => {
    await browser?.close();
  });

  it(
    "shows one view at a time; buttons and Page Down / Page Up switch it; cards open",
    async () => {
      const page = await browser.newPage();
      await page.setContent(html);
      // Evaluated in the page, as text: the tests are typed without the DOM library.
      const shown = async () =>
        (await page.evaluate(
          `[...document.querySelectorAll("figure[data-drawing]")].filter((f) => !f.hidden).map((f) => f.dataset.drawing)`,
        )) as string[];
      expect(await shown()).toEqual(["context"]);
      await page.click('[data-drawing-button="gateway"]');
      expect(await shown()).toEqual(["gateway"]);
      expect(await page.getAttribute('[data-drawing-button="gateway"]', "aria-pressed")).toBe(
        "true",
      );
      await page.keyboard.press("PageDown");
      expect(await shown()).toEqual(["all"]);
      await page.keyboard.press("PageDown");
      expect(await shown()).toEqual(["context"]);
      await page.keyboard.press("PageUp");
      expect(await shown()).toEqual(["all"]);
      await page.click('figure[data-drawing="all"] g.node[data-id="redis"]');
      expect(await page.textContent("#card")).toContain("Request counters shared by the instances");
      await page.close();
    },
    SLOW,
  );
});

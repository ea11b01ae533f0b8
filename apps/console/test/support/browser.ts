import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { describe, inject } from "vitest";
import { chromiumOrSkip } from "../../../../scripts/test-chromium.mjs";

const require = createRequire(import.meta.url);

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's Chromium to connect to (support/chromium-server.ts), "" when none started. */
    chromiumEndpoint: string;
  }
}

/** Screenshots of every page, looked at by people; ignored by git (see the README). */
export const SCREENSHOTS = fileURLToPath(new URL("../../screenshots/", import.meta.url));

/**
 * Screenshots are taken only when ORDERLINE_SCREENSHOTS=1 (see the README): a full-page PNG of
 * every state cost more CPU than the assertions around it, and no test reads them.
 */
export const SCREENSHOTS_WANTED = process.env.ORDERLINE_SCREENSHOTS === "1";

/**
 * A describe block that runs only when a Chromium is found (scripts/test-chromium.mjs): skipped
 * with a loud warning outside CI, a failure in CI.
 */
export const describeInBrowser = (name: string, body: () => void): void => {
  const found = chromiumOrSkip(name);
  describe.skipIf(found === undefined)(name, body);
};

/**
 * A connection to the run's one Chromium (test/support/chromium-server.ts starts it once for
 * every file). Each file's `close()` only disconnects, closing the contexts it opened; each
 * test still opens a fresh context, so tests share no cookies, storage or pages.
 */
export const launch = (): Promise<Browser> => {
  const endpoint = inject("chromiumEndpoint");
  if (!endpoint) throw new Error("no Chromium was started for this run (chromium-server.ts)");
  return chromium.connect(endpoint);
};

/**
 * Saves the page as `screenshots/NAME.png` when ORDERLINE_SCREENSHOTS=1: the whole page, or
 * with `firstScreen` what the first screen shows.
 */
export const screenshot = async (
  page: Page,
  name: string,
  { firstScreen = false } = {},
): Promise<void> => {
  if (!SCREENSHOTS_WANTED) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: !firstScreen });
};

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core in the page and returns its serious and critical violations, described well
 * enough to fix them from a failing test's output. The context must bypass the page's CSP to
 * inject the script.
 */
export const axeViolations = async (page: Page): Promise<string[]> => {
  // Injected once per document: a second run on the same page reuses it.
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.addScriptTag({ path: require.resolve("axe-core/axe.min.js") });
  }
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(options: object): Promise<{ violations: unknown[] }> };
      }
    ).axe;
    // Every rule still runs; only the violations' details are gathered (axe-core's option for
    // large pages: passes and the like would be listed node by node otherwise).
    return (await axe.run({ resultTypes: ["violations"] })).violations;
  });
  return (violations as AxeViolation[])
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
};

const flatten = (tree: Record<string, unknown>, prefix = ""): string[] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string"
      ? [`${prefix}${key}`]
      : flatten(value as Record<string, unknown>, `${prefix}${key}.`),
  );

const LOCALES = fileURLToPath(new URL("../../locales/en/", import.meta.url));
// Dotted keys only: a one-word key ("email") is also an ordinary word.
const KEYS = readdirSync(LOCALES)
  .flatMap((file) =>
    flatten(JSON.parse(readFileSync(`${LOCALES}${file}`, "utf8")) as Record<string, unknown>),
  )
  .filter((key) => key.includes("."));

/** The console's keys or interpolation braces showing through: text that was not translated. */
export const untranslated = (text: string): string[] => [
  ...KEYS.filter((key) => new RegExp(`(^|[\\s:])${key.replace(/\./g, "\\.")}($|\\s)`).test(text)),
  ...(text.match(/\{\{\w+\}\}|\b(?:common|auth|orders):\w+/g) ?? []),
];

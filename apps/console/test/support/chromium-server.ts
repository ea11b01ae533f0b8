import type { BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";
import { findChromium, launchChromiumServer } from "../../../../scripts/test-chromium.mjs";
import { FAST } from "../../../../scripts/test-tiers.mjs";

/**
 * Vitest global setup: one Chromium for the console's whole run, which every browser test file
 * connects to (support/browser.ts `launch`), instead of a Chromium launched per file. Each test
 * opens its own browser context, so tests still share no cookies, storage or pages. None is
 * started for `npm run test:fast` (it runs no browser file) or when no Chromium is found (the
 * browser files then skip loudly, or fail in CI: scripts/test-chromium.mjs).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const executablePath = FAST ? undefined : findChromium();
  let server: BrowserServer | undefined;
  if (executablePath !== undefined) {
    server = await launchChromiumServer(executablePath);
  }
  project.provide("chromiumEndpoint", server?.wsEndpoint() ?? "");
  return async () => {
    await server?.close();
  };
}

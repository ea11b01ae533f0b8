import { accessSync, constants } from "node:fs";

/**
 * Where the tests that drive a real browser find Chromium: CHROMIUM_PATH when set, else the
 * first of the usual install paths that can be executed. Shared by every workspace's browser
 * tests, so a machine without Chromium at /usr/bin/chromium (macOS, another distribution) skips
 * them with a warning instead of failing on `spawn … ENOENT/EACCES`; with CI set a missing
 * browser fails the run, so CI never passes without having run them (as the PostgreSQL and
 * Redis suites do).
 */
export const KNOWN_CHROMIUM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The Chromium to launch, or undefined when none is found. CHROMIUM_PATH is taken as given. */
export function findChromium(env = process.env, paths = KNOWN_CHROMIUM_PATHS) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return paths.find(executable);
}

/**
 * The Chromium for the suite named `suite`, or undefined (after a loud warning) when there is
 * none outside CI; throws in CI. Use with `describe.skipIf(chromium === undefined)`.
 */
export function chromiumOrSkip(suite, env = process.env, paths = KNOWN_CHROMIUM_PATHS) {
  const found = findChromium(env, paths);
  if (found !== undefined) return found;
  const message = `No Chromium found (CHROMIUM_PATH unset; none of ${KNOWN_CHROMIUM_PATHS.join(", ")}).`;
  if (env.CI) throw new Error(`${message} CI runs every browser test.`);
  console.warn(
    `\n!!! ${message}\n!!! SKIPPING "${suite}". Install Chromium or set CHROMIUM_PATH; CI never skips it.\n`,
  );
  return undefined;
}

/**
 * Chromium features no test uses but every new page paid for: headless Chromium still builds a
 * browser window with a toolbar for each page, and the omnibox's WebUI popups start a renderer
 * of their own. That renderer took ~0.7 s of CPU per page, as much as the console page under
 * test (docs/benchmarks.md, "Test suite speed").
 */
export const UNUSED_FEATURES = [
  "WebUIOmniboxPopup",
  "WebUIOmniboxAimPopup",
  "WebUIOmniboxFullPopup",
];

const DISABLE_FEATURES = "--disable-features=";

/** Arguments every test browser gets: no sandbox (it refuses to run as root, as CI does), no sync. */
const BROWSER_ARGS = ["--no-sandbox", "--disable-sync"];
const playwrightDefaults = new Map();

/**
 * The `--disable-features` argument Playwright passes to the Chromium at `executablePath`, read
 * off one launch (Playwright does not export its list), once per process and binary.
 */
const playwrightDisableFeatures = (executablePath) => {
  if (!playwrightDefaults.has(executablePath)) {
    const probe = (async () => {
      const { chromium } = await import("playwright-core");
      const server = await chromium.launchServer({ executablePath, args: ["--no-sandbox"] });
      try {
        return server.process().spawnargs.find((arg) => arg.startsWith(DISABLE_FEATURES));
      } finally {
        await server.close();
      }
    })();
    playwrightDefaults.set(executablePath, probe);
  }
  return playwrightDefaults.get(executablePath);
};

/**
 * Options for Playwright's `chromium.launch`/`launchServer` that also turn UNUSED_FEATURES off.
 * Chromium honours only the last `--disable-features` it is given, so Playwright's own list is
 * replaced by its union with ours rather than overridden by ours alone.
 */
export async function chromiumLaunchOptions(executablePath) {
  const defaults = await playwrightDisableFeatures(executablePath);
  const unused = UNUSED_FEATURES.join(",");
  if (defaults === undefined) {
    return { executablePath, args: [...BROWSER_ARGS, `${DISABLE_FEATURES}${unused}`] };
  }
  return {
    executablePath,
    ignoreDefaultArgs: [defaults],
    args: [...BROWSER_ARGS, `${defaults},${unused}`],
  };
}

/** A headless Chromium for one test file (`chromium.launch` with chromiumLaunchOptions). */
export async function launchChromium(executablePath) {
  const { chromium } = await import("playwright-core");
  return chromium.launch(await chromiumLaunchOptions(executablePath));
}

/** A Chromium that several test files connect to (`chromium.launchServer`, same options). */
export async function launchChromiumServer(executablePath) {
  const { chromium } = await import("playwright-core");
  return chromium.launchServer(await chromiumLaunchOptions(executablePath));
}

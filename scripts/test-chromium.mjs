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

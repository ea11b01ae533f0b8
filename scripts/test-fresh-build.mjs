import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUILD_STALE = join(ROOT, "scripts", "build-stale.mjs");

function hasFlock() {
  try {
    execFileSync("flock", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Vitest global setup shared by every workspace: tests that start the built server, CLI or
 * console (dist/) must run the code under test, not whatever was built last. Rebuilds each
 * workspace whose sources are newer than its build (scripts/build-stale.mjs; after `npm install`
 * or in CI nothing is stale and this costs a walk of the source folders). flock serialises the
 * workspaces' setups of one run, so a workspace is built once, not once per project.
 */
export default function setup() {
  // In the checkout, not the temporary folder: the test run points TMPDIR at a folder of its own.
  const lock = join(ROOT, "node_modules", ".orderline-build.lock");
  const [file, ...args] = hasFlock()
    ? ["flock", lock, process.execPath, BUILD_STALE]
    : [process.execPath, BUILD_STALE];
  try {
    execFileSync(file, args, { cwd: ROOT, stdio: "pipe", encoding: "utf8" });
  } catch (error) {
    const { stdout = "", stderr = "" } = error;
    throw new Error(`a stale build could not be rebuilt for the tests:\n${stdout}${stderr}`);
  }
}

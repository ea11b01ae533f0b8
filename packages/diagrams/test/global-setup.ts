import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const OUTPUTS = ["dist/cli/main.js", "dist/types/workflow/validator.cjs"];

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * Tests run the built CLI as a real process, so dist/ must match the source: rebuild when any
 * source, schema or build script is newer than the build (CI has just built it: no rebuild).
 * flock serializes builds of concurrent test runs in one checkout, where available.
 */
export default function setup(): void {
  const built = OUTPUTS.map((p) => join(PACKAGE, p));
  const oldest = Math.min(...built.map((p) => (existsSync(p) ? statSync(p).mtimeMs : 0)));
  const sources = Math.max(
    ...["src", "schema", "scripts"].map((d) => newest(join(PACKAGE, d))),
    statSync(join(PACKAGE, "package.json")).mtimeMs,
  );
  if (oldest > sources) return;
  const build = ["npm", "run", "build"];
  let hasFlock = true;
  try {
    execFileSync("flock", ["--version"], { stdio: "ignore" });
  } catch {
    hasFlock = false;
  }
  const [file, ...args] = hasFlock
    ? ["flock", "/tmp/orderline-diagrams-build.lock", ...build]
    : build;
  try {
    execFileSync(file as string, args, { cwd: PACKAGE, stdio: "pipe", encoding: "utf8" });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`building @orderline/diagrams for the tests failed:\n${stdout}${stderr}`);
  }
}

/**
 * `npm pack` ships a dist built afresh (no file left over from a module since removed), but
 * the package's own CLI tests run bin/ → dist/ at the same time: deleting dist before
 * building left them a window of seconds with no dist. So the fresh build goes to a folder
 * beside it and the two are swapped by renames, which leaves a window of microseconds.
 */
import { execFileSync } from "node:child_process";
import { renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const next = `.dist-${process.pid}`;
const old = `.dist-old-${process.pid}`;
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

try {
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", next], {
    cwd: root,
    stdio: "inherit",
  });
  try {
    renameSync(`${root}/dist`, `${root}/${old}`);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  renameSync(`${root}/${next}`, `${root}/dist`);
} finally {
  rmSync(`${root}/${next}`, { recursive: true, force: true });
  rmSync(`${root}/${old}`, { recursive: true, force: true });
}

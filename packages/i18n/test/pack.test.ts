// @vitest-environment node
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const root = join(packageDir, "..", "..");

/**
 * `npm pack` in a copy of the package that was never built (no dist/), laid out like the
 * workspace so its tsconfig and tools resolve, then unpacked: what a consumer would install.
 */
let sandbox: string;
let files: string[];
let unpacked: string;

beforeAll(async () => {
  sandbox = await mkdtemp(join(tmpdir(), "orderline-i18n-pack-"));
  const copy = join(sandbox, "packages", "i18n");
  await mkdir(copy, { recursive: true });
  for (const entry of [
    "package.json",
    "tsconfig.build.json",
    "README.md",
    "src",
    "bin",
    "locales",
  ]) {
    await cp(join(packageDir, entry), join(copy, entry), { recursive: true });
  }
  await cp(join(root, "tsconfig.base.json"), join(sandbox, "tsconfig.base.json"));
  await symlink(join(root, "node_modules"), join(sandbox, "node_modules"), "dir");
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", sandbox], {
    cwd: copy,
  });
  const [report] = JSON.parse(stdout.slice(stdout.indexOf("["))) as [
    { filename: string; files: { path: string }[] },
  ];
  files = report.files.map((f) => f.path);
  unpacked = join(sandbox, "unpacked");
  await mkdir(unpacked);
  await run("tar", ["-xzf", join(sandbox, report.filename), "-C", unpacked]);
}, 120_000);

afterAll(async () => {
  if (sandbox) await rm(sandbox, { recursive: true, force: true });
});

describe("npm pack", () => {
  it("builds the code first (prepack), so an unbuilt checkout ships it", () => {
    expect(files).toContain("dist/index.js");
    expect(files).toContain("dist/index.d.ts");
    expect(files).toContain("dist/react/index.js");
    expect(files).toContain("dist/check/main.js");
  });

  it("ships source maps that carry their sources", async () => {
    const map = JSON.parse(
      await readFile(join(unpacked, "package", "dist", "engine", "setup.js.map"), "utf8"),
    ) as { sources: string[]; sourcesContent?: string[] };
    expect(map.sources).toEqual(["../../src/engine/setup.ts"]);
    expect(map.sourcesContent?.[0]).toContain("export const setupI18n");
  });
});

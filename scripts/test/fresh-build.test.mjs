import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { staleWorkspaces, WORKSPACES } from "../build-stale.mjs";

// Tests that start a built server, CLI or console must not pass against an old build: every
// workspace's vitest setup rebuilds what is stale first (scripts/test-fresh-build.mjs).
const ROOT = new URL("../..", import.meta.url);
const roots = [];
afterEach(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A checkout of two workspaces, b consuming a's build, each built at `builtAt` (seconds). */
function checkout(builtAt, sourcesAt) {
  const root = mkdtempSync(join(tmpdir(), "orderline-stale-"));
  roots.push(root);
  for (const name of ["a", "b"]) {
    mkdirSync(join(root, name, "src"), { recursive: true });
    mkdirSync(join(root, name, "dist"), { recursive: true });
    writeFileSync(join(root, name, "src", "index.ts"), "export {};\n");
    writeFileSync(join(root, name, "package.json"), "{}\n");
    writeFileSync(join(root, name, "dist", ".build-stamp"), "built\n");
    for (const file of ["src/index.ts", "src", "package.json"])
      utimesSync(join(root, name, file), sourcesAt[name], sourcesAt[name]);
    utimesSync(join(root, name, "dist", ".build-stamp"), builtAt, builtAt);
  }
  return root;
}
const PAIR = [
  { name: "a", dir: "a", inputs: ["src"], after: [] },
  { name: "b", dir: "b", inputs: ["src"], after: ["a"] },
];

describe("a stale build is rebuilt before the tests that drive it", () => {
  it("nothing is stale when every build is newer than its sources", () => {
    const root = checkout(2000, { a: 1000, b: 1000 });
    expect(staleWorkspaces(root, PAIR)).toEqual([]);
  });

  it("an edited source makes its workspace stale, and every workspace built from it", () => {
    const root = checkout(2000, { a: 3000, b: 1000 });
    expect(staleWorkspaces(root, PAIR).map((ws) => ws.name)).toEqual(["a", "b"]);
    const onlyB = checkout(2000, { a: 1000, b: 3000 });
    expect(staleWorkspaces(onlyB, PAIR).map((ws) => ws.name)).toEqual(["b"]);
  });

  it("a workspace never built is stale", () => {
    const root = checkout(2000, { a: 1000, b: 1000 });
    rmSync(join(root, "a", "dist"), { recursive: true });
    expect(staleWorkspaces(root, PAIR).map((ws) => ws.name)).toEqual(["a", "b"]);
  });

  it("every workspace with a build is checked, and every workspace's tests set that up first", () => {
    const packageJson = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8"));
    expect(packageJson.workspaces).toEqual(["packages/*", "apps/*"]);
    const dirs = WORKSPACES.map((ws) => ws.dir).sort();
    expect(dirs).toEqual(
      [
        "apps/console",
        "packages/diagrams",
        "packages/gateway",
        "packages/i18n",
        "packages/partner-sdk",
      ].sort(),
    );
    for (const dir of dirs) {
      const config = readFileSync(new URL(`${dir}/vitest.config.ts`, ROOT), "utf8");
      expect(config, dir).toMatch(/globalSetup: \[\s*"\.\.\/\.\.\/scripts\/test-fresh-build\.mjs"/);
    }
  });
});

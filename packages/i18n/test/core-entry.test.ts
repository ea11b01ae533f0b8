// @vitest-environment node
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);

/**
 * Builds the package with tsc into a sandbox whose node_modules holds i18next and nothing else
 * (no react, no react-i18next), then imports it from a plain Node process, as a server-side or
 * non-React consumer would.
 */
let sandbox: string;
const installed = () => join(sandbox, "node_modules", "@orderline", "i18n");

const node = (script: string) =>
  run(process.execPath, ["--input-type=module", "-e", script], { cwd: sandbox });

beforeAll(async () => {
  sandbox = await mkdtemp(join(tmpdir(), "orderline-i18n-core-"));
  await mkdir(installed(), { recursive: true });
  await run(process.execPath, [
    require.resolve("typescript/bin/tsc"),
    "-p",
    join(packageDir, "tsconfig.build.json"),
    "--outDir",
    join(installed(), "dist"),
  ]);
  await cp(join(packageDir, "package.json"), join(installed(), "package.json"));
  const i18next = dirname(require.resolve("i18next/package.json"));
  await symlink(i18next, join(sandbox, "node_modules", "i18next"), "dir");
  await writeFile(join(sandbox, "package.json"), '{ "type": "module" }');
}, 60_000);

afterAll(async () => {
  if (sandbox) await rm(sandbox, { recursive: true, force: true });
});

describe("the core entry @orderline/i18n", () => {
  it("loads and translates in plain Node without React installed", async () => {
    const { stdout } = await node(`
      import { createI18nEngine } from "@orderline/i18n";
      const engine = createI18nEngine();
      engine.registerModuleNamespace("common", { en: { hi: "Hello, {{name}}" } });
      let stored = null;
      await engine.setupI18n({ storageAdapter: {
        getLanguage: async () => stored, setLanguage: async (l) => { stored = l; } } });
      console.log(engine.i18n.t("hi", { name: "Node" }));
    `);
    expect(stdout.trim()).toBe("Hello, Node");
  });

  it("has no React module anywhere in its import graph", async () => {
    // Bundle with everything resolvable (React is installed in the workspace) except i18next:
    // any import of react, however indirect, would show up as an input or an external import.
    const result = await build({
      entryPoints: [join(installed(), "dist", "index.js")],
      bundle: true,
      write: false,
      format: "esm",
      platform: "neutral",
      external: ["i18next"],
      nodePaths: [join(packageDir, "..", "..", "node_modules")],
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    const imports = Object.values(result.metafile.outputs).flatMap((o) =>
      o.imports.map((i) => i.path),
    );
    expect(inputs.length).toBeGreaterThan(5);
    expect(inputs.filter((path) => /react/.test(path))).toEqual([]);
    expect([...new Set(imports)]).toEqual(["i18next"]);
  });

  it("the sandbox really has no React: the React entry fails to load there", async () => {
    await expect(node(`await import("@orderline/i18n/react");`)).rejects.toThrow(
      /Cannot find package 'react/,
    );
  });
});

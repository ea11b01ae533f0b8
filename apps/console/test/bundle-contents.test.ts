/**
 * The console's browser bundle holds none of the gateway's server code: it imports the gateway
 * only through `@orderline/gateway/contract` (built to dist/contract), and of the gateway's modules
 * the bundle's source maps name only those the contract loads. Builds the console with vite into
 * a temporary folder.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractModules } from "../../../packages/gateway/test/support/contract-modules.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let out: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "orderline-console-bundle-"));
  await build({
    root: ROOT,
    logLevel: "silent",
    build: { outDir: out, emptyOutDir: true, sourcemap: true },
  });
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Every source file the bundle's maps name. */
function bundledSources(): string[] {
  const assets = join(out, "assets");
  return readdirSync(assets)
    .filter((file) => file.endsWith(".js.map"))
    .flatMap((file) => JSON.parse(readFileSync(join(assets, file), "utf8")).sources as string[]);
}

describe("the console bundle", () => {
  it("holds of the gateway only the modules its contract loads, built, never its source", () => {
    const gateway = bundledSources()
      .map((source) => /packages\/gateway\/(.*)$/.exec(source)?.[1])
      .filter((path): path is string => path !== undefined);
    expect(gateway.length).toBeGreaterThan(0);
    const allowed = new Set(contractModules().modules.map((m) => `dist/${m}.js`));
    expect(gateway.filter((path) => !allowed.has(path))).toEqual([]);
  });

  it("imports the gateway by package name, never by a path into its folder", () => {
    const sources = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.tsx?$/.test(file))
      .map((file) => readFileSync(join(ROOT, "src", file), "utf8"));
    expect(sources.filter((text) => /from\s+"(\.\.\/)+packages\//.test(text))).toEqual([]);
    expect(sources.some((text) => text.includes('"@orderline/gateway/contract"'))).toBe(true);
  });
});

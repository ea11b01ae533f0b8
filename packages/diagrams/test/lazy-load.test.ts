import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { TYPE_NAMES } from "../src/types/index.js";
import { EXAMPLES_DIR, PACKAGE_DIR } from "./support/cases.js";

const dir = mkdtempSync(join(tmpdir(), "diagrams-lazy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The module URLs a cold `orderline-diagrams ARGS` process resolves. */
function modulesLoadedBy(args: string[]): string[] {
  const record = join(dir, `imports-${args.join("-").replace(/\W+/g, "_")}.txt`);
  const result = spawnSync(
    process.execPath,
    [
      "--import",
      pathToFileURL(join(PACKAGE_DIR, "test/support/record-imports.mjs")).href,
      join(PACKAGE_DIR, "dist/cli/main.js"),
      ...args,
    ],
    { cwd: dir, encoding: "utf8", env: { ...process.env, RECORD_IMPORTS: record } },
  );
  expect(result.stderr).not.toMatch(/Error/);
  expect(result.status).toBe(0);
  return readFileSync(record, "utf8").trim().split("\n");
}

const dist = pathToFileURL(join(PACKAGE_DIR, "dist")).href;

/** The types laid out by the layered graph layout (core/graph-layout); no other type loads it. */
const GRAPH_LAYOUT_TYPES = new Set<string>(["lifecycle", "architecture", "data-flow"]);

describe("a render loads only its own type", () => {
  it.each(TYPE_NAMES)("%s: the registry and its folder, no other type's", (name) => {
    const file = join(dir, `${name}.json`);
    modulesLoadedBy(["init", "--type", name, file]);
    const loaded = modulesLoadedBy(["render", file, "-o", join(dir, `${name}.svg`)]);
    expect(loaded).toContain(`${dist}/types/${name}/index.js`);
    const others = loaded.filter(
      (url) => url.startsWith(`${dist}/types/`) && !url.startsWith(`${dist}/types/${name}/`),
    );
    expect(others.filter((url) => url !== `${dist}/types/index.js`)).toEqual([]);
    const engine = loaded.filter((url) => url.startsWith(`${dist}/core/graph-layout`));
    if (GRAPH_LAYOUT_TYPES.has(name)) expect(engine).toContain(`${dist}/core/graph-layout.js`);
    else expect(engine).toEqual([]);
  });
});

describe("a workflow render loads only what it needs", () => {
  it("SVG: no other type's folder, no graph layout engine, no PNG/PDF libraries", () => {
    const example = join(EXAMPLES_DIR, "partner-order-flow.json");
    const loaded = modulesLoadedBy(["render", example, "-o", join(dir, "out.svg")]);
    // The recorder sees the CLI's own modules, so an empty list would not pass unnoticed.
    expect(loaded).toContain(`${dist}/types/workflow/index.js`);
    const types = loaded.filter((url) => url.startsWith(`${dist}/types/`));
    expect(types.filter((url) => !/\/types\/(workflow\/|index\.js$)/.test(url))).toEqual([]);
    // Checked as the packages are named, so a PNG render is seen to load its renderer.
    const heavy = /\/node_modules\/(@resvg|pdfkit|ajv\/dist\/(2020|ajv|core|compile))/;
    expect(loaded.filter((url) => heavy.test(url))).toEqual([]);
    expect(loaded.filter((url) => url.startsWith(`${dist}/core/graph-layout`))).toEqual([]);
    expect(
      modulesLoadedBy(["render", example, "-o", join(dir, "out.png")]).some((url) =>
        url.includes("/node_modules/@resvg/"),
      ),
    ).toBe(true);
  });
});

describe("validate loads only what checking needs", () => {
  it("no report module unless --report asks for one", () => {
    const example = join(EXAMPLES_DIR, "signed-order-data-flow.json");
    const plain = modulesLoadedBy(["validate", example]);
    expect(plain).toContain(`${dist}/cli/commands/validate.js`);
    expect(plain).not.toContain(`${dist}/cli/report.js`);
    expect(modulesLoadedBy(["validate", "--report", "boundaries", example])).toContain(
      `${dist}/cli/report.js`,
    );
  });
});

import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importsOf, sourceFiles } from "../../../scripts/source-imports.mjs";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

/**
 * The package's folders, top to bottom (README, "How the package is built"): a module imports its
 * own folder and the folders below it, never one above it nor another folder of its own step.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["cli", "index.ts"],
  ["preview"],
  ["export", "mermaid"],
  ["validate"], // validateSource: picks the type through the registry
  ["types"],
  ["core"],
];

/** The top folder (or top-level file, as `.ts`) a src-relative path belongs to. */
function unitOf(path: string): string {
  const [first = "", ...rest] = path.split("/");
  return rest.length > 0 ? first : first.replace(/\.js$/, ".ts");
}

const rankOf = (unit: string) => LAYERS.findIndex((layer) => layer.includes(unit));

/** The src-relative paths that break the family's import rules, as "importer → imported". */
export function violations(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const from = relative(SRC, path).split(sep).join("/");
    const fromType = /^types\/([^/]+)\//.exec(from)?.[1];
    for (const target of importsOf(SRC, path, text)) {
      const [fromUnit, toUnit] = [unitOf(from), unitOf(target)];
      if (fromUnit !== toUnit) {
        const [fromRank, toRank] = [rankOf(fromUnit), rankOf(toUnit)];
        if (fromRank < 0 || toRank < 0 || toRank <= fromRank) {
          found.push(`${from} → ${target}`);
          continue;
        }
      }
      const toType = /^types\/([^/]+)\//.exec(target)?.[1];
      const intoTypes = target === "types/index.js" || toType !== undefined;
      if (from.startsWith("core/") && intoTypes) found.push(`${from} → ${target}`);
      if (fromType !== undefined && toType !== undefined && toType !== fromType) {
        found.push(`${from} → ${target}`);
      }
      if (fromType !== undefined && target === "types/index.js") found.push(`${from} → ${target}`);
    }
  }
  return found;
}

describe("the family's structure", () => {
  const files = sourceFiles(SRC).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("every source file sits in a known folder of the order", () => {
    const unplaced = [...new Set(files.map((f) => unitOf(relative(SRC, f.path))))].filter(
      (unit) => rankOf(unit) < 0,
    );
    expect(unplaced).toEqual([]);
  });

  it("no folder imports one above it, core imports no type folder and no type imports another type's folder", () => {
    expect(files.length).toBeGreaterThan(30);
    expect(violations(files)).toEqual([]);
  });

  it("catches core importing a type or validateSource, a type importing another type or the registry, an export importing mermaid", () => {
    const at = (path: string, text: string) => ({ path: join(SRC, path), text });
    expect(
      violations([
        at(
          "core/svg/node.ts",
          'import type { Layout } from "../../types/workflow/layout/types.js";',
        ),
        at("core/theme.ts", 'const t = await import("../types/index.js");'),
        at("types/sequence/render.ts", 'export { METRICS } from "../workflow/layout/metrics.js";'),
        at("types/lifecycle/index.ts", 'import { loadType } from "../index.js";'),
        at("types/sequence/layout.ts", 'import { round } from "../../core/geometry.js";'),
        at("cli/commands/init.ts", 'import { TYPE_NAMES } from "../../types/index.js";'),
        at("core/diagram-type.ts", 'import { metaRules } from "../validate/meta-rules.js";'),
        at("types/workflow/rules.ts", 'import { validateSource } from "../../validate/index.js";'),
        at("export/png.ts", 'import { toMermaid } from "../mermaid/index.js";'),
        at("validate/index.ts", 'import { loadType } from "../types/index.js";'),
      ]),
    ).toEqual([
      "core/svg/node.ts → types/workflow/layout/types.js",
      "core/theme.ts → types/index.js",
      "types/sequence/render.ts → types/workflow/layout/metrics.js",
      "types/lifecycle/index.ts → types/index.js",
      "core/diagram-type.ts → validate/meta-rules.js",
      "types/workflow/rules.ts → validate/index.js",
      "export/png.ts → mermaid/index.js",
    ]);
  });
});

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every relative module a source file imports or re-exports, statically or with import(). */
export function importsOf(file: string, text: string): string[] {
  const specifiers = [
    ...text.matchAll(/\b(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']/g),
    ...text.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
    ...text.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
  ].map((m) => m[1] as string);
  return specifiers
    .filter((s) => s.startsWith("."))
    .map((s) =>
      relative(SRC, resolve(dirname(file), s))
        .split(sep)
        .join("/"),
    );
}

/** The src-relative paths that break the family's two import rules, as "importer → imported". */
export function violations(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const from = relative(SRC, path).split(sep).join("/");
    const fromType = /^types\/([^/]+)\//.exec(from)?.[1];
    for (const target of importsOf(path, text)) {
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
  const files = sources(SRC).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("core imports no type folder and no type imports another type's folder", () => {
    expect(files.length).toBeGreaterThan(30);
    expect(violations(files)).toEqual([]);
  });

  it("catches core importing a type, a type importing another type, and a type using the registry", () => {
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
      ]),
    ).toEqual([
      "core/svg/node.ts → types/workflow/layout/types.js",
      "core/theme.ts → types/index.js",
      "types/sequence/render.ts → types/workflow/layout/metrics.js",
      "types/lifecycle/index.ts → types/index.js",
    ]);
  });
});

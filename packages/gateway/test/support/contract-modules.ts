/**
 * The gateway modules `@orderline/gateway/contract` loads at run time: src/contract/index.ts and,
 * transitively, what its value imports reach (type-only imports and exports vanish when built).
 * Paths relative to src/, without extension, e.g. "domain/orders/lifecycle".
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const GATEWAY_SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** Every `import … from "x"` / `export … from "x"` that survives compilation, with its specifier. */
export function valueImports(source: string): string[] {
  const statements = source.match(/^(?:import|export)\s[^;]*?from\s+"[^"]+";/gms) ?? [];
  return statements
    .filter((s) => !/^(?:import|export)\s+type\s/.test(s))
    .filter((s) => {
      // `export { type A, type B } from` (every name a type) vanishes too.
      const names = /\{([^}]*)\}/s.exec(s)?.[1];
      if (names === undefined) return true;
      return names
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean)
        .some((n) => !n.startsWith("type "));
    })
    .map((s) => /from\s+"([^"]+)";$/.exec(s)?.[1] ?? "");
}

/** The modules the contract loads, and every bare or node: import among them. */
export function contractModules(): { modules: string[]; external: string[] } {
  const seen = new Set<string>();
  const external = new Set<string>();
  const visit = (module: string) => {
    if (seen.has(module)) return;
    seen.add(module);
    const file = join(GATEWAY_SRC, `${module}.ts`);
    for (const specifier of valueImports(readFileSync(file, "utf8"))) {
      if (!specifier.startsWith(".")) {
        external.add(specifier);
        continue;
      }
      const target = join(dirname(file), specifier).replace(/\.js$/, "");
      visit(relative(GATEWAY_SRC, target));
    }
  };
  visit("contract/index");
  return { modules: [...seen].sort(), external: [...external].sort() };
}

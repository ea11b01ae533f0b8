import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importsOf, sourceFiles } from "../../../scripts/source-imports.mjs";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

/**
 * The gateway's layers, top to bottom (README, "Source layout"): a module imports its own folder
 * and the layers below it, never one above it nor another folder of its own layer.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ["cli", "contract", "index.ts"], // the entry points: admin CLI, the clients' contract, the library
  ["gateway.ts"], // the wiring: the HTTP app, its routes and workers over…
  ["core.ts"], // …the store and the services admin commands need
  ["partner-api", "tenant-api"], // the two API surfaces
  ["http"], // the HTTP shell both surfaces stand on
  ["domain"],
  ["security"],
  ["observability"],
  ["store"],
  ["config"],
  ["problems"], // the error catalogue: codes, problems, ApiError
  ["lib"],
];

/** The top folder (or top-level file, as `.ts`) a src-relative path belongs to. */
function unitOf(path: string): string {
  const [first = "", ...rest] = path.split("/");
  return rest.length > 0 ? first : first.replace(/\.js$/, ".ts");
}

const rankOf = (unit: string) => LAYERS.findIndex((layer) => layer.includes(unit));

/** The imports that break the layering, as "importer → imported" (src-relative). */
export function violations(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const from = relative(SRC, path).split(sep).join("/");
    const fromUnit = unitOf(from);
    for (const target of importsOf(SRC, path, text)) {
      const toUnit = unitOf(target);
      if (toUnit === fromUnit) continue;
      const [fromRank, toRank] = [rankOf(fromUnit), rankOf(toUnit)];
      if (fromRank < 0 || toRank < 0 || toRank <= fromRank) found.push(`${from} → ${target}`);
    }
  }
  return found;
}

describe("the gateway's layers", () => {
  const files = sourceFiles(SRC).map((path) => ({ path, text: readFileSync(path, "utf8") }));

  it("every source file sits in a known layer", () => {
    expect(files.length).toBeGreaterThan(100);
    const unplaced = [...new Set(files.map((f) => unitOf(relative(SRC, f.path))))].filter(
      (unit) => rankOf(unit) < 0,
    );
    expect(unplaced).toEqual([]);
  });

  it("no module imports a layer above its own or a sibling of its layer", () => {
    expect(violations(files)).toEqual([]);
  });

  it("catches upward, sideways and unplaced imports and lets downward ones through", () => {
    const at = (path: string, text: string) => ({ path: join(SRC, path), text });
    expect(
      violations([
        at("domain/orders/service.ts", 'import { ApiError } from "../../http/errors.js";'),
        at("config/config.ts", 'import { parseMasterKey } from "../security/master-key.js";'),
        at("tenant-api/orders.ts", 'export { x } from "../partner-api/order-routes.js";'),
        at("store/open.ts", 'const m = await import("../observability/metrics.js");'),
        at("lib/money.ts", 'import "../problems/catalogue.js";'),
        at("http/app.ts", 'import { openCore } from "../core.js";'),
        at("domain/users/team.ts", 'import { x } from "../../widgets/x.js";'),
        // Downward and within a folder: allowed.
        at("cli/run.ts", 'import { openCore } from "../core.js";'),
        at("domain/orders/bulk.ts", 'import { ApiError } from "../../problems/api-error.js";'),
        at(
          "partner-api/webhook-routes.ts",
          'import { r } from "../http/webhook-endpoint-routes.js";',
        ),
        at("security/shares.ts", 'import { noteShare } from "../observability/metrics.js";'),
        at("store/sqlite/x.ts", 'import { y } from "../records.js";'),
      ]),
    ).toEqual([
      "domain/orders/service.ts → http/errors.js",
      "config/config.ts → security/master-key.js",
      "tenant-api/orders.ts → partner-api/order-routes.js",
      "store/open.ts → observability/metrics.js",
      "lib/money.ts → problems/catalogue.js",
      "http/app.ts → core.js",
      "domain/users/team.ts → widgets/x.js",
    ]);
  });
});

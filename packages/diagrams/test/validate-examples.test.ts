import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../src/core/validate/schema.js";
import { validateSource } from "../src/validate/index.js";
import { loadSchema } from "./support/workflow.js";
import { deref } from "./validate-base.js";

const EXAMPLES = fileURLToPath(new URL("../../../examples/diagrams/", import.meta.url));
const files = readdirSync(EXAMPLES).filter((f) => f.endsWith(".json"));
const schema = loadSchema();

/**
 * Every place in the format, named by its path with array items and map entries as "*"
 * (e.g. "/edges/*\/route"), and the enumerated values allowed there.
 */
function formatPlaces(): Map<string, unknown[] | undefined> {
  const places = new Map<string, unknown[] | undefined>();
  const walk = (raw: unknown, path: string) => {
    const s = deref(raw);
    places.set(path, Array.isArray(s.enum) ? s.enum : undefined);
    for (const [key, child] of Object.entries((s.properties as JsonSchema | undefined) ?? {})) {
      walk(child, `${path}/${key}`);
    }
    if (typeof s.additionalProperties === "object") walk(s.additionalProperties, `${path}/*`);
    for (const item of (s.prefixItems as unknown[] | undefined) ?? []) walk(item, `${path}/*`);
    if (typeof s.items === "object") walk(s.items, `${path}/*`);
  };
  walk(schema, "");
  return places;
}

/** The same places as used by a description, with the values seen at each. */
function usedPlaces(value: unknown, path = "", used = new Map<string, Set<unknown>>()) {
  const seen = used.get(path) ?? new Set();
  used.set(path, seen);
  if (Array.isArray(value)) {
    for (const item of value) usedPlaces(item, `${path}/*`, used);
  } else if (typeof value === "object" && value !== null) {
    // cards is keyed by node id: its keys are data, not field names.
    const isMap = path === "/cards";
    for (const [key, child] of Object.entries(value)) {
      usedPlaces(child, `${path}/${isMap ? "*" : key}`, used);
    }
  } else {
    seen.add(value);
  }
  return used;
}

describe("examples/diagrams", () => {
  it("has the partner order integration flow and a few more", () => {
    expect(files).toContain("partner-order-flow.json");
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it.each(files)("%s is valid", async (file) => {
    const result = await validateSource(readFileSync(join(EXAMPLES, file), "utf8"), { file });
    expect(result.problems).toEqual([]);
  });

  it("together use every field and every enumerated value of the format", () => {
    const used = new Map<string, Set<unknown>>();
    for (const file of files)
      usedPlaces(JSON.parse(readFileSync(join(EXAMPLES, file), "utf8")), "", used);
    const missingFields: string[] = [];
    const missingValues: string[] = [];
    for (const [place, values] of formatPlaces()) {
      const seen = used.get(place);
      if (!seen) {
        missingFields.push(place);
        continue;
      }
      for (const value of values ?? []) {
        if (!seen.has(value)) missingValues.push(`${place} = ${JSON.stringify(value)}`);
      }
    }
    expect(missingFields).toEqual([]);
    expect(missingValues).toEqual([]);
  });

  it("the partner flow shows login, signing, order creation and the store", () => {
    const flow = JSON.parse(readFileSync(join(EXAMPLES, "partner-order-flow.json"), "utf8"));
    const labels = (flow.nodes as { label: string }[]).map((n) => n.label).join(" | ");
    for (const word of [
      "Partner",
      "POST /api/v1/auth/login",
      "Sign",
      "POST /api/v1/sales-orders",
      "store",
    ]) {
      expect(labels).toContain(word);
    }
    expect(flow.mainPath.length).toBeGreaterThanOrEqual(5);
  });
});

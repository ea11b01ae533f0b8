import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../src/core/validate/schema.js";
import { ID_PATTERN } from "../src/core/validate/values.js";
import {
  ANIMATIONS,
  BAND_VARIANTS,
  COMPONENT_TYPES,
  EDGE_ROLES,
  EDGE_VARIANTS,
  LEGEND_CATEGORY,
  LEGEND_KEYS,
  LEGEND_MODES,
  QUALITY_PROFILES,
  ROUTES,
  SIDES,
  VISUAL_PRESETS,
} from "../src/types/workflow/model.js";
import { loadSchema } from "./support/workflow.js";
import { baseDiagram, check, deref } from "./validate-base.js";
import { del, get, set } from "./validate-pointer.js";

const schema = loadSchema();
const defs = schema.$defs as Record<string, JsonSchema>;

const enumAt = (pointer: string) => {
  let current: unknown = schema;
  for (const token of pointer.split("/").slice(1)) {
    current = deref(current)[token];
  }
  return deref(current).enum;
};

describe("the JSON Schema and types.ts say the same", () => {
  it.each([
    ["/$defs/node/properties/type", COMPONENT_TYPES],
    ["/$defs/edgeVariant", EDGE_VARIANTS],
    ["/$defs/edge/properties/role", EDGE_ROLES],
    ["/$defs/side", SIDES],
    ["/$defs/edge/properties/route", ROUTES],
    ["/$defs/bandVariant", BAND_VARIANTS],
    ["/$defs/meta/properties/visual_preset", VISUAL_PRESETS],
    ["/$defs/meta/properties/quality_profile", QUALITY_PROFILES],
    ["/$defs/meta/properties/animation", ANIMATIONS],
    ["/$defs/legend/properties/mode", LEGEND_MODES],
  ])("%s", (pointer, values) => {
    expect(enumAt(pointer)).toEqual([...values]);
  });

  it("the rules use the schema's id pattern", () => {
    expect(defs.id?.pattern).toBe(ID_PATTERN.source);
  });

  it("legend entries are keyed by exactly the legend categories", () => {
    const entries = deref(deref(defs.legend).properties as JsonSchema).entries as JsonSchema;
    expect(Object.keys(entries.properties as object)).toEqual([...LEGEND_KEYS]);
    for (const category of Object.values(LEGEND_CATEGORY)) {
      if (category !== null) expect(LEGEND_KEYS).toContain(category);
    }
  });

  // The format document's field tables, transcribed: which fields each object has and which of
  // them are required. The schema must have exactly these.
  const SEED_TABLES: Record<string, [required: string[], optional: string[]]> = {
    "": [
      ["schema_version", "diagram_type", "meta", "lanes", "nodes", "edges"],
      ["phases", "groups", "mainPath", "semanticChecks", "cards"],
    ],
    meta: [
      ["title"],
      [
        "locale",
        "subtitle",
        "output",
        "animation",
        "visual_preset",
        "quality_profile",
        "views",
        "legend",
        "viewBox",
      ],
    ],
    lane: [["id", "label"], ["variant"]],
    phase: [["id", "label", "fromCol", "toCol"], ["variant"]],
    group: [["id", "label", "lane", "fromCol", "toCol"], ["variant"]],
    node: [
      ["id", "lane", "col", "type", "label"],
      ["sublabel", "tag", "brand", "width", "height", "yOffset"],
    ],
    edge: [
      ["from", "to"],
      [
        "id",
        "label",
        "variant",
        "role",
        "fromSide",
        "toSide",
        "route",
        "via",
        "labelAt",
        "labelDx",
        "labelDy",
        "labelSegment",
        "channelX",
        "channelY",
        "bias",
        "width",
      ],
    ],
    semanticChecks: [[], ["allowedRoots", "allowedTerminals", "requiredEdges", "requiredPaths"]],
    fromTo: [["from", "to"], []],
  };

  it.each(Object.entries(SEED_TABLES))(
    "%s has exactly the fields of the format tables",
    (name, [required, optional]) => {
      const object = name === "" ? schema : deref(defs[name]);
      expect(((object.required as string[] | undefined) ?? []).slice().sort()).toEqual(
        required.slice().sort(),
      );
      expect(Object.keys(object.properties as object).sort()).toEqual(
        [...required, ...optional].sort(),
      );
    },
  );

  it("is draft 2020-12 and refuses unknown properties on every object", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const objects: string[] = [];
    const visit = (s: unknown, where: string) => {
      if (typeof s !== "object" || s === null) return;
      const node = s as JsonSchema;
      if (node.type === "object") {
        objects.push(where);
        // cards is a map keyed by node id; its values are checked by the card schema.
        if (where !== "/$defs/cards") expect(node.additionalProperties, where).toBe(false);
      }
      for (const [key, value] of Object.entries(node)) visit(value, `${where}/${key}`);
    };
    visit(schema, "");
    expect(objects.length).toBeGreaterThan(15);
  });
});

// The generated half of the conformance suite: walk the valid base description together with
// the schema and, for every property the base uses, break each constraint the schema puts on it.
interface Generated {
  name: string;
  mutate: (d: unknown) => void;
  rule: string;
  path: string;
  valid?: boolean;
}

function wrongTypeValue(type: string): unknown {
  return { string: 42, number: "42", integer: 1.5, array: {}, object: [], boolean: "yes" }[type];
}

function generate(): Generated[] {
  const cases: Generated[] = [];
  const base = baseDiagram();
  const walk = (value: unknown, raw: unknown, path: string) => {
    const s = deref(raw);
    if (s.type === "object" && typeof value === "object" && value !== null) {
      if (s.additionalProperties === false) {
        cases.push({
          name: `${path || "/"} refuses an unknown property`,
          mutate: (d) => set(d, `${path}/zzUnknown`, 1),
          rule: "schema/additionalProperties",
          path: `${path}/zzUnknown`,
        });
      }
      for (const key of (s.required as string[] | undefined) ?? []) {
        cases.push({
          name: `${path}/${key} is required`,
          mutate: (d) => del(d, `${path}/${key}`),
          rule: "schema/required",
          path: `${path}/${key}`,
        });
      }
      const properties = (s.properties as Record<string, unknown> | undefined) ?? {};
      for (const [key, child] of Object.entries(value)) {
        const childSchema = properties[key] ?? s.additionalProperties;
        if (childSchema && childSchema !== false) walk(child, childSchema, `${path}/${key}`);
      }
      return;
    }
    if (Array.isArray(value)) {
      if (typeof s.minItems === "number") {
        cases.push({
          name: `${path} has at least ${s.minItems} items`,
          mutate: (d) =>
            set(d, path, (get(d, path) as unknown[]).slice(0, (s.minItems as number) - 1)),
          rule: "schema/minItems",
          path,
        });
      }
      const prefix = (s.prefixItems as unknown[] | undefined) ?? [];
      value.forEach((item, i) => {
        const itemSchema = prefix[i] ?? s.items;
        if (itemSchema) walk(item, itemSchema, `${path}/${i}`);
      });
    }
    if (typeof s.type === "string" && path !== "") {
      cases.push({
        name: `${path} must be ${s.type}`,
        mutate: (d) => set(d, path, wrongTypeValue(s.type as string)),
        rule: "schema/type",
        path,
      });
    }
    if (Array.isArray(s.enum)) {
      cases.push({
        name: `${path} must be one of ${s.enum.join(", ")}`,
        mutate: (d) => set(d, path, "zz-not-a-value"),
        rule: "schema/enum",
        path,
      });
    }
    for (const [keyword, step] of [
      ["minimum", -0.01],
      ["maximum", 0.01],
    ] as const) {
      const limit = s[keyword];
      if (typeof limit !== "number") continue;
      const beyond = s.type === "integer" ? limit + Math.sign(step) : limit + step;
      cases.push({
        name: `${path} ${keyword} ${limit}: ${beyond} is refused`,
        mutate: (d) => set(d, path, beyond),
        rule: `schema/${keyword}`,
        path,
      });
      cases.push({
        name: `${path} ${keyword} ${limit}: ${limit} is accepted`,
        mutate: (d) => set(d, path, limit),
        rule: `schema/${keyword}`,
        path,
        valid: true,
      });
    }
    if (s.minLength === 1) {
      cases.push({
        name: `${path} must not be empty`,
        mutate: (d) => set(d, path, ""),
        rule: "schema/minLength",
        path,
      });
    }
    if (typeof s.pattern === "string") {
      cases.push({
        name: `${path} must match ${s.pattern}`,
        mutate: (d) => set(d, path, "not valid: //"),
        rule: "schema/pattern",
        path,
      });
    }
  };
  walk(base, schema, "");
  return cases;
}

const GENERATED = generate();

describe("conformance, generated from the schema: every constraint on every field the base uses", () => {
  it("covers the tables (a few hundred cases)", () => {
    expect(GENERATED.length).toBeGreaterThan(200);
  });

  it.each(GENERATED)("$name", ({ mutate, rule, path, valid }) => {
    const d = baseDiagram();
    mutate(d);
    // Only the schema's verdict is asserted here: a change to an id may also leave references
    // dangling, which is right and is covered case by case in validate-conformance.
    const schemaProblems = check(d).filter((p) => p.rule.startsWith("schema/"));
    const atPath = schemaProblems.map((p) => ({ rule: p.rule, path: p.path }));
    if (valid) expect(atPath.filter((p) => p.path === path)).toEqual([]);
    else expect(atPath).toEqual([{ rule, path }]);
  });
});

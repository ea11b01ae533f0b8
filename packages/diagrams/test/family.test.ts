import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VISUAL_PRESETS } from "../src/core/model.js";
import { THEMES } from "../src/core/theme.js";
import { AJV_OPTIONS, type JsonSchema } from "../src/core/validate/schema.js";
import { exportDiagram } from "../src/export/index.js";
import { loadType, TYPE_NAMES } from "../src/types/index.js";
import { combinedSchemaText } from "../src/validate/combined.js";
import { validateSource } from "../src/validate/index.js";
import { EXAMPLES_DIR, PACKAGE_DIR } from "./support/cases.js";
import { baseDiagram } from "./validate-base.js";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js").default;

const text = (value: unknown) => JSON.stringify(value, null, 2);
const shipped = (file: string) => readFileSync(join(PACKAGE_DIR, "schema", file), "utf8");

describe("the registry", () => {
  it("lists each registered type once, each with its folder and shipped schema", async () => {
    expect(new Set(TYPE_NAMES).size).toBe(TYPE_NAMES.length);
    const folders = readdirSync(join(PACKAGE_DIR, "src/types"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    for (const name of TYPE_NAMES) {
      expect(folders).toContain(name);
      const type = await loadType(name);
      expect(type.name).toBe(name);
      expect(type.schema.fileName).toBe(`${name}.schema.json`);
    }
  });

  it("ships every schema as the sources define it (npm run schema:write writes them)", async () => {
    const stale = "is stale: run `npm run schema:write -w @orderline/diagrams` and commit it";
    for (const name of TYPE_NAMES) {
      const { schema } = await loadType(name);
      expect(shipped(schema.fileName), `schema/${schema.fileName} ${stale}`).toBe(schema.text());
    }
    expect(shipped("diagram.schema.json"), `schema/diagram.schema.json ${stale}`).toBe(
      await combinedSchemaText(),
    );
  });

  it("every type's starter validates and renders", async () => {
    for (const name of TYPE_NAMES) {
      const type = await loadType(name);
      expect(type.starter.diagram_type).toBe(name);
      const result = await validateSource(text(type.starter));
      expect(result.problems).toEqual([]);
      const svg = await exportDiagram(type.starter, "svg");
      expect(svg).toMatch(/^<svg [^>]*data-preset="classic"/);
    }
  });
});

describe("presets and the showcase profile, for every type", () => {
  it.each(TYPE_NAMES)(
    "%s draws each preset from core/theme.ts and the showcase finish",
    async (name) => {
      const type = await loadType(name);
      const layout = await type.layout(type.starter);
      for (const preset of VISUAL_PRESETS) {
        const svg = type.render(type.starter, layout, { preset });
        expect(svg).toMatch(new RegExp(`^<svg [^>]*data-preset="${preset}"`));
        expect(svg).toContain(`fill="${THEMES[preset].background}"`);
        const showcase = type.render(type.starter, layout, { preset, quality: "showcase" });
        expect(svg).not.toContain("<feDropShadow");
        expect(showcase).toContain("<feDropShadow");
      }
    },
  );
});

describe("an unknown diagram_type", () => {
  it("is one located problem listing the registered types, with did-you-mean", async () => {
    const d = { ...baseDiagram(), diagram_type: "workflw" };
    const result = await validateSource(text(d), { file: "d.json" });
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      {
        file: "d.json",
        line: 3,
        column: 19,
        path: "/diagram_type",
        rule: "schema/enum",
        message: `"workflw" is not one of: ${TYPE_NAMES.join(", ")}`,
        suggestion: 'did you mean "workflow"?',
      },
    ]);
  });

  it("still gets the problems of the shared meta, and only those", async () => {
    const d = baseDiagram() as unknown as Record<string, unknown>;
    d.diagram_type = "gantt";
    const meta = d.meta as Record<string, unknown>;
    meta.visual_preset = "neon";
    meta.views = [
      { id: "v", title: "One", nodes: ["nowhere"] },
      { id: "v", title: "Two", nodes: ["a"] },
    ];
    d.lanes = "not checked: the type is unknown";
    const result = await validateSource(text(d));
    expect(result.problems.map((p) => [p.rule, p.path])).toEqual([
      ["schema/enum", "/diagram_type"],
      ["schema/enum", "/meta/visual_preset"],
      ["id/duplicate", "/meta/views/1/id"],
    ]);
  });

  it("a missing or non-string diagram_type is reported as such", async () => {
    const { diagram_type: _, ...rest } = baseDiagram();
    expect((await validateSource(text(rest))).problems.map((p) => [p.rule, p.path])).toEqual([
      ["schema/required", "/diagram_type"],
    ]);
    const numbered = { ...baseDiagram(), diagram_type: 7 };
    expect((await validateSource(text(numbered))).problems.map((p) => p.path)).toEqual([
      "/diagram_type",
    ]);
  });
});

describe("the combined schema for editors", () => {
  const combined = JSON.parse(shipped("diagram.schema.json")) as JsonSchema;
  const validate = new Ajv2020(AJV_OPTIONS).compile(combined);

  it("accepts every example and starter, each checked against its own type", async () => {
    const examples = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith(".json"));
    for (const file of examples) {
      const value = JSON.parse(readFileSync(join(EXAMPLES_DIR, file), "utf8"));
      expect(validate(value), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    for (const name of TYPE_NAMES) expect(validate((await loadType(name)).starter)).toBe(true);
  });

  it("refuses what the type's schema refuses, and an unknown diagram_type", () => {
    const unknownProperty = baseDiagram() as unknown as Record<string, unknown>;
    unknownProperty.colour = "red";
    expect(validate(unknownProperty)).toBe(false);
    expect(validate({ ...baseDiagram(), diagram_type: "gantt" })).toBe(false);
    const { meta: _, ...noMeta } = baseDiagram();
    expect(validate(noMeta)).toBe(false);
  });
});

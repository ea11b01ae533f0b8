import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VISUAL_PRESETS } from "../src/types/workflow/model.js";
import { renderSvg } from "../src/types/workflow/render.js";
import { renderCases, TESTDATA_DIR } from "./support/cases.js";

// Golden SVGs: test/testdata/<case>/exp.svg. After an intended change to the drawing, refresh
// them with `UPDATE_GOLDEN=1 npx vitest run --project diagrams render-golden` and review the diff.
const update = process.env.UPDATE_GOLDEN === "1";

describe("golden SVG for every example and render case", () => {
  for (const c of renderCases()) {
    it(c.name, () => {
      const svg = renderSvg(c.diagram);
      const dir = join(TESTDATA_DIR, c.name);
      const expected = join(dir, "exp.svg");
      if (update || !existsSync(expected)) {
        if (!update) throw new Error(`no golden file ${expected}: run with UPDATE_GOLDEN=1`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(expected, svg);
      }
      expect(svg).toBe(readFileSync(expected, "utf8"));
    });
  }
});

describe("golden SVG of the partner order example in every preset", () => {
  const example = renderCases().find((c) => c.name === "partner-order-flow");
  for (const preset of VISUAL_PRESETS) {
    it(preset, () => {
      if (!example) throw new Error("examples/diagrams/partner-order-flow.json is missing");
      const svg = renderSvg(example.diagram, { preset, quality: "standard" });
      const expected = join(TESTDATA_DIR, "partner-order-flow", `exp.${preset}.svg`);
      if (update) writeFileSync(expected, svg);
      expect(svg).toBe(readFileSync(expected, "utf8"));
    });
  }
});

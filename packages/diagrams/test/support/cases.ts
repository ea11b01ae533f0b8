import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { WorkflowDiagram } from "../../src/types/workflow/model.js";
import { validateWorkflow } from "./workflow.js";

export const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));
export const EXAMPLES_DIR = join(PACKAGE_DIR, "../../examples/diagrams");
export const TESTDATA_DIR = join(PACKAGE_DIR, "test/testdata");

interface RenderCase {
  name: string;
  /** The description file. */
  file: string;
  source: string;
  diagram: WorkflowDiagram;
}

function load(name: string, file: string): RenderCase {
  const source = readFileSync(file, "utf8");
  const result = validateWorkflow(source, { file });
  if (!result.ok) {
    throw new Error(`${file} is not valid:\n${JSON.stringify(result.problems, null, 2)}`);
  }
  return { name, file, source, diagram: result.diagram };
}

const isWorkflow = (file: string) =>
  (JSON.parse(readFileSync(file, "utf8")) as { diagram_type?: unknown }).diagram_type ===
  "workflow";

/** Every workflow example in examples/diagrams, plus the render cases kept in test/testdata/<case>/in.json. */
export function renderCases(): RenderCase[] {
  const examples = readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith(".json") && isWorkflow(join(EXAMPLES_DIR, f)))
    .sort()
    .map((f) => load(basename(f, ".json"), join(EXAMPLES_DIR, f)));
  const own = readdirSync(TESTDATA_DIR)
    .filter((d) => existsSync(join(TESTDATA_DIR, d, "in.json")))
    .sort()
    .map((d) => load(d, join(TESTDATA_DIR, d, "in.json")));
  return [...examples, ...own];
}

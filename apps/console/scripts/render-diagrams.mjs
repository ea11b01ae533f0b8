// Renders the project's diagrams with the diagram tool at build time, for the Integration page:
// an SVG per diagram and view in public/diagrams/ (copied into dist/ by Vite) and, for the
// page's text alternative, each diagram's drawings (its views, each with its size), title,
// subtitle, guided views and, by type, its messages, transitions, parts and relationships, or
// flows in src/generated/diagrams.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { exportDiagram, formatProblems, loadType, validateSource } from "@orderline/diagrams";
import { describeDiagram } from "./lib/describe-diagram.mjs";

const examples = new URL("../../../examples/diagrams/", import.meta.url);
/** The diagrams the Integration page shows, in order: of any type the diagram tool has. */
const DIAGRAMS = [
  "partner-order-flow",
  "partner-order-sequence",
  "token-refresh-sequence",
  "sales-order-lifecycle",
  "access-token-lifecycle",
  "change-language-lifecycle",
  "orderline-architecture",
  "signed-order-data-flow",
];

const publicDir = new URL("../public/diagrams/", import.meta.url);
const generatedDir = new URL("../src/generated/", import.meta.url);
mkdirSync(publicDir, { recursive: true });
mkdirSync(generatedDir, { recursive: true });

/** The drawing's own size, so that the page reserves its room and a wide one scrolls. */
function sizeOf(name, svg) {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? "";
  const width = Number(/\swidth="([\d.]+)"/.exec(root)?.[1]);
  const height = Number(/\sheight="([\d.]+)"/.exec(root)?.[1]);
  if (!(width > 0 && height > 0)) {
    console.error(`${name}: the SVG has no width and height in pixels`);
    process.exit(1);
  }
  return { width: Math.round(width), height: Math.round(height) };
}

/**
 * Every view the type draws of the description (an architecture's zoom levels), each its own
 * SVG file; a type without views gives one drawing, `<name>.svg`.
 */
async function drawingsOf(name, diagram, type) {
  const views = type.views?.(diagram) ?? [];
  if (views.length === 0) {
    const svg = String(await exportDiagram(diagram, "svg"));
    writeFileSync(new URL(`${name}.svg`, publicDir), svg);
    return [{ id: "", title: "", caption: "", file: `${name}.svg`, ...sizeOf(name, svg) }];
  }
  const drawings = [];
  for (const view of views) {
    const svg = String(await exportDiagram(diagram, "svg", { view: view.id }));
    const file = `${name}.${view.id}.svg`;
    writeFileSync(new URL(file, publicDir), svg);
    drawings.push({
      id: view.id,
      title: view.title,
      caption: view.caption ?? "",
      file,
      ...sizeOf(file, svg),
    });
  }
  return drawings;
}

const described = [];
for (const name of DIAGRAMS) {
  const file = fileURLToPath(new URL(`${name}.json`, examples));
  const result = await validateSource(readFileSync(file, "utf8"), { file });
  if (!result.ok) {
    console.error(formatProblems(result.problems, "text"));
    process.exit(1);
  }
  const { diagram } = result;
  const type = await loadType(diagram.diagram_type);
  // The type's own reports (a data-flow's trust boundary crossings), not recomputed here.
  const reports = Object.fromEntries(
    Object.entries(type.reports ?? {}).map(([report, { rows }]) => [report, rows(diagram)]),
  );
  const drawings = await drawingsOf(name, diagram, type);
  described.push({ name, drawings, ...describeDiagram(diagram, reports) });
}
writeFileSync(new URL("diagrams.json", generatedDir), `${JSON.stringify(described, null, 2)}\n`);
console.log(`rendered ${DIAGRAMS.length} diagram(s) into public/diagrams/`);

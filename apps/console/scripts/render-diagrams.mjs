// Renders the project's diagrams with the diagram tool at build time, for the Integration page:
// an SVG per diagram in public/diagrams/ (copied into dist/ by Vite) and, for the page's text
// alternative, each diagram's title, subtitle, guided views and, by type, its messages in order
// (sequence) or its transitions (lifecycle) in src/generated/diagrams.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { exportDiagram, formatProblems, validateSource } from "@orderline/diagrams";
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

const described = [];
for (const name of DIAGRAMS) {
  const file = fileURLToPath(new URL(`${name}.json`, examples));
  const result = await validateSource(readFileSync(file, "utf8"), { file });
  if (!result.ok) {
    console.error(formatProblems(result.problems, "text"));
    process.exit(1);
  }
  const { diagram } = result;
  const svg = String(await exportDiagram(diagram, "svg"));
  writeFileSync(new URL(`${name}.svg`, publicDir), svg);
  described.push({ name, ...sizeOf(name, svg), ...describeDiagram(diagram) });
}
writeFileSync(new URL("diagrams.json", generatedDir), `${JSON.stringify(described, null, 2)}\n`);
console.log(`rendered ${DIAGRAMS.length} diagram(s) into public/diagrams/`);

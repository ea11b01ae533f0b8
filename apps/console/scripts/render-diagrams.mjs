// Renders the project's diagrams with the diagram tool at build time, for the Integration page:
// an SVG per diagram in public/diagrams/ (copied into dist/ by Vite) and, for the page's text
// alternative, each diagram's title, subtitle and guided views in src/generated/diagrams.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { exportDiagram, formatProblems, validateSource } from "@orderline/diagrams";

const examples = new URL("../../../examples/diagrams/", import.meta.url);
/** The diagrams the Integration page shows, in order (sequence and lifecycle join as they land). */
const DIAGRAMS = ["partner-order-flow"];

const publicDir = new URL("../public/diagrams/", import.meta.url);
const generatedDir = new URL("../src/generated/", import.meta.url);
mkdirSync(publicDir, { recursive: true });
mkdirSync(generatedDir, { recursive: true });

const described = [];
for (const name of DIAGRAMS) {
  const file = fileURLToPath(new URL(`${name}.json`, examples));
  const result = await validateSource(readFileSync(file, "utf8"), { file });
  if (!result.ok) {
    console.error(formatProblems(result.problems, "text"));
    process.exit(1);
  }
  const { diagram } = result;
  writeFileSync(new URL(`${name}.svg`, publicDir), await exportDiagram(diagram, "svg"));
  described.push({
    name,
    language: diagram.meta.locale ?? "en",
    title: diagram.meta.title,
    subtitle: diagram.meta.subtitle ?? "",
    views: (diagram.meta.views ?? []).map((view) => ({
      title: view.title,
      caption: view.caption ?? "",
    })),
  });
}
writeFileSync(new URL("diagrams.json", generatedDir), `${JSON.stringify(described, null, 2)}\n`);
console.log(`rendered ${DIAGRAMS.length} diagram(s) into public/diagrams/`);

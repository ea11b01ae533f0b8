// The architecture part of the diagrams benchmark: a generated 60-element architecture (nested
// boundaries, every relationship kind) rendered to SVG in-process (layout included) and as a
// cold CLI process, side by side in the same run with Mermaid's CLI (mmdc, through
// bench/mermaid.mjs) drawing the same content as a flowchart with subgraphs.
//
//   node bench/architecture.mjs      this part alone (after npm run build)
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateArchitecture } from "./architecture-workload.mjs";
import { summarize, timeInProcess, timeProcess } from "./lib.mjs";
import { MERMAID_DIRECTION, mermaidId, mermaidQuoted } from "./mermaid.mjs";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(PACKAGE, "dist/cli/main.js");

/** The same architecture as a Mermaid flowchart: boundaries as subgraphs, kinds as arrows. */
export function toMermaidFlowchart(diagram) {
  const dir = MERMAID_DIRECTION[diagram.meta.direction ?? "right"];
  const lines = [`flowchart ${dir}`];
  const node = (e, indent) => {
    const text = [e.label, e.technology && `[${e.technology}]`].filter(Boolean).join("<br>");
    const shape =
      e.kind === "database" ? ["[(", ")]"] : e.kind === "person" ? ["([", "])"] : ["[", "]"];
    lines.push(`${indent}${mermaidId(e.id)}${shape[0]}"${mermaidQuoted(text)}"${shape[1]}`);
  };
  for (const e of diagram.elements ?? []) node(e, "  ");
  const boundary = (b, indent) => {
    lines.push(`${indent}subgraph ${mermaidId(b.id)}["${mermaidQuoted(b.label)}"]`);
    for (const e of b.elements ?? []) node(e, `${indent}  `);
    for (const inner of b.boundaries ?? []) boundary(inner, `${indent}  `);
    lines.push(`${indent}end`);
  };
  for (const b of diagram.boundaries ?? []) boundary(b, "  ");
  const arrow = { sync: "-->", async: "-.->", data: "==>" };
  for (const r of diagram.relationships ?? []) {
    const text = [r.label, r.technology && `[${r.technology}]`].filter(Boolean).join(" ");
    const label = text ? `|"${mermaidQuoted(text)}"|` : "";
    lines.push(`  ${mermaidId(r.from)} ${arrow[r.kind ?? "sync"]}${label} ${mermaidId(r.to)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Rows for bench/run.mjs's table, plus the cold CLI vs mmdc ratio. */
export async function benchArchitecture({ runs, coldRuns, mermaidRuns }) {
  const { type } = await import("../dist/types/architecture/index.js");
  const diagram = generateArchitecture({ elements: 60 });
  const rows = [];
  rows.push(
    summarize(
      "architecture layout: generated 60 elements (every boundary open)",
      await timeInProcess(() => type.layout(diagram, "all"), runs),
    ),
  );
  const inProcess = summarize(
    "architecture SVG in-process (layout + render): generated 60 elements",
    await timeInProcess(() => type.render(diagram, type.layout(diagram, "all")), runs),
  );
  rows.push(inProcess);
  const dir = mkdtempSync(join(tmpdir(), "orderline-bench-architecture-"));
  const file = join(dir, "architecture-60.json");
  writeFileSync(file, JSON.stringify(diagram, null, 2));
  const cold = summarize(
    "cold process: render generated 60-element architecture → svg",
    timeProcess([BIN, "render", file, "--view", "all", "-o", join(dir, "out.svg")], coldRuns),
  );
  rows.push(cold);
  let mermaid;
  const mermaidModule = new URL("./mermaid.mjs", import.meta.url);
  if (existsSync(mermaidModule) && mermaidRuns > 0) {
    const { renderWithMermaid } = await import(mermaidModule.href);
    const text = toMermaidFlowchart(diagram);
    writeFileSync(join(dir, "architecture-60.mmd"), text);
    const samples = [];
    for (let i = 0; i < mermaidRuns; i++) {
      samples.push(renderWithMermaid(text, join(dir, "mermaid.svg")));
    }
    mermaid = summarize(
      "cold process: mmdc flowchart with subgraphs, same 60 elements → svg",
      samples,
    );
    rows.push(mermaid);
  }
  const ratio = mermaid ? mermaid.median / cold.median : undefined;
  return { rows, ratio, inProcess, dir };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { formatRows } = await import("./validate.mjs");
  const coldRuns = Number(process.env.BENCH_COLD_RUNS ?? 10);
  // The bare Node start, in the same run: how loaded the machine is.
  const baseline = summarize(
    "cold process: node -e 0 (baseline)",
    timeProcess(["-e", "0"], coldRuns),
  );
  const result = await benchArchitecture({
    runs: Number(process.env.BENCH_RUNS ?? 50),
    coldRuns,
    mermaidRuns: Number(process.env.BENCH_MERMAID_RUNS ?? 5),
  });
  console.log(`Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
  console.log(formatRows([baseline, ...result.rows]));
  if (result.ratio !== undefined) {
    console.log(`\nmmdc / orderline cold architecture SVG (medians): ${result.ratio.toFixed(1)}×`);
  }
  console.log(`\nfiles: ${result.dir}`);
}

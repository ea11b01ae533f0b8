// The data-flow part of the diagrams benchmark: a generated 60-element data-flow diagram
// rendered to SVG in-process (layout included) and as a cold CLI process, side by side in the
// same run with Mermaid's CLI (mmdc, through bench/mermaid.mjs) drawing the same content as a
// flowchart with nested subgraphs for the trust boundaries. Part of bench/run.mjs; also runs
// alone: `node bench/data-flow.mjs` (after `npm run build`).
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateDataFlow } from "./data-flow-workload.mjs";
import { summarize, timeInProcess, timeProcess } from "./lib.mjs";
import { MERMAID_DIRECTION, mermaidId, mermaidQuoted } from "./mermaid.mjs";
import { formatRows } from "./validate.mjs";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(PACKAGE, "dist/cli/main.js");

/**
 * The same diagram as a Mermaid flowchart: boundaries as nested subgraphs holding their
 * elements, entities as boxes, processes rounded, stores as cylinders, each flow labelled with
 * its data, protocol and classification.
 */
export function toMermaidFlowchart(diagram) {
  const dir = MERMAID_DIRECTION[diagram.meta.direction ?? "right"];
  const lines = [`flowchart ${dir}`];
  const shape = (e) => {
    const text = mermaidQuoted([e.label, e.sublabel].filter(Boolean).join("<br/>"));
    if (e.kind === "process") return `${mermaidId(e.id)}(["${text}"])`;
    if (e.kind === "store") return `${mermaidId(e.id)}[("${text}")]`;
    return `${mermaidId(e.id)}["${text}"]`;
  };
  const boundaries = diagram.boundaries ?? [];
  const declare = (parent, indent) => {
    for (const e of diagram.elements.filter((x) => x.boundary === parent)) {
      lines.push(`${indent}${shape(e)}`);
    }
    for (const b of boundaries.filter((x) => x.boundary === parent)) {
      lines.push(`${indent}subgraph ${mermaidId(b.id)} ["${mermaidQuoted(b.label)}"]`);
      declare(b.id, `${indent}  `);
      lines.push(`${indent}end`);
    }
  };
  declare(undefined, "  ");
  for (const f of diagram.flows) {
    const detail = [f.protocol, f.classification].filter(Boolean).join(" · ");
    lines.push(
      `  ${mermaidId(f.from)} -->|"${mermaidQuoted(f.label)}<br/>${detail}"| ${mermaidId(f.to)}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Rows for bench/run.mjs's table, plus the cold CLI vs mmdc ratio. */
export async function benchDataFlow({ runs, coldRuns, mermaidRuns, elements = 60 }) {
  const { type } = await import("../dist/types/data-flow/index.js");
  const diagram = generateDataFlow({ elements });
  const rows = [];
  rows.push(
    summarize(
      `data-flow layout: generated ${elements} elements`,
      await timeInProcess(() => type.layout(diagram), runs),
    ),
  );
  const inProcess = summarize(
    `data-flow SVG in-process (layout + render): generated ${elements} elements`,
    await timeInProcess(async () => type.render(diagram, await type.layout(diagram)), runs),
  );
  rows.push(inProcess);
  const dir = mkdtempSync(join(tmpdir(), "orderline-bench-data-flow-"));
  const file = join(dir, `data-flow-${elements}.json`);
  writeFileSync(file, JSON.stringify(diagram, null, 2));
  const cold = summarize(
    `cold process: render generated ${elements}-element data flow → svg`,
    timeProcess([BIN, "render", file, "-o", join(dir, "out.svg")], coldRuns),
  );
  rows.push(cold);
  let mermaid;
  const mermaidModule = new URL("./mermaid.mjs", import.meta.url);
  if (existsSync(mermaidModule) && mermaidRuns > 0) {
    const { timeMermaid } = await import(mermaidModule.href);
    const text = toMermaidFlowchart(diagram);
    writeFileSync(join(dir, "same.mmd"), text);
    mermaid = summarize(
      `cold process: mmdc flowchart with subgraphs, same ${elements} elements → svg`,
      timeMermaid(text, join(dir, "mermaid.svg"), mermaidRuns),
    );
    rows.push(mermaid);
  }
  const ratio = mermaid ? mermaid.median / cold.median : undefined;
  return { rows, ratio, inProcess: inProcess.median, dir };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchDataFlow({
    runs: Number(process.env.BENCH_RUNS ?? 30),
    coldRuns: Number(process.env.BENCH_COLD_RUNS ?? 10),
    mermaidRuns: Number(process.env.BENCH_MERMAID_RUNS ?? 5),
  });
  console.log(`Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
  console.log(formatRows(result.rows));
  if (result.ratio !== undefined) {
    console.log(`\nmmdc / orderline cold data-flow SVG (medians): ${result.ratio.toFixed(1)}×`);
  }
  console.log(`inputs kept in ${result.dir}`);
}

// The lifecycle part of the diagrams benchmark: a generated 40-state machine rendered to SVG
// in-process (layout included) and as a cold CLI process, side by side in the same run with
// Mermaid's CLI (mmdc, through bench/mermaid.mjs) drawing the same machine as stateDiagram-v2.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarize, timeInProcess, timeProcess } from "./lib.mjs";
import { generateLifecycle } from "./lifecycle-workload.mjs";
import { MERMAID_DIRECTION, mermaidId, mermaidQuoted } from "./mermaid.mjs";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(PACKAGE, "dist/cli/main.js");

// A colon ends a state's label in stateDiagram-v2.
const quoted = (text) => mermaidQuoted(text).replaceAll(":", " ");

/** The same machine in Mermaid's stateDiagram-v2: states, composites, labelled transitions. */
function toMermaidState(diagram) {
  const lines = ["stateDiagram-v2"];
  const dir = MERMAID_DIRECTION[diagram.direction ?? "right"];
  lines.push(`  direction ${dir}`);
  const kinds = new Map();
  const declare = (states, indent) => {
    for (const s of states) {
      kinds.set(s.id, s.kind ?? "normal");
      if (s.kind === "choice") lines.push(`${indent}state ${mermaidId(s.id)} <<choice>>`);
      else if (s.states) {
        lines.push(`${indent}state "${quoted(s.label)}" as ${mermaidId(s.id)} {`);
        declare(s.states, `${indent}  `);
        const inner = new Set(s.states.map((c) => c.id));
        for (const t of diagram.transitions.filter((t) => inner.has(t.from) && inner.has(t.to))) {
          lines.push(`${indent}  ${edge(t)}`);
        }
        lines.push(`${indent}}`);
      } else if (!s.kind || s.kind === "normal") {
        lines.push(`${indent}state "${quoted(s.label)}" as ${mermaidId(s.id)}`);
      }
    }
  };
  const end = (id) => (["initial", "final"].includes(kinds.get(id)) ? "[*]" : mermaidId(id));
  const edge = (t) => {
    const parts = [t.event, t.guard && `[${t.guard}]`, t.action && `/ ${t.action}`].filter(Boolean);
    const label = parts.length ? ` : ${parts.join(" ").replaceAll(":", " ")}` : "";
    return `${end(t.from)} --> ${end(t.to)}${label}`;
  };
  declare(diagram.states, "  ");
  const nested = new Set();
  const collect = (states) => {
    for (const s of states) {
      if (s.states) for (const c of s.states) nested.add(c.id);
      collect(s.states ?? []);
    }
  };
  collect(diagram.states);
  for (const t of diagram.transitions) {
    if (nested.has(t.from) && nested.has(t.to)) continue;
    lines.push(`  ${edge(t)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Rows for bench/run.mjs's table, plus the cold CLI vs mmdc ratio. */
export async function benchLifecycle({ runs, coldRuns, mermaidRuns }) {
  const { type } = await import("../dist/types/lifecycle/index.js");
  const diagram = generateLifecycle({ states: 40 });
  const rows = [];
  rows.push(
    summarize(
      "lifecycle layout: generated 40 states",
      await timeInProcess(() => type.layout(diagram), runs),
    ),
  );
  const inProcess = summarize(
    "lifecycle SVG in-process (layout + render): generated 40 states",
    await timeInProcess(async () => type.render(diagram, await type.layout(diagram)), runs),
  );
  rows.push(inProcess);
  const dir = mkdtempSync(join(tmpdir(), "orderline-bench-lifecycle-"));
  const file = join(dir, "lifecycle-40.json");
  writeFileSync(file, JSON.stringify(diagram, null, 2));
  const cold = summarize(
    "cold process: render generated 40-state lifecycle → svg",
    timeProcess([BIN, "render", file, "-o", join(dir, "out.svg")], coldRuns),
  );
  rows.push(cold);
  let mermaid;
  const mermaidModule = new URL("./mermaid.mjs", import.meta.url);
  if (existsSync(mermaidModule) && mermaidRuns > 0) {
    const { timeMermaid } = await import(mermaidModule.href);
    const text = toMermaidState(diagram);
    mermaid = summarize(
      "cold process: mmdc stateDiagram-v2, same 40-state machine → svg",
      timeMermaid(text, join(dir, "mermaid.svg"), mermaidRuns),
    );
    rows.push(mermaid);
  }
  const ratio = mermaid ? mermaid.median / cold.median : undefined;
  return { rows, ratio };
}

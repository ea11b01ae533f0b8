// The sequence part of the diagrams benchmark: a generated 12-participant,
// 200-message sequence with nested fragments, rendered to SVG in-process and by cold CLI
// processes, side by side in the same run with Mermaid's CLI (bench/mermaid.mjs) drawing the
// same content as a sequenceDiagram. Measures dist/. Run alone: node bench/sequence.mjs
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { summarize, timeInProcess, timeProcess } from "./lib.mjs";
import { ensureMermaid, renderWithMermaid } from "./mermaid.mjs";
import { generateSequence } from "./sequence-workload.mjs";

const BIN = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));

/** Mermaid's text for a sequence description: same participants, messages, fragments, notes. */
export function toMermaid(d) {
  const text = (s) => String(s ?? "").replaceAll(/[;#\n]/g, ",");
  const out = ["sequenceDiagram"];
  if (d.autonumber) out.push("autonumber");
  for (const p of d.participants) out.push(`participant ${p.id} as ${text(p.label)}`);
  const arrows = { call: "->>", async: "-)", reply: "-->>", create: "->>", destroy: "-x" };
  const steps = (list, indent) => {
    const pad = "  ".repeat(indent);
    for (const s of list) {
      if (s.kind in arrows) {
        const plus = s.activate ? "+" : s.deactivate ? "-" : "";
        out.push(`${pad}${s.from}${arrows[s.kind]}${plus}${s.to}: ${text(s.label)}`);
      } else if (s.kind === "activate" || s.kind === "deactivate") {
        out.push(`${pad}${s.kind} ${s.participant}`);
      } else if (s.kind === "note") {
        const where =
          s.position === "left" ? "left of" : s.position === "right" ? "right of" : "over";
        out.push(`${pad}Note ${where} ${s.participants.join(",")}: ${text(s.text)}`);
      } else if (s.kind === "divider") {
        const all = d.participants;
        out.push(`${pad}Note over ${all[0].id},${all[all.length - 1].id}: ${text(s.label)}`);
      } else if (s.kind === "alt" || s.kind === "par") {
        s.branches.forEach((b, i) => {
          out.push(
            `${pad}${i === 0 ? s.kind : s.kind === "alt" ? "else" : "and"} ${text(b.guard)}`,
          );
          steps(b.steps, indent + 1);
        });
        out.push(`${pad}end`);
      } else {
        out.push(`${pad}${s.kind} ${text(s.guard)}`);
        steps(s.steps, indent + 1);
        out.push(`${pad}end`);
      }
    }
  };
  steps(d.steps, 1);
  return `${out.join("\n")}\n`;
}

/** CPU time (ms, user + system) of `runs` calls of fn, after 20 warm-up calls. */
function cpuTimes(fn, runs) {
  for (let i = 0; i < 20; i++) fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    fn();
    const used = process.cpuUsage(start);
    samples.push((used.user + used.system) / 1000);
  }
  return samples;
}

/**
 * Rows for the benchmark table and the cold-CLI speed-up over mmdc (median over median);
 * `mermaidRuns` 0 leaves Mermaid out.
 */
export async function benchSequence({ runs, coldRuns, mermaidRuns }) {
  const { type } = await import("../dist/types/sequence/index.js");
  const diagram = generateSequence({ participants: 12, messages: 200 });
  const label = "sequence 12 participants, 200 messages";
  const render = () => type.render(diagram, type.layout(diagram));
  const rows = [
    summarize(`layout + SVG in-process: ${label}`, await timeInProcess(render, runs)),
    // CPU time of the same work: on a shared, loaded machine the wall time above mostly
    // measures waiting for a core.
    summarize(`layout + SVG in-process, cpu time: ${label}`, cpuTimes(render, runs)),
  ];
  let speedUp;
  const dir = mkdtempSync(join(tmpdir(), "orderline-bench-sequence-"));
  try {
    const file = join(dir, "sequence.json");
    writeFileSync(file, JSON.stringify(diagram, null, 2));
    const ours = summarize(
      `cold process: orderline-diagrams render → svg: ${label}`,
      timeProcess([BIN, "render", file, "-o", join(dir, "ours.svg")], coldRuns),
    );
    rows.push(ours);
    if (mermaidRuns > 0) {
      ensureMermaid();
      const mmd = toMermaid(diagram);
      const samples = [];
      for (let i = 0; i < mermaidRuns; i++)
        samples.push(renderWithMermaid(mmd, join(dir, "mermaid.svg")));
      const theirs = summarize(`cold process: mmdc → svg (Mermaid CLI 11): ${label}`, samples);
      rows.push(theirs);
      speedUp = theirs.median / ours.median;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { rows, speedUp };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { formatRows } = await import("./validate.mjs");
  const { rows, speedUp } = await benchSequence({
    runs: Number(process.env.BENCH_RUNS ?? 100),
    coldRuns: Number(process.env.BENCH_COLD_RUNS ?? 15),
    mermaidRuns: Number(process.env.BENCH_MERMAID_RUNS ?? 5),
  });
  console.log(formatRows(rows));
  if (speedUp !== undefined) console.log(`\nCold CLI SVG vs mmdc: ${speedUp.toFixed(1)}× faster`);
}

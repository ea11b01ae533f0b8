/**
 * A lifecycle description → Mermaid `stateDiagram-v2`. Each region's initial and final state
 * become `[*]` inside its block; what Mermaid cannot say goes into `%% @orderline` annotations.
 */
import {
  allStates,
  type LifecycleDiagram,
  type State,
  type Transition,
  transitionText,
} from "../../types/lifecycle/model.js";
import {
  annotationFor,
  annotationLine,
  carried,
  diagramNoteLine,
  encodeText,
  idsLine,
  mermaidIds,
  titleFrontMatter,
} from "../source.js";
import { DIRECTION_OF, pseudoName, readLabel } from "./import.js";

const MERMAID_DIRECTION = Object.fromEntries(
  Object.entries(DIRECTION_OF)
    .filter(([k]) => k !== "TD")
    .map(([k, v]) => [v, k]),
);

/**
 * Which states are written as `[*]` (each region's first initial and first final state), and
 * the region whose block holds a transition: the region of its `[*]` end, "" for the top level.
 */
export function starRegions(d: LifecycleDiagram): {
  star: Map<string, string>;
  home: (t: Transition) => string;
  regions: [State[], State | undefined][];
} {
  const star = new Map<string, string>();
  const regions: [State[], State | undefined][] = [[d.states, undefined]];
  for (const e of allStates(d.states)) if (e.state.states) regions.push([e.state.states, e.state]);
  for (const [states, parent] of regions) {
    for (const kind of ["initial", "final"] as const) {
      const first = states.find((s) => s.kind === kind);
      if (first) star.set(first.id, parent?.id ?? "");
    }
  }
  return { star, regions, home: (t) => star.get(t.from) ?? star.get(t.to) ?? "" };
}

export function exportState(d: LifecycleDiagram): string {
  const entries = allStates(d.states);
  const ids = mermaidIds(entries.map((e) => e.state.id));
  const { star, home, regions } = starRegions(d);
  for (const [states, parent] of regions) {
    for (const s of states) {
      if (star.get(s.id) !== (parent?.id ?? "")) continue;
      const name = pseudoName(
        parent ? ids.of(parent.id) : undefined,
        s.kind as "initial" | "final",
      );
      if (name !== s.id) ids.back[name] = s.id;
    }
  }
  const end = (id: string) => (star.has(id) ? "[*]" : ids.of(id));

  const out = [...titleFrontMatter(d.meta.title), "stateDiagram-v2"];
  const read = {
    ...carried(d, ["states", "transitions", "notes"]),
    meta: { title: d.meta.title, ...(d.meta.direction ? { direction: d.meta.direction } : {}) },
  };
  const body: string[] = [];
  if (d.meta.direction) body.push(`  direction ${MERMAID_DIRECTION[d.meta.direction]}`);

  const transitions = (region: string, indent: string) => {
    for (const t of d.transitions) {
      if (home(t) !== region) continue;
      const label = transitionText(t).join(" ");
      const read: Transition = { from: t.from, to: t.to, ...readLabel(label) };
      body.push(...annotationLine(indent, annotationFor(t, read)));
      body.push(
        `${indent}${end(t.from)} --> ${end(t.to)}${label ? ` : ${encodeText(label)}` : ""}`,
      );
    }
  };
  const declare = (states: State[], indent: string) => {
    for (const s of states) {
      if (star.has(s.id)) continue;
      const name = ids.of(s.id);
      let read: State;
      let line: string;
      if (s.kind === "choice" || s.kind === "fork" || s.kind === "join") {
        read = { id: s.id, kind: s.kind };
        line = `state ${name} <<${s.kind}>>`;
      } else if (s.kind === "initial" || s.kind === "final" || s.label === undefined) {
        read = { id: s.id, label: name };
        line = `state ${name}`;
      } else {
        read = { id: s.id, label: s.label };
        line = `state "${encodeText(s.label)}" as ${name}`;
      }
      const describe = s.sublabel !== undefined && read.label !== undefined;
      if (describe) read.sublabel = s.sublabel;
      if (s.states) read.states = s.states;
      body.push(...annotationLine(indent, annotationFor(s, read)));
      body.push(`${indent}${line}${s.states ? " {" : ""}`);
      if (s.states) {
        declare(s.states, `${indent}  `);
        transitions(s.id, `${indent}  `);
        body.push(`${indent}}`);
      }
      if (describe) body.push(`${indent}${name} : ${encodeText(s.sublabel as string)}`);
    }
  };
  declare(d.states, "  ");
  transitions("", "  ");
  for (const n of d.notes ?? []) {
    body.push(...annotationLine("  ", annotationFor(n, { state: n.state, text: n.text })));
    body.push(`  note right of ${ids.of(n.state)} : ${encodeText(n.text)}`);
  }
  out.push(...idsLine(ids.back), ...diagramNoteLine(d, read), ...body);
  return `${out.join("\n")}\n`;
}

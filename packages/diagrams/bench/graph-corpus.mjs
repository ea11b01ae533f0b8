// The seeded corpus of graph-type drawings that the layout tests check and the crossings
// benchmark compares with Graphviz dot: for each seed one lifecycle (8–20 states, up to two
// composites, notes on either side, retries and skips), one architecture (10–30 elements) and
// one data-flow (8–30 elements). The same seed gives the same description on every machine.
import { generateArchitecture } from "./architecture-workload.mjs";
import { generateDataFlow } from "./data-flow-workload.mjs";

function random(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const WORDS = ["created", "paid", "packed", "shipped", "held", "refunded", "closed", "checked"];
const SIDES = ["left", "right", "above", "below", undefined];

/** A state machine of 8–20 states: a main chain, composites woven in, retries, skips, notes. */
export function corpusLifecycle(seed) {
  const rnd = random(seed * 7919 + 1);
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const total = int(8, 20);
  const composites = total >= 12 ? int(0, 2) : 0;
  const states = [{ id: "start", kind: "initial" }];
  const chain = [];
  const transitions = [];
  let made = 1;
  for (let c = 1; c <= composites; c++) {
    const inner = int(2, 3);
    const children = [{ id: `c${c}-start`, kind: "initial" }];
    for (let k = 1; k <= inner; k++) children.push({ id: `c${c}-${k}`, label: `step ${c}.${k}` });
    transitions.push({ from: `c${c}-start`, to: `c${c}-1` });
    for (let k = 1; k < inner; k++) {
      transitions.push({ from: `c${c}-${k}`, to: `c${c}-${k + 1}`, event: `next ${k}` });
    }
    states.push({ id: `c${c}`, label: `Stage ${c}`, states: children });
    chain.push(`c${c}`);
    made += inner + 2;
  }
  for (let i = 1; made < total; i++, made++) {
    const id = `s${i}`;
    states.push({ id, label: `${WORDS[int(0, WORDS.length - 1)]} ${i}` });
    chain.splice(int(0, chain.length), 0, id);
  }
  states.push({ id: "end", kind: "final" });
  transitions.push({ from: "start", to: chain[0] });
  for (let i = 0; i + 1 < chain.length; i++) {
    transitions.push({ from: chain[i], to: chain[i + 1], event: `advance ${i + 1}` });
  }
  transitions.push({ from: chain[chain.length - 1], to: "end", event: "close" });
  const extra = int(1, Math.max(2, Math.floor(chain.length / 2)));
  for (let e = 0; e < extra; e++) {
    const a = int(0, chain.length - 1);
    const b = int(0, chain.length - 1);
    if (a === b) continue;
    const t = { from: chain[a], to: chain[b], event: b < a ? `retry ${e}` : `skip ${e}` };
    if (rnd() < 0.3) t.guard = "manual approval";
    transitions.push(t);
  }
  if (rnd() < 0.5) transitions.push({ from: chain[int(0, chain.length - 1)], to: "end" });
  const notes = [];
  for (let n = int(0, 2); n > 0; n--) {
    const note = {
      state: chain[int(0, chain.length - 1)],
      text: "Kept for a year, then archived.",
    };
    const side = SIDES[int(0, SIDES.length - 1)];
    if (side) note.side = side;
    notes.push(note);
  }
  const d = {
    schema_version: 2,
    diagram_type: "lifecycle",
    meta: { title: `Corpus lifecycle ${seed}` },
    states,
    transitions,
  };
  if (notes.length > 0) d.notes = notes;
  return d;
}

export function corpusArchitecture(seed) {
  const rnd = random(seed * 104729 + 3);
  return generateArchitecture({ elements: 10 + Math.floor(rnd() * 21), seed: seed + 1 });
}

export function corpusDataFlow(seed) {
  const rnd = random(seed * 1299709 + 5);
  return generateDataFlow({ elements: 8 + Math.floor(rnd() * 23), seed: seed + 1 });
}

export const CORPUS = {
  lifecycle: corpusLifecycle,
  architecture: corpusArchitecture,
  "data-flow": corpusDataFlow,
};

// A generated lifecycle of a given size, the same on every run: the benchmark's workload and
// the geometric tests' large case. `states` named states in all, three of them composite
// (each holding an initial state and four states), a chain that reaches every state, and
// about half as many extra transitions again, forward and back, some with guards and actions.

/** Deterministic pseudo-random numbers (a linear congruential generator). */
function random(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const WORDS = [
  "pending",
  "review",
  "approved",
  "on hold",
  "waiting for payment",
  "shipped",
  "archived",
  "escalated",
];

export function generateLifecycle({ states: total = 40, seed = 7 } = {}) {
  const rnd = random(seed);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const composites = 3;
  const inner = 4;
  const top = total - composites * inner - composites;
  const states = [{ id: "start", kind: "initial" }];
  const order = []; // top-level ids in chain order
  for (let i = 1; i <= top; i++) {
    const id = `s${i}`;
    const state = { id, label: `${pick(WORDS)} ${i}` };
    if (i % 5 === 0) state.sublabel = "checked every hour";
    states.push(state);
    order.push(id);
  }
  const transitions = [{ from: "start", to: order[0] }];
  for (let c = 1; c <= composites; c++) {
    const id = `c${c}`;
    const children = [{ id: `${id}-start`, kind: "initial" }];
    for (let k = 1; k <= inner; k++) children.push({ id: `${id}-${k}`, label: `step ${c}.${k}` });
    states.push({ id, label: `Stage ${c}`, states: children });
    transitions.push({ from: `${id}-start`, to: `${id}-1` });
    for (let k = 1; k < inner; k++) {
      transitions.push({ from: `${id}-${k}`, to: `${id}-${k + 1}`, event: `next ${k}` });
    }
    // Woven into the chain: enter the composite after one top state, leave it to the next.
    const at = Math.floor((c * top) / (composites + 1));
    order.splice(at, 0, id);
  }
  states.push({ id: "end", kind: "final" });
  for (let i = 0; i + 1 < order.length; i++) {
    const t = { from: order[i], to: order[i + 1], event: `advance ${i + 1}` };
    if (i % 4 === 1) t.guard = "all checks passed";
    if (i % 6 === 2) t.action = "notify the owner";
    transitions.push(t);
  }
  transitions.push({ from: order[order.length - 1], to: "end", event: "close" });
  const extra = Math.floor(total / 2);
  for (let e = 0; e < extra; e++) {
    const a = Math.floor(rnd() * order.length);
    let b = Math.floor(rnd() * order.length);
    if (b === a) b = (a + 2) % order.length;
    const t = { from: order[a], to: order[b], event: b < a ? `retry ${e}` : `skip ${e}` };
    if (rnd() < 0.4) t.guard = pick(["manual approval", "amount over 10 000", "partner asks"]);
    if (rnd() < 0.3) t.action = "log the reason";
    if (b < a) t.role = "return";
    transitions.push(t);
  }
  return {
    schema_version: 2,
    diagram_type: "lifecycle",
    meta: { title: `Generated lifecycle, ${total} states` },
    states,
    transitions,
  };
}

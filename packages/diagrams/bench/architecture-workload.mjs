// A generated architecture of a given size, the same on every run: the benchmark's workload and
// the geometric tests' large cases. `elements` elements in all: a few people and external
// systems outside, the rest in systems of five to seven boundaries, some nested two and three
// deep (a cluster in a system, a module in a cluster), and about 1.3 relationships per element,
// a tree within each system, some across systems, of every kind.

/** Deterministic pseudo-random numbers (a linear congruential generator). */
function random(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const INNER_KINDS = ["container", "container", "component", "database", "queue"];
const WORDS = ["orders", "billing", "search", "catalog", "accounts", "reports", "stock", "mail"];

export function generateArchitecture({ elements: total = 60, seed = 11 } = {}) {
  const rnd = random(seed);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const outside = Math.max(2, Math.round(total / 10));
  const elements = [];
  for (let i = 1; i <= outside; i++) {
    elements.push(
      i % 2 === 1
        ? { id: `p${i}`, kind: "person", label: `User group ${i}` }
        : { id: `x${i}`, kind: "external_system", label: `Partner ${i}`, technology: "REST" },
    );
  }
  const inner = total - outside;
  const systems = Math.max(1, Math.round(inner / 12));
  const ids = [];
  const systemOf = [];
  const systemStart = [];
  const boundaries = [];
  let made = 0;
  const element = (n) => {
    const kind = pick(INNER_KINDS);
    const id = `e${n}`;
    ids.push(id);
    systemOf.push(systemStart.length - 1);
    const e = { id, kind, label: `${pick(WORDS)} ${kind} ${n}` };
    if (n % 3 === 0) e.technology = kind === "database" ? "PostgreSQL" : "Node.js";
    if (n % 4 === 0) e.description = "Handles one part of the work";
    return e;
  };
  for (let s = 1; s <= systems; s++) {
    const share = s === systems ? inner - made : Math.floor(inner / systems);
    const system = { id: `s${s}`, kind: "system", label: `System ${s}`, elements: [] };
    systemStart.push(ids.length);
    // A third in a cluster, of which a third again in a module inside it.
    const deep = Math.floor(share / 9);
    const mid = Math.floor(share / 3) - deep;
    const flat = share - mid - deep;
    for (let k = 0; k < flat; k++) system.elements.push(element(++made));
    if (mid > 0) {
      const cluster = { id: `s${s}c`, kind: "cluster", label: `Cluster ${s}`, elements: [] };
      for (let k = 0; k < mid; k++) cluster.elements.push(element(++made));
      if (deep > 0) {
        const module = { id: `s${s}m`, kind: "group", label: `Module ${s}`, elements: [] };
        for (let k = 0; k < deep; k++) module.elements.push(element(++made));
        cluster.boundaries = [module];
      }
      system.boundaries = [cluster];
    } else {
      for (let k = 0; k < deep; k++) system.elements.push(element(++made));
    }
    boundaries.push(system);
  }
  const relationships = [];
  const kinds = ["sync", "sync", "async", "data"];
  elements.forEach((e, i) => {
    relationships.push({ from: e.id, to: ids[systemStart[i % systemStart.length]] });
  });
  // Within each system a tree: each element is used by one a few places before it.
  for (let i = 1; i < ids.length; i++) {
    const system = systemOf[i];
    const first = systemStart[system];
    if (i === first) continue;
    const from = first + Math.floor((i - first - 1) / 3);
    const r = { from: ids[from], to: ids[i], kind: pick(kinds) };
    if (i % 2 === 0) r.label = `${pick(WORDS)} ${i}`;
    if (i % 5 === 0) r.technology = "HTTPS";
    relationships.push(r);
  }
  const extra = Math.round(total * 0.3);
  for (let k = 0; k < extra; k++) {
    const a = Math.floor(rnd() * ids.length);
    const b = Math.floor(rnd() * ids.length);
    if (a === b) continue;
    relationships.push({ from: ids[a], to: ids[b], kind: pick(kinds), label: `uses ${k}` });
  }
  return {
    schema_version: 2,
    diagram_type: "architecture",
    meta: { title: `Generated architecture (${total} elements)` },
    elements,
    boundaries,
    relationships,
    views: [
      { id: "all", title: "Everything", expand: "all" },
      { id: "context", title: "Context" },
    ],
  };
}

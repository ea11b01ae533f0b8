// A generated data-flow diagram of a given size, the same on every run: the benchmark's
// workload and the geometric tests' large cases. Built like a real system: zones in a row,
// each a trust boundary of about eight elements (every third zone nested in the one before),
// a few elements outside any zone. In each zone an external entity feeds the zone's first
// process, its processes pass the data along (on to the next zone too), each data store is
// written by one process and read by the next, and the last process answers the entity. Every
// DFD rule holds, and every classification is used.

/** Deterministic pseudo-random numbers (a linear congruential generator). */
function random(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

const DATA = ["Order", "Invoice", "Customer record", "Token", "Price list", "Audit event", "Key"];
const PROTOCOLS = ["HTTPS", "SQL over TLS", "AMQP", "gRPC", undefined];
const CLASSES = ["public", "internal", "confidential", "personal"];
/** One zone's elements, in order: an entity, processes, stores between them. */
const ZONE = ["entity", "process", "store", "process", "process", "store", "process", "store"];

export function generateDataFlow({ elements: total = 60, seed = 7 } = {}) {
  const rnd = random(seed);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const zones = Math.max(1, Math.ceil(total / ZONE.length));
  const boundaries = [];
  const elements = [];
  const flows = [];
  const counts = { entity: 0, process: 0, store: 0 };
  const flow = (from, to) => {
    const protocol = pick(PROTOCOLS);
    flows.push({
      id: `f${flows.length}`,
      from,
      to,
      label: pick(DATA),
      ...(protocol ? { protocol } : {}),
      classification: CLASSES[flows.length % CLASSES.length],
    });
  };
  let previous; // the last process of the zone before
  for (let z = 0; z < zones && elements.length < total; z++) {
    const boundary = { id: `b${z}`, label: `Zone ${z}` };
    if (z % 3 === 2) boundary.boundary = `b${z - 1}`;
    if (z % 4 === 1) boundary.sublabel = "TLS ends here";
    const kinds = ZONE.slice(0, total - elements.length);
    // The zone's last element stays outside every boundary in every fifth zone.
    const outside = z % 5 === 4 ? kinds.length - 1 : -1;
    const ids = kinds.map((kind, k) => {
      const id = `${kind[0]}${counts[kind]++}`;
      const element = {
        id,
        kind,
        label: `${{ entity: "Partner", process: "Handle", store: "Store" }[kind]} ${id.slice(1)}`,
      };
      if (counts[kind] % 4 === 1)
        element.sublabel = pick(["Node.js", "PostgreSQL", "partner's", "batch"]);
      if (k !== outside) element.boundary = boundary.id;
      elements.push(element);
      return { id, kind };
    });
    if (ids.some((_, k) => k !== outside)) boundaries.push(boundary);
    const processes = ids.filter((e) => e.kind === "process").map((e) => e.id);
    const entity = ids.find((e) => e.kind === "entity")?.id;
    if (processes.length === 0) {
      // A short last zone: its stores and entity hang off the previous zone's last process.
      for (const e of ids) {
        flow(previous, e.id);
        if (e.kind === "entity") flow(e.id, previous);
      }
      continue;
    }
    if (entity) flow(entity, processes[0]);
    if (previous) flow(previous, processes[0]);
    for (let k = 0; k + 1 < processes.length; k++) flow(processes[k], processes[k + 1]);
    // Each store sits between the processes around it: written before, read after.
    ids.forEach((e, k) => {
      if (e.kind !== "store") return;
      const before =
        ids
          .slice(0, k)
          .reverse()
          .find((x) => x.kind === "process")?.id ?? processes[0];
      const after = ids.slice(k + 1).find((x) => x.kind === "process")?.id ?? processes[0];
      flow(before, e.id);
      flow(e.id, after);
    });
    const last = processes[processes.length - 1];
    flow(last, entity ?? processes[0]);
    previous = last;
  }
  return {
    schema_version: 2,
    diagram_type: "data-flow",
    meta: { title: `Generated data flow, ${total} elements` },
    boundaries,
    elements,
    flows,
  };
}

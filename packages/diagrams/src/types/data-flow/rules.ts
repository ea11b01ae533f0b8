import type { ViewTargets } from "../../core/validate/meta-rules.js";
import type { UnlocatedProblem } from "../../core/validate/schema-problems.js";
import { didYouMean } from "../../core/validate/suggest.js";
import { duplicateIds, isId, isObj, objects, suggestion } from "../../core/validate/values.js";

/**
 * The data-flow rules the JSON Schema cannot say, as DFD practice has them: ids unique (elements
 * and boundaries share one namespace, since a view may name either), references resolve,
 * boundaries nest without cycles and enclose something, every flow has a process at one end at
 * least (data never moves between entities and stores by itself), every process has an input
 * and an output, and no entity or store stands unconnected.
 *
 * They read the raw parsed value, so a description with a schema problem still gets every
 * other problem in the same run; anything of the wrong shape is skipped. The graph rules wait
 * until every flow end resolves, so a misspelt id gives one `ref/element`, not also "a process
 * without input".
 */

interface Declared {
  kind: "boundary" | "entity" | "process" | "store" | "element";
  pointer: string;
}

const KIND_NAME: Record<Declared["kind"], string> = {
  boundary: "trust boundary",
  entity: "external entity",
  process: "process",
  store: "data store",
  element: "element",
};

type Objects = [Record<string, unknown>, number][];

export function dataFlowRuleProblems(value: unknown): UnlocatedProblem[] {
  if (!isObj(value)) return [];
  const problems: UnlocatedProblem[] = [];
  const boundaries = objects(value.boundaries);
  const elements = objects(value.elements);
  const ids = declareIds(problems, boundaries, elements);
  problems.push(...duplicateIds([["flows", value.flows, "flow"]]));
  placementProblems(problems, ids, boundaries, elements);
  const joined = flowProblems(problems, ids, value.flows);
  if (joined) connectionProblems(problems, ids, elements, joined);
  return problems;
}

/** Element and boundary ids (one set), and each boundary's parent. */
interface Ids {
  declared: Map<string, Declared>;
  boundaryParent: Map<string, string | undefined>;
}

function declareIds(problems: UnlocatedProblem[], boundaries: Objects, elements: Objects): Ids {
  const declared = new Map<string, Declared>();
  const boundaryParent = new Map<string, string | undefined>();
  const declare = (id: unknown, kind: Declared["kind"], pointer: string): boolean => {
    if (!isId(id)) return false;
    const earlier = declared.get(id);
    if (earlier) {
      problems.push({
        path: `${pointer}/id`,
        rule: "id/duplicate",
        message: `id "${id}" is already used by ${earlier.pointer}; elements and boundaries share one set of ids`,
      });
      return false;
    }
    declared.set(id, { kind, pointer });
    return true;
  };
  for (const [b, i] of boundaries) {
    if (declare(b.id, "boundary", `/boundaries/${i}`)) {
      boundaryParent.set(b.id as string, isId(b.boundary) ? b.boundary : undefined);
    }
  }
  for (const [e, i] of elements) {
    const kind =
      e.kind === "entity" || e.kind === "process" || e.kind === "store" ? e.kind : "element";
    declare(e.id, kind, `/elements/${i}`);
  }
  return { declared, boundaryParent };
}

/** Placement: each names a declared boundary; no cycle; no boundary left empty. */
function placementProblems(
  problems: UnlocatedProblem[],
  { declared, boundaryParent }: Ids,
  boundaries: Objects,
  elements: Objects,
): void {
  const boundaryIds = [...boundaryParent.keys()];
  const enclosed = new Set<string>();
  let misplaced = false;
  const placedIn = (o: Record<string, unknown>, pointer: string, what: string) => {
    // A placement that is no id at all is the schema's one problem; the boundary it meant
    // is then not reported empty either.
    if (o.boundary !== undefined && !isId(o.boundary)) misplaced = true;
    if (!isId(o.boundary)) return;
    if (boundaryParent.has(o.boundary)) {
      enclosed.add(o.boundary);
      return;
    }
    misplaced = true;
    const other = declared.get(o.boundary);
    problems.push({
      path: `${pointer}/boundary`,
      rule: "ref/boundary",
      message: other
        ? `${what} is placed in "${o.boundary}", which is ${article(KIND_NAME[other.kind])}, not a trust boundary`
        : `${what} is placed in boundary "${o.boundary}", which is not declared in boundaries`,
      ...suggestion(didYouMean(o.boundary, boundaryIds)),
    });
  };
  for (const [b, i] of boundaries) placedIn(b, `/boundaries/${i}`, `boundary "${String(b.id)}"`);
  for (const [e, i] of elements) placedIn(e, `/elements/${i}`, `element "${String(e.id)}"`);
  cycles(problems, boundaries, boundaryParent);
  // A misspelt placement is one problem, not also "the boundary it meant is empty".
  for (const [b, i] of misplaced ? [] : boundaries) {
    if (isId(b.id) && declared.get(b.id)?.pointer === `/boundaries/${i}` && !enclosed.has(b.id)) {
      problems.push({
        path: `/boundaries/${i}`,
        rule: "boundary/empty",
        message: `trust boundary "${b.id}" encloses nothing; no element or boundary names it`,
        suggestion: `add "boundary": "${b.id}" to the elements it encloses, or remove it`,
      });
    }
  }
}

/**
 * Flows: ends resolve, one end a process at least. The elements flows enter and leave, or
 * undefined when some end does not resolve (then connections are not judged).
 */
function flowProblems(
  problems: UnlocatedProblem[],
  { declared }: Ids,
  flows: unknown,
): { ins: Set<string>; outs: Set<string> } | undefined {
  const elementIds = [...declared].filter(([, d]) => d.kind !== "boundary").map(([id]) => id);
  let unresolved = !Array.isArray(flows);
  const ins = new Set<string>();
  const outs = new Set<string>();
  const end = (id: unknown, path: string, where: string): Declared | undefined => {
    if (!isId(id)) return undefined;
    const d = declared.get(id);
    if (d && d.kind !== "boundary") return d;
    problems.push({
      path,
      rule: "ref/element",
      message: d
        ? `${where} "${id}" is a trust boundary; flows join elements (entities, processes, stores)`
        : `${where} "${id}" does not name any element`,
      ...suggestion(didYouMean(id, elementIds)),
    });
    return undefined;
  };
  for (const [f, i] of objects(flows)) {
    const from = end(f.from, `/flows/${i}/from`, "from");
    const to = end(f.to, `/flows/${i}/to`, "to");
    if (!from || !to) {
      unresolved = true;
      continue;
    }
    outs.add(f.from as string);
    ins.add(f.to as string);
    if (f.from === f.to) {
      problems.push({
        path: `/flows/${i}/to`,
        rule: "flow/self",
        message: `flow goes from "${f.from}" to itself; a data flow joins two elements`,
      });
      continue;
    }
    const processAtAnEnd = [from.kind, to.kind].some((k) => k === "process" || k === "element");
    if (!processAtAnEnd) {
      problems.push({
        path: `/flows/${i}`,
        rule: "flow/no-process",
        message: `flow from ${KIND_NAME[from.kind]} "${f.from}" to ${KIND_NAME[to.kind]} "${f.to}" has no process at either end; data only moves through a process`,
        suggestion: "add the process that moves the data, and a flow into it and out of it",
      });
    }
  }
  return unresolved ? undefined : { ins, outs };
}

/** A process has an input and an output; an entity or store takes part in some flow. */
function connectionProblems(
  problems: UnlocatedProblem[],
  { declared }: Ids,
  elements: Objects,
  { ins, outs }: { ins: Set<string>; outs: Set<string> },
): void {
  for (const [e, i] of elements) {
    if (!isId(e.id) || declared.get(e.id)?.pointer !== `/elements/${i}`) continue;
    if (e.kind === "process") {
      if (!ins.has(e.id)) {
        problems.push({
          path: `/elements/${i}`,
          rule: "process/input",
          message: `process "${e.id}" has no input; no flow enters it`,
          suggestion: `add a flow with "to": "${e.id}"`,
        });
      }
      if (!outs.has(e.id)) {
        problems.push({
          path: `/elements/${i}`,
          rule: "process/output",
          message: `process "${e.id}" has no output; no flow leaves it`,
          suggestion: `add a flow with "from": "${e.id}"`,
        });
      }
    } else if ((e.kind === "entity" || e.kind === "store") && !ins.has(e.id) && !outs.has(e.id)) {
      problems.push({
        path: `/elements/${i}`,
        rule: "element/unconnected",
        message: `${KIND_NAME[e.kind]} "${e.id}" is not connected; no flow enters or leaves it`,
        suggestion: "add the flows it takes part in, or remove it",
      });
    }
  }
}

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

/** One problem per cycle of boundaries, at the boundary of the cycle declared first. */
function cycles(
  problems: UnlocatedProblem[],
  boundaries: [Record<string, unknown>, number][],
  parent: Map<string, string | undefined>,
) {
  const reported = new Set<string>();
  for (const [b, i] of boundaries) {
    if (!isId(b.id) || reported.has(b.id)) continue;
    const chain: string[] = [b.id];
    for (let at = parent.get(b.id); at !== undefined; at = parent.get(at)) {
      if (at === b.id) {
        for (const id of chain) reported.add(id);
        problems.push({
          path: `/boundaries/${i}/boundary`,
          rule: "boundary/cycle",
          message: `trust boundary "${b.id}" ends up inside itself: ${[...chain, b.id].join(" → ")}`,
          suggestion: "one of them must be at the top level or inside another boundary",
        });
        break;
      }
      if (chain.includes(at)) break;
      chain.push(at);
    }
  }
}

/** Guided views highlight elements and boundaries (nodes) and flows with an id (edges). */
export function viewTargets(value: unknown): ViewTargets {
  const root = isObj(value) ? value : {};
  const ids = new Set<string>();
  for (const [o] of [...objects(root.elements), ...objects(root.boundaries)]) {
    if (typeof o.id === "string") ids.add(o.id);
  }
  const flows = objects(root.flows).flatMap(([f]) => (typeof f.id === "string" ? [f.id] : []));
  return {
    nodes: { kind: "element", noun: "element or boundary", ids: ids.size > 0 ? ids : undefined },
    edges: { kind: "flow", noun: "flow id", ids: new Set(flows) },
  };
}

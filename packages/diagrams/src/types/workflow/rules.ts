import type { ViewTargets } from "../../core/validate/meta-rules.js";
import { childPointer } from "../../core/validate/pointer.js";
import type { UnlocatedProblem } from "../../core/validate/schema-problems.js";
import {
  duplicateIds,
  idSet,
  idsOf,
  isId,
  isObj,
  type Obj,
  objects,
  type Target,
  unresolved,
} from "../../core/validate/values.js";

/**
 * The rules the JSON Schema cannot say: unique ids, references that resolve, column order,
 * one node per cell, a connected mainPath and the description's own semanticChecks. The rules
 * on meta (guided views) are the core's, for every type (validate/meta-rules.ts).
 *
 * They read the raw parsed value, not a schema-valid diagram, so that a description with a
 * schema problem still gets every other problem reported in the same run; anything of the
 * wrong shape is skipped here (the schema already reports it).
 */

const isColumn = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 5;

interface Context {
  root: Obj;
  lanes: Target;
  nodes: Target;
  edgeIds: Target;
  /** Edges whose both ends are ids (resolved or not). */
  edges: { from: string; to: string }[];
  problems: UnlocatedProblem[];
}

type RefKind = "lanes" | "nodes" | "edgeIds";

function reference(
  ctx: Context,
  kind: RefKind,
  id: unknown,
  path: string,
  where: string,
  at: "key" | "value" = "value",
): void {
  const problem = unresolved(ctx[kind], id, path, where, at);
  if (problem) ctx.problems.push(problem);
}

function uniqueIds(ctx: Context): void {
  ctx.problems.push(
    ...duplicateIds([
      ["lanes", ctx.root.lanes, "lane"],
      ["nodes", ctx.root.nodes, "node"],
      ["phases", ctx.root.phases, "phase"],
      ["groups", ctx.root.groups, "group"],
      ["edges", ctx.root.edges, "edge"],
    ]),
  );
}

function references(ctx: Context): void {
  const { root } = ctx;
  for (const [node, i] of objects(root.nodes))
    reference(ctx, "lanes", node.lane, `/nodes/${i}/lane`, "lane");
  for (const [group, i] of objects(root.groups)) {
    reference(ctx, "lanes", group.lane, `/groups/${i}/lane`, "lane");
  }
  for (const [edge, i] of objects(root.edges)) {
    reference(ctx, "nodes", edge.from, `/edges/${i}/from`, "from");
    reference(ctx, "nodes", edge.to, `/edges/${i}/to`, "to");
  }
  for (const [id, i] of idsOf(root.mainPath))
    reference(ctx, "nodes", id, `/mainPath/${i}`, "mainPath entry");
  const checks = isObj(root.semanticChecks) ? root.semanticChecks : {};
  for (const key of ["allowedRoots", "allowedTerminals"] as const) {
    for (const [id, i] of idsOf(checks[key])) {
      reference(ctx, "nodes", id, `/semanticChecks/${key}/${i}`, `${key} entry`);
    }
  }
  for (const key of ["requiredEdges", "requiredPaths"] as const) {
    for (const [pair, i] of objects(checks[key])) {
      reference(ctx, "nodes", pair.from, `/semanticChecks/${key}/${i}/from`, "from");
      reference(ctx, "nodes", pair.to, `/semanticChecks/${key}/${i}/to`, "to");
    }
  }
  if (isObj(root.cards)) {
    for (const key of Object.keys(root.cards)) {
      reference(ctx, "nodes", key, childPointer("/cards", key), "card key", "key");
    }
  }
}

function columnOrder(ctx: Context): void {
  for (const [base, kind] of [
    ["phases", "phase"],
    ["groups", "group"],
  ] as const) {
    for (const [band, i] of objects(ctx.root[base])) {
      if (!isColumn(band.fromCol) || !isColumn(band.toCol) || band.fromCol <= band.toCol) continue;
      ctx.problems.push({
        path: `/${base}/${i}/fromCol`,
        rule: "cols/order",
        message: `${kind} fromCol ${band.fromCol} is after its toCol ${band.toCol}; fromCol must not exceed toCol`,
        suggestion: `swap them: "fromCol": ${band.toCol}, "toCol": ${band.fromCol}`,
      });
    }
  }
}

function sharedCells(ctx: Context): void {
  const cells = new Map<string, { id: string; index: number }>();
  const used = new Map<string, Set<number>>();
  for (const [node] of objects(ctx.root.nodes)) {
    if (!isId(node.lane) || !isColumn(node.col)) continue;
    const columns = used.get(node.lane) ?? new Set<number>();
    columns.add(node.col);
    used.set(node.lane, columns);
  }
  for (const [node, i] of objects(ctx.root.nodes)) {
    if (!isId(node.lane) || !isColumn(node.col) || !ctx.lanes.ids?.has(node.lane)) continue;
    const cell = `${node.lane}\u0000${node.col}`;
    const first = cells.get(cell);
    const name = isId(node.id) ? `"${node.id}"` : `/nodes/${i}`;
    if (!first) {
      cells.set(cell, { id: name, index: i });
      continue;
    }
    const free = [0, 1, 2, 3, 4, 5].filter((c) => !used.get(node.lane as string)?.has(c));
    ctx.problems.push({
      path: `/nodes/${i}/col`,
      rule: "layout/shared-cell",
      message: `node ${name} is in the same cell (lane "${node.lane}", column ${node.col}) as node ${first.id} (/nodes/${first.index}); each cell holds one node`,
      ...(free.length > 0
        ? { suggestion: `free columns in lane "${node.lane}": ${free.join(", ")}` }
        : { suggestion: "move it to another lane" }),
    });
  }
}

const knownNode = (ctx: Context, id: unknown): id is string =>
  isId(id) && ctx.nodes.ids?.has(id) === true;

function hasEdge(ctx: Context, from: string, to: string): boolean {
  return ctx.edges.some((e) => e.from === from && e.to === to);
}

function mainPathEdges(ctx: Context): void {
  const path = ctx.root.mainPath;
  if (!Array.isArray(path)) return;
  for (let i = 1; i < path.length; i++) {
    const from = path[i - 1];
    const to = path[i];
    if (!knownNode(ctx, from) || !knownNode(ctx, to)) continue;
    if (hasEdge(ctx, from, to)) continue;
    ctx.problems.push({
      path: `/mainPath/${i}`,
      rule: "mainPath/edge",
      message: `mainPath goes from "${from}" to "${to}" but no edge joins them; consecutive mainPath ids must be joined by an edge`,
      suggestion: `add the edge { "from": "${from}", "to": "${to}" } or fix the order of mainPath`,
    });
  }
}

function reachable(ctx: Context, from: string): Set<string> {
  const seen = new Set<string>([from]);
  const queue = [from];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    for (const edge of ctx.edges) {
      if (edge.from === current && !seen.has(edge.to)) {
        seen.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  return seen;
}

function semanticChecks(ctx: Context): void {
  const checks = ctx.root.semanticChecks;
  if (!isObj(checks)) return;
  const nodes = objects(ctx.root.nodes).filter(([node]) => isId(node.id)) as [
    Obj & { id: string },
    number,
  ][];
  const ends = [
    [
      "allowedRoots",
      "checks/allowed-roots",
      (id: string) => ctx.edges.some((e) => e.to === id),
      "incoming",
      "root",
    ],
    [
      "allowedTerminals",
      "checks/allowed-terminals",
      (id: string) => ctx.edges.some((e) => e.from === id),
      "outgoing",
      "terminal",
    ],
  ] as const;
  for (const [key, rule, connected, direction, what] of ends) {
    if (!Array.isArray(checks[key])) continue;
    const allowed = new Set(idsOf(checks[key]).map(([id]) => id));
    for (const [node, i] of nodes) {
      if (connected(node.id) || allowed.has(node.id)) continue;
      ctx.problems.push({
        path: `/nodes/${i}`,
        rule,
        message: `node "${node.id}" has no ${direction} edge, so it is a ${what}, but semanticChecks.${key} does not list it`,
        suggestion: `add an ${direction} edge to "${node.id}" or list it in ${key}`,
      });
    }
  }
  for (const [pair, i] of objects(checks.requiredEdges)) {
    if (!knownNode(ctx, pair.from) || !knownNode(ctx, pair.to)) continue;
    if (hasEdge(ctx, pair.from, pair.to)) continue;
    ctx.problems.push({
      path: `/semanticChecks/requiredEdges/${i}`,
      rule: "checks/required-edge",
      message: `required edge from "${pair.from}" to "${pair.to}" is missing`,
      ...(hasEdge(ctx, pair.to, pair.from)
        ? {
            suggestion: `there is an edge from "${pair.to}" to "${pair.from}": is it the wrong way round?`,
          }
        : {}),
    });
  }
  for (const [pair, i] of objects(checks.requiredPaths)) {
    if (!knownNode(ctx, pair.from) || !knownNode(ctx, pair.to)) continue;
    if (reachable(ctx, pair.from).has(pair.to)) continue;
    ctx.problems.push({
      path: `/semanticChecks/requiredPaths/${i}`,
      rule: "checks/required-path",
      message: `required path from "${pair.from}" to "${pair.to}" does not exist: "${pair.to}" cannot be reached from "${pair.from}" along the edges`,
    });
  }
}

/** What workflow guided views highlight: nodes, and edges by their id. */
export function viewTargets(value: unknown): ViewTargets {
  const root = isObj(value) ? value : {};
  return {
    nodes: { kind: "node", noun: "node", ids: idSet(root.nodes) },
    edges: { kind: "edge", noun: "edge id", ids: idSet(root.edges) },
  };
}

export function ruleProblems(value: unknown): UnlocatedProblem[] {
  if (!isObj(value)) return [];
  const targets = viewTargets(value);
  const ctx: Context = {
    root: value,
    lanes: { kind: "lane", noun: "lane", ids: idSet(value.lanes) },
    nodes: targets.nodes,
    edgeIds: targets.edges,
    edges: objects(value.edges).flatMap(([e]) =>
      isId(e.from) && isId(e.to) ? [{ from: e.from, to: e.to }] : [],
    ),
    problems: [],
  };
  uniqueIds(ctx);
  references(ctx);
  columnOrder(ctx);
  sharedCells(ctx);
  // The graph rules judge the graph the edges draw. Without an edges array, or while an edge
  // end names no node, that graph is not the intended one: the schema or ref/node problem is
  // reported, not the roots, terminals and paths that follow from it.
  const dangling = ctx.edges.some((e) => !knownNode(ctx, e.from) || !knownNode(ctx, e.to));
  if (Array.isArray(value.edges) && !dangling) {
    mainPathEdges(ctx);
    semanticChecks(ctx);
  }
  return ctx.problems;
}

import { childPointer } from "../../core/validate/pointer.js";
import type { UnlocatedProblem } from "../../core/validate/schema-problems.js";
import { didYouMean } from "../../core/validate/suggest.js";

const suggestion = (text: string | undefined) => (text === undefined ? {} : { suggestion: text });

/**
 * The rules the JSON Schema cannot say: unique ids, references that resolve, column order,
 * one node per cell, a connected mainPath and the description's own semanticChecks.
 *
 * They read the raw parsed value, not a schema-valid diagram, so that a description with a
 * schema problem still gets every other problem reported in the same run; anything of the
 * wrong shape is skipped here (the schema already reports it).
 */

type Obj = Record<string, unknown>;

/** The schema's id pattern ($defs/id), which validate-schema.test.ts keeps equal. */
export const ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === "string" && ID_PATTERN.test(v);
const isColumn = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 5;

/** Array elements that are objects, with their index. */
function objects(v: unknown): [Obj, number][] {
  return Array.isArray(v)
    ? v.flatMap((item, i): [Obj, number][] => (isObj(item) ? [[item, i]] : []))
    : [];
}

function idsOf(v: unknown): [string, number][] {
  return Array.isArray(v)
    ? v.flatMap((item, i): [string, number][] => (isId(item) ? [[item, i]] : []))
    : [];
}

interface Context {
  root: Obj;
  /**
   * Ids declared in each collection; undefined when the collection is missing or empty, in
   * which case the schema reports that and references to it are not reported one by one.
   */
  laneIds: Set<string> | undefined;
  nodeIds: Set<string> | undefined;
  edgeIds: Set<string> | undefined;
  /** Edges whose both ends are ids (resolved or not). */
  edges: { from: string; to: string }[];
  problems: UnlocatedProblem[];
}

type RefKind = "lane" | "node" | "edge";

function reference(
  ctx: Context,
  kind: RefKind,
  id: unknown,
  path: string,
  where: string,
  at: "key" | "value" = "value",
): void {
  if (!isId(id)) return;
  const known = kind === "lane" ? ctx.laneIds : kind === "node" ? ctx.nodeIds : ctx.edgeIds;
  if (known === undefined || known.has(id)) return;
  ctx.problems.push({
    path,
    rule: `ref/${kind}`,
    message: `${where} "${id}" does not name any ${kind}${kind === "edge" ? " id" : ""}`,
    ...suggestion(didYouMean(id, known)),
    at,
  });
}

function uniqueIds(ctx: Context): void {
  const collections: [string, unknown, string][] = [
    ["lanes", ctx.root.lanes, "lane"],
    ["nodes", ctx.root.nodes, "node"],
    ["phases", ctx.root.phases, "phase"],
    ["groups", ctx.root.groups, "group"],
    ["edges", ctx.root.edges, "edge"],
    ["meta/views", isObj(ctx.root.meta) ? ctx.root.meta.views : undefined, "view"],
  ];
  for (const [base, list, kind] of collections) {
    const first = new Map<string, number>();
    for (const [item, i] of objects(list)) {
      if (!isId(item.id)) continue;
      const earlier = first.get(item.id);
      if (earlier === undefined) {
        first.set(item.id, i);
        continue;
      }
      ctx.problems.push({
        path: `/${base}/${i}/id`,
        rule: "id/duplicate",
        message: `${kind} id "${item.id}" is already used by /${base}/${earlier}; ${kind} ids must be unique`,
      });
    }
  }
}

function references(ctx: Context): void {
  const { root } = ctx;
  for (const [node, i] of objects(root.nodes))
    reference(ctx, "lane", node.lane, `/nodes/${i}/lane`, "lane");
  for (const [group, i] of objects(root.groups)) {
    reference(ctx, "lane", group.lane, `/groups/${i}/lane`, "lane");
  }
  for (const [edge, i] of objects(root.edges)) {
    reference(ctx, "node", edge.from, `/edges/${i}/from`, "from");
    reference(ctx, "node", edge.to, `/edges/${i}/to`, "to");
  }
  for (const [id, i] of idsOf(root.mainPath))
    reference(ctx, "node", id, `/mainPath/${i}`, "mainPath entry");
  const checks = isObj(root.semanticChecks) ? root.semanticChecks : {};
  for (const key of ["allowedRoots", "allowedTerminals"] as const) {
    for (const [id, i] of idsOf(checks[key])) {
      reference(ctx, "node", id, `/semanticChecks/${key}/${i}`, `${key} entry`);
    }
  }
  for (const key of ["requiredEdges", "requiredPaths"] as const) {
    for (const [pair, i] of objects(checks[key])) {
      reference(ctx, "node", pair.from, `/semanticChecks/${key}/${i}/from`, "from");
      reference(ctx, "node", pair.to, `/semanticChecks/${key}/${i}/to`, "to");
    }
  }
  const views = isObj(root.meta) ? root.meta.views : undefined;
  for (const [view, v] of objects(views)) {
    for (const [id, i] of idsOf(view.nodes)) {
      reference(ctx, "node", id, `/meta/views/${v}/nodes/${i}`, "view node");
    }
    for (const [id, i] of idsOf(view.edges)) {
      reference(ctx, "edge", id, `/meta/views/${v}/edges/${i}`, "view edge");
    }
  }
  if (isObj(root.cards)) {
    for (const key of Object.keys(root.cards)) {
      reference(ctx, "node", key, childPointer("/cards", key), "card key", "key");
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
    if (!isId(node.lane) || !isColumn(node.col) || !ctx.laneIds?.has(node.lane)) continue;
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
  isId(id) && ctx.nodeIds?.has(id) === true;

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

export function ruleProblems(value: unknown): UnlocatedProblem[] {
  if (!isObj(value)) return [];
  // Any string counts as declared: a malformed id is reported once, where it is declared,
  // not again at every reference that spells it the same way.
  const idSet = (list: unknown) =>
    Array.isArray(list) && list.length > 0
      ? new Set(objects(list).flatMap(([o]) => (typeof o.id === "string" ? [o.id] : [])))
      : undefined;
  const ctx: Context = {
    root: value,
    laneIds: idSet(value.lanes),
    nodeIds: idSet(value.nodes),
    edgeIds: idSet(value.edges),
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

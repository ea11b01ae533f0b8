/**
 * Mermaid `flowchart` / `graph` → a small syntax tree (nodes with shapes and classes, edges
 * with line style and ends, subgraphs), with positions. The three mappers (to-architecture,
 * to-workflow, to-data-flow) read this tree; what none of them uses is reported here.
 */
import { clip, decodeText, type ImportIssue, type Scanned, type Statement } from "../source.js";

export type Shape =
  | "rect"
  | "round"
  | "stadium"
  | "subroutine"
  | "cylinder"
  | "circle"
  | "doublecircle"
  | "asymmetric"
  | "rhombus"
  | "hexagon"
  | "parallelogram"
  | "trapezoid";

/** Openers and closers, longest first so `([` wins over `(`. */
const SHAPES: [string, string, Shape][] = [
  ["(((", ")))", "doublecircle"],
  ["([", "])", "stadium"],
  ["((", "))", "circle"],
  ["[(", ")]", "cylinder"],
  ["[[", "]]", "subroutine"],
  ["[/", "/]", "parallelogram"],
  ["[\\", "\\]", "parallelogram"],
  ["[/", "\\]", "trapezoid"],
  ["[\\", "/]", "trapezoid"],
  ["{{", "}}", "hexagon"],
  ["(", ")", "round"],
  ["[", "]", "rect"],
  ["{", "}", "rhombus"],
  [">", "]", "asymmetric"],
];

/** Each shape written the way the exporters write it. */
export const SHAPE_SYNTAX: Record<Shape, [string, string]> = Object.fromEntries(
  [...SHAPES].reverse().map(([open, close, shape]) => [shape, [open, close]]),
) as Record<Shape, [string, string]>;

export interface At {
  line: number;
  col: number;
}

export interface FlowNode {
  id: string;
  text?: string;
  /** Absent when the node is only ever named, never given a shape. */
  shape?: Shape;
  classes: string[];
  /** The innermost subgraph it was first named in. */
  subgraph?: string;
  at: At;
  note?: Record<string, unknown>;
}

type EdgeLine = "solid" | "dotted" | "thick" | "invisible";
type EdgeEnd = "none" | "arrow" | "cross" | "circle";

export interface FlowEdge {
  from: string;
  to: string;
  text?: string;
  line: EdgeLine;
  start: EdgeEnd;
  end: EdgeEnd;
  at: At;
  note?: Record<string, unknown>;
}

interface Subgraph {
  id: string;
  title?: string;
  parent?: string;
  at: At;
  note?: Record<string, unknown>;
}

export type Direction = "LR" | "RL" | "TB" | "BT";

export interface Flowchart {
  direction: Direction;
  /** Whether the header named a direction at all. */
  directionGiven: boolean;
  nodes: FlowNode[];
  edges: FlowEdge[];
  subgraphs: Subgraph[];
  /** classDef names with where they are defined. */
  classDefs: Map<string, At>;
  /** Every class given to a node (`:::name`, `class a,b name`), where it is given. */
  classUses: { name: string; at: At }[];
  issues: ImportIssue[];
}

// Mermaid reads `/` and `/about` as node ids (routes of a site map) as well as words.
const ID = /^[A-Za-z0-9_/\u00C0-\uFFFF](?:[A-Za-z0-9_./\u00C0-\uFFFF]|-(?=[A-Za-z0-9_/]))*/;
const END_OF = (c: string | undefined): EdgeEnd =>
  c === ">" || c === "<" ? "arrow" : c === "x" ? "cross" : c === "o" ? "circle" : "none";

/** An edge at the start of `text`, or undefined; `length` is how much of `text` it takes. */
function readEdge(
  text: string,
): { line: EdgeLine; start: EdgeEnd; end: EdgeEnd; label?: string; length: number } | undefined {
  const lead = /^\s*(?:[A-Za-z0-9_]+@)?/.exec(text) as RegExpExecArray;
  const rest = text.slice(lead[0].length);
  // `A -- text --> B`, `A -. text .-> B`, `A == text ==> B`
  const labelled =
    /^([<xo]?)(--|==|-\.)(?![->.=])\s*(.+?)\s*(-{2,}[>xo]|-{3,}|={2,}[>xo]|={3,}|\.+-[>xo]?)(?=[\s"A-Za-z0-9_])/.exec(
      rest,
    );
  const plain = /^([<xo]?)(-{2,}|={2,}|-\.+-|~{3,})([>xo]?)(?![-=.])/.exec(rest);
  const m = labelled ?? plain;
  if (!m) return undefined;
  const body = labelled ? `${m[2]}${m[4]}` : `${m[2]}${m[3]}`;
  const line: EdgeLine = body.includes("~")
    ? "invisible"
    : body.includes(".")
      ? "dotted"
      : body.includes("=")
        ? "thick"
        : "solid";
  const last = labelled ? (m[4] as string).slice(-1) : (m[3] as string);
  let length = lead[0].length + m[0].length;
  let label = labelled ? (m[3] as string) : undefined;
  const piped = /^\s*\|([^|]*)\|/.exec(text.slice(length));
  if (piped) {
    label = piped[1];
    length += piped[0].length;
  }
  return {
    line,
    start: END_OF(m[1] || undefined),
    end: END_OF(/[>xo]/.test(last) ? last : undefined),
    label: label === undefined ? undefined : unquote(label.trim()),
    length,
  };
}

const unquote = (text: string) =>
  decodeText(
    text.startsWith('"') && text.endsWith('"') && text.length >= 2 ? text.slice(1, -1) : text,
  );

/** A node at the start of `text`: id, optional shape and text, optional :::class. */
function readNode(
  text: string,
):
  | { id: string; shape?: Shape; text?: string; classes: string[]; meta?: string; length: number }
  | undefined {
  const lead = /^\s*/.exec(text)?.[0].length ?? 0;
  const idMatch = ID.exec(text.slice(lead));
  if (!idMatch) return undefined;
  const id = idMatch[0];
  let at = lead + id.length;
  let shape: Shape | undefined;
  let label: string | undefined;
  let meta: string | undefined;
  const after = text.slice(at);
  if (after.startsWith("@{")) {
    const close = after.indexOf("}");
    if (close < 0) return undefined;
    meta = after.slice(0, close + 1);
    const l = /label:\s*"([^"]*)"/.exec(meta);
    if (l) label = decodeText(l[1] as string);
    at += close + 1;
  } else {
    for (const [open, close, kind] of SHAPES) {
      if (!after.startsWith(open)) continue;
      let inner = after.slice(open.length);
      let taken: number;
      if (inner.trimStart().startsWith('"')) {
        const q = inner.indexOf('"');
        const endQ = inner.indexOf('"', q + 1);
        if (endQ < 0) continue;
        const rest = inner.slice(endQ + 1);
        if (!rest.trimStart().startsWith(close)) continue;
        label = decodeText(inner.slice(q + 1, endQ));
        taken = endQ + 1 + (rest.length - rest.trimStart().length) + close.length;
      } else {
        const endAt = inner.indexOf(close);
        if (endAt < 0) continue;
        inner = inner.slice(0, endAt);
        label = decodeText(inner.trim());
        taken = endAt + close.length;
      }
      shape = kind;
      at += open.length + taken;
      break;
    }
  }
  const classes: string[] = [];
  const cls = /^:::([\w-]+)/.exec(text.slice(at));
  if (cls) {
    classes.push(cls[1] as string);
    at += cls[0].length;
  }
  const node: {
    id: string;
    shape?: Shape;
    text?: string;
    classes: string[];
    meta?: string;
    length: number;
  } = {
    id,
    classes,
    length: at,
  };
  if (shape) node.shape = shape;
  if (label !== undefined) node.text = label;
  if (meta) node.meta = meta;
  return node;
}

const DIRECTIONS: Record<string, Direction> = { LR: "LR", RL: "RL", TB: "TB", TD: "TB", BT: "BT" };

/** What parsing a flowchart so far has found, shared by the steps below. */
interface Reading {
  chart: Flowchart;
  byId: Map<string, FlowNode>;
  /** The open subgraphs, innermost last. */
  stack: Subgraph[];
  subgraphIds: Set<string>;
}

type ReadNode = NonNullable<ReturnType<typeof readNode>>;
type ReadEdge = NonNullable<ReturnType<typeof readEdge>>;

/** Reads one kind of statement into `r`; false when the statement is not of its kind. */
type Reader = (r: Reading, s: Statement, word: string) => boolean;

export function parseFlowchart(scanned: Scanned): Flowchart {
  const r = startReading(scanned);
  for (const s of scanned.statements) readStatement(r, s);
  for (const open of r.stack)
    report(r, open.at, `subgraph "${open.id}" never closed with "end"; kept`);
  return r.chart;
}

/** The chart with the header's direction (reported when Mermaid's is one we do not have). */
function startReading(scanned: Scanned): Reading {
  const head = /^\S+\s*(\w+)?/.exec(scanned.header?.text ?? "");
  const given = head?.[1];
  const chart: Flowchart = {
    direction: DIRECTIONS[given ?? "TB"] ?? "TB",
    directionGiven: given !== undefined,
    nodes: [],
    edges: [],
    subgraphs: [],
    classDefs: new Map(),
    classUses: [],
    issues: scanned.issues,
  };
  const r: Reading = { chart, byId: new Map(), stack: [], subgraphIds: new Set() };
  if (given && !DIRECTIONS[given] && scanned.header)
    report(r, scanned.header, `direction "${given}" not carried over`);
  return r;
}

const report = (r: Reading, at: At, message: string) =>
  r.chart.issues.push({ line: at.line, col: at.col, message });

/** The chart's node for `n`, created (in the open subgraph) on first use, `n`'s parts merged in. */
function touch(r: Reading, n: ReadNode, at: At): FlowNode {
  let node = r.byId.get(n.id);
  if (!node && r.subgraphIds.has(n.id)) return { id: n.id, classes: [], at };
  if (!node) {
    node = { id: n.id, classes: [], at };
    const inside = r.stack[r.stack.length - 1];
    if (inside) node.subgraph = inside.id;
    r.byId.set(n.id, node);
    r.chart.nodes.push(node);
  } else if (r.stack.length > 0 && node.subgraph === undefined) {
    node.subgraph = r.stack[r.stack.length - 1]?.id;
  }
  if (n.shape) node.shape = n.shape;
  if (n.text !== undefined) node.text = n.text;
  for (const c of n.classes) {
    if (!node.classes.includes(c)) node.classes.push(c);
    r.chart.classUses.push({ name: c, at });
  }
  if (n.meta) report(r, at, `node metadata ${clip(n.meta)} not carried over (only its label is)`);
  return node;
}

/** In order: the first reader that takes a statement reads it; any other is a chain. */
const READERS: Reader[] = [
  openSubgraph,
  closeSubgraph,
  readDirection,
  readClassDef,
  readClass,
  readStyling,
];

function readStatement(r: Reading, s: Statement): void {
  const word = (/^\S+/.exec(s.text)?.[0] ?? "").toLowerCase();
  if (!READERS.some((read) => read(r, s, word))) readChain(r, s);
}

/** `subgraph id [title]` or `subgraph title`: opens a subgraph inside the open one. */
function openSubgraph(r: Reading, s: Statement, word: string): boolean {
  if (word !== "subgraph") return false;
  const rest = s.text.slice(word.length).trim();
  const m = /^([^\s[\]"]+)?\s*(?:\[\s*"?(.*?)"?\s*\])?$/.exec(rest);
  let id: string;
  let title: string | undefined;
  if (m?.[1] && (m[2] !== undefined || !/\s/.test(rest))) {
    id = m[1];
    title = m[2] !== undefined ? decodeText(m[2]) : undefined;
  } else {
    title = unquote(rest);
    id =
      title.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "") ||
      `subgraph${r.chart.subgraphs.length + 1}`;
  }
  const sub: Subgraph = { id, at: s };
  if (title !== undefined) sub.title = title;
  const parent = r.stack[r.stack.length - 1];
  if (parent) sub.parent = parent.id;
  if (s.note) sub.note = s.note;
  r.chart.subgraphs.push(sub);
  r.subgraphIds.add(id);
  r.stack.push(sub);
  return true;
}

function closeSubgraph(r: Reading, s: Statement, word: string): boolean {
  if (word !== "end") return false;
  if (!r.stack.pop()) report(r, s, `"end" without a subgraph not carried over`);
  return true;
}

function readDirection(r: Reading, s: Statement, word: string): boolean {
  if (word !== "direction") return false;
  report(r, s, `"${s.text}" inside a subgraph not carried over (one direction per description)`);
  return true;
}

function readClassDef(r: Reading, s: Statement, word: string): boolean {
  if (word !== "classdef") return false;
  for (const name of (s.text.split(/\s+/)[1] ?? "").split(",")) r.chart.classDefs.set(name, s);
  return true;
}

/** `class a,b name`: the class on nodes already named. */
function readClass(r: Reading, s: Statement, word: string): boolean {
  if (word !== "class") return false;
  const [, list = "", name = ""] = s.text.split(/\s+/);
  for (const id of list.split(",")) {
    const node = r.byId.get(id);
    if (node) node.classes.push(name);
    else report(r, s, `class on "${id}", which is not a node, not carried over`);
  }
  r.chart.classUses.push({ name, at: s });
  return true;
}

/** `accTitle: …`, `accDescr: …`, `accDescr {`: the whole keyword, never a node id such as `accept`. */
const ACCESSIBILITY = /^acc(?:Title|Descr)(?=[\s:{]|$)/i;

function readStyling(r: Reading, s: Statement, word: string): boolean {
  if (!["style", "linkstyle", "click"].includes(word) && !ACCESSIBILITY.test(s.text)) return false;
  report(
    r,
    s,
    `"${clip(s.text)}" not carried over (no per-item styles, links or callbacks in descriptions)`,
  );
  return true;
}

/** Where reading a chain has got to in its statement. */
interface Chain {
  pos: number;
  made: FlowEdge[];
  named: FlowNode[];
}

/** A chain: group (edge group)*, each group nodes joined by &. */
function readChain(r: Reading, s: Statement): void {
  const text = s.text;
  const chain: Chain = { pos: 0, made: [], named: [] };
  let previous: FlowNode[] = [];
  let pending: ReadEdge | undefined;
  let failed = false;
  while (chain.pos < text.length) {
    const group = readGroup(r, s, chain);
    if (!group) {
      failed = true;
      break;
    }
    chain.named.push(...group);
    if (pending) chain.made.push(...edgesBetween(previous, group, pending, s));
    previous = group;
    if (/^\s*$/.test(text.slice(chain.pos))) break;
    pending = readEdge(text.slice(chain.pos));
    if (!pending) {
      failed = true;
      break;
    }
    chain.pos += pending.length;
  }
  if (failed) {
    report(
      r,
      { line: s.line, col: s.col + chain.pos },
      `cannot read "${clip(text.slice(chain.pos))}"; not carried over`,
    );
  }
  if (s.note) {
    const { made, named } = chain;
    if (made.length === 1) (made[0] as FlowEdge).note = s.note;
    else if (made.length === 0 && named.length === 1) (named[0] as FlowNode).note = s.note;
  }
  r.chart.edges.push(...chain.made);
}

/** Nodes joined by `&` from `chain.pos` on; undefined where one cannot be read. */
function readGroup(r: Reading, s: Statement, chain: Chain): FlowNode[] | undefined {
  const text = s.text;
  const group: FlowNode[] = [];
  for (;;) {
    const n = readNode(text.slice(chain.pos));
    if (!n) return undefined;
    group.push(touch(r, n, { line: s.line, col: s.col + chain.pos }));
    chain.pos += n.length;
    const amp = /^\s*&\s*/.exec(text.slice(chain.pos));
    if (!amp) return group;
    chain.pos += amp[0].length;
  }
}

/** An edge from each node of one group to each of the next. */
function edgesBetween(
  previous: FlowNode[],
  group: FlowNode[],
  edge: ReadEdge,
  s: Statement,
): FlowEdge[] {
  const made: FlowEdge[] = [];
  for (const a of previous) {
    for (const b of group) {
      const e: FlowEdge = {
        from: a.id,
        to: b.id,
        line: edge.line,
        start: edge.start,
        end: edge.end,
        at: { line: s.line, col: s.col },
      };
      if (edge.label) e.text = edge.label;
      made.push(e);
    }
  }
  return made;
}

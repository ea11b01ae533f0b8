/**
 * What the three flowchart mappers share on the way in (directions, kinds from classes, what
 * an edge's ends lose) and on the way out (node and edge lines, class definitions).
 */
import {
  diagramNoteLine,
  encodeText,
  type ImportIssue,
  idsLine,
  titleFrontMatter,
} from "../source.js";
import type { Direction, Flowchart, FlowEdge, FlowNode, Shape } from "./parse.js";
import { SHAPE_SYNTAX } from "./parse.js";

type FamilyDirection = "right" | "down" | "left" | "up";

export const DIRECTION_OF: Record<Direction, FamilyDirection> = {
  LR: "right",
  TB: "down",
  RL: "left",
  BT: "up",
};
export const MERMAID_DIRECTION: Record<FamilyDirection, Direction> = {
  right: "LR",
  down: "TB",
  left: "RL",
  up: "BT",
};

/**
 * The kind a node's classes name (`class api container`, `db:::database`), else the one its
 * shape stands for. Classes naming no kind are reported once, where defined.
 */
export function kindOf<K extends string>(
  node: FlowNode,
  kinds: readonly K[],
  byShape: Record<Shape, K>,
  aliases: Record<string, K> = {},
): K {
  for (const c of node.classes) {
    if ((kinds as readonly string[]).includes(c)) return c as K;
    const alias = aliases[c.toLowerCase()];
    if (alias) return alias;
  }
  return byShape[node.shape ?? "rect"];
}

/**
 * Reports every classDef line and every use of a class (`:::name`, `class a,b name`) that
 * names no kind, each at its own line: a line not carried over is never left unsaid.
 */
export function reportUnusedClasses(
  chart: Flowchart,
  mapped: (name: string) => boolean,
  issues: ImportIssue[],
): void {
  for (const [name, at] of chart.classDefs) {
    if (mapped(name)) continue;
    issues.push({
      line: at.line,
      col: at.col,
      message: `classDef "${name}" not carried over (only classes naming a kind are read)`,
    });
  }
  for (const { name, at } of chart.classUses) {
    if (mapped(name)) continue;
    issues.push({
      line: at.line,
      col: at.col,
      message: `class "${name}" not carried over (only classes naming a kind are read)`,
    });
  }
}

/**
 * What an edge's ends and line lose in a description where every connection has one direction
 * and an arrowhead; false when the edge itself is not carried over (an invisible link).
 */
export function reportEdge(e: FlowEdge, issues: ImportIssue[], keepsLine: boolean): boolean {
  const say = (message: string) =>
    issues.push({ ...e.at, message: `${e.from} → ${e.to}: ${message}` });
  if (e.line === "invisible") {
    say("invisible link (~~~) not carried over");
    return false;
  }
  if (e.start !== "none") say("two-way arrow read as one direction");
  if (e.end === "none") say("line without arrowhead read as pointing to its second end");
  if (e.end === "cross" || e.end === "circle") say(`${e.end} end read as an arrowhead`);
  if (!keepsLine && e.line === "thick") say("thick line not carried over");
  return true;
}

/** The shape and label a node is reported with when its shape has no match. */
export function reportShape(
  node: FlowNode,
  shapes: readonly Shape[],
  issues: ImportIssue[],
  as: string,
): void {
  if (node.shape && !shapes.includes(node.shape)) {
    issues.push({
      ...node.at,
      message: `${node.id}: ${node.shape} shape not carried over (read as ${as})`,
    });
  }
}

/** `id["label"]:::cls` as an exporter writes a node. */
export function nodeLine(id: string, shape: Shape, label: string, cls?: string): string {
  const [open, close] = SHAPE_SYNTAX[shape];
  return `${id}${open}"${encodeText(label)}"${close}${cls ? `:::${cls}` : ""}`;
}

/** `a -->|"label"| b` as an exporter writes an edge. */
export function edgeLine(from: string, to: string, arrow: string, label?: string): string {
  return `${from} ${arrow}${label ? `|"${encodeText(label)}"|` : ""} ${to}`;
}

/** A light fill per class, so the exported Mermaid shows the kinds apart. */
export function classDefLines(names: Iterable<string>, colour: (name: string) => string): string[] {
  return [...new Set(names)].map((n) => `  classDef ${n} fill:${colour(n)},stroke:#555`);
}

/**
 * A whole exported flowchart: title front matter, the header line, the id map, the annotation
 * of what the diagram's own fields lose (`read`: the description as the importer will see it),
 * then the body.
 */
export function flowchartText(
  d: { meta: { title: string } },
  header: string,
  ids: Record<string, string>,
  read: Record<string, unknown>,
  body: string[],
): string {
  return `${[
    ...titleFrontMatter(d.meta.title),
    header,
    ...idsLine(ids),
    ...diagramNoteLine(d, read),
    ...body,
  ].join("\n")}\n`;
}

import { CORPUS } from "../../bench/graph-corpus.mjs";
import type { LaidOut } from "../../src/core/diagram-type.js";
import { loadType } from "../../src/types/index.js";
import { validateSource } from "../../src/validate/index.js";

export const GRAPH_TYPES = ["lifecycle", "architecture", "data-flow"] as const;
export type GraphType = (typeof GRAPH_TYPES)[number];

/** A graph description checked and laid out as the CLI does it. */
export async function layOutSource(source: string): Promise<{ type: GraphType; laid: LaidOut }> {
  const checked = await validateSource(source);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  const type = checked.diagram.diagram_type as GraphType;
  const laid = (await (await loadType(type)).layout(checked.diagram)) as LaidOut;
  return { type, laid };
}

// Laying out the generated corpus is nearly all of what the corpus property tests cost, and
// several promises are read from the same layouts (graph-backward.test.ts): each seed is laid out
// once per worker. Layouts are deterministic, so a kept one is the one a fresh call would give.
const laidOut = new Map<string, Promise<LaidOut>>();

/** Seed `seed` of the generated corpus of `type`, laid out (once per worker). */
export function layOutCorpus(type: GraphType, seed: number): Promise<LaidOut> {
  const key = `${type} ${seed}`;
  let laid = laidOut.get(key);
  if (laid === undefined) {
    laid = layOutSource(JSON.stringify(CORPUS[type](seed))).then((r) => r.laid);
    laidOut.set(key, laid);
  }
  return laid;
}

/** Lets the kept layouts go: the next file of the worker does not read them (isolate: false). */
export function forgetCorpusLayouts(): void {
  laidOut.clear();
}

/** The render warnings a layout gives the writer, as "rule path". */
export function warningsOf(laid: LaidOut): string[] {
  return (laid.warnings ?? []).map((w) => `${w.rule} ${w.path}`);
}

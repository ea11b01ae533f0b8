/**
 * Text cut short with "…": how it is told apart from text that ends in "…" itself, and the
 * `render/text-cut` warning every type gives for it (docs/diagrams/cli.md promises one per cut).
 */
import type { UnlocatedProblem } from "../validate/schema-problems.js";
import type { TextBlock } from "./block.js";

/** True when wrapping had to cut `text` short (its last line ends in "…"). */
export function isCut(lines: readonly string[], text: string): boolean {
  const last = lines[lines.length - 1] ?? "";
  return last.endsWith("…") && !text.trimEnd().endsWith("…");
}

export const cutMessage = (block: Pick<TextBlock, "lines">, what?: string) =>
  `${what ? `${what}: ` : ""}the text does not fit in ${block.lines.length} line${block.lines.length === 1 ? "" : "s"} and is cut short with "…"`;

/** One text of a drawing: its block as drawn and where the description holds it. */
export type DrawnText = [block: TextBlock | undefined, path: string, what?: string];

/** A `render/text-cut` warning for each drawn text that was cut short, in the order given. */
export function textCutWarnings(texts: Iterable<DrawnText>): UnlocatedProblem[] {
  const warnings: UnlocatedProblem[] = [];
  for (const [block, path, what] of texts) {
    if (!block?.cut) continue;
    warnings.push({ rule: "render/text-cut", path, message: cutMessage(block, what) });
  }
  return warnings;
}

import { expect, it } from "vitest";
import type { DiagramType } from "../../src/core/diagram-type.js";
import type { Problem } from "../../src/core/validate/problem.js";
import { validateAs } from "../../src/validate/as-type.js";
import { get } from "../validate-pointer.js";

/**
 * The conformance suite every type runs: a valid base description that uses every field, and
 * per rule one change that breaks it (exactly that problem, located at the offending value)
 * and one close to its boundary that stays valid.
 */
export interface ConformanceCase<D> {
  rule: string;
  path: string;
  /** What the line and column point at: the value (default), its key, or the object missing it. */
  at?: "key" | "value" | "object";
  fail: (d: D) => void;
  /** A change close to the rule's boundary that stays valid. */
  pass: (d: D) => void;
  suggestion?: string;
  /** Words the message must contain. */
  says?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: each type's own description and layout.
type AnyType = DiagramType<any, any>;

export function checkWith(type: AnyType, d: unknown): { source: string; problems: Problem[] } {
  const source = JSON.stringify(d, null, 2);
  return { source, problems: validateAs(type, source).problems };
}

/**
 * The text at a problem's line and column is the offending value (or its key, or the object
 * missing it): checked against the value itself, not against the locator's own code.
 */
function pointsAt(source: string, p: Problem, d: unknown, at: "key" | "value" | "object") {
  const line = source.split("\n")[p.line - 1] ?? "";
  const there = line.slice(p.column - 1);
  const key = p.path.split("/").at(-1) ?? "";
  const expected =
    at === "key" ? `"${key}"` : at === "object" ? "{" : JSON.stringify(get(d, p.path))?.slice(0, 1);
  expect(there.startsWith(expected ?? "?"), `${p.path} at ${p.line}:${p.column}: ${there}`).toBe(
    true,
  );
}

/** Registers the suite's tests in the current describe block. */
export function conformanceSuite<D>(
  type: AnyType,
  base: () => D,
  cases: Record<string, ConformanceCase<D>>,
  ruleIds: readonly string[],
) {
  it("the base description is valid", () => {
    expect(checkWith(type, base()).problems).toEqual([]);
  });

  it("every rule id of the type has a case", () => {
    const covered = new Set(Object.values(cases).map((c) => c.rule));
    for (const rule of ruleIds) expect(covered).toContain(rule);
  });

  for (const [name, c] of Object.entries(cases)) {
    it(`${name} [${c.rule}]`, () => {
      const good = base();
      c.pass(good);
      expect(checkWith(type, good).problems).toEqual([]);

      const bad = base();
      c.fail(bad);
      const { source, problems } = checkWith(type, bad);
      expect(problems.map(({ rule, path }) => ({ rule, path }))).toEqual([
        { rule: c.rule, path: c.path },
      ]);
      const problem = problems[0] as Problem;
      pointsAt(source, problem, bad, c.at ?? "value");
      if (c.suggestion) expect(problem.suggestion).toBe(c.suggestion);
      if (c.says) expect(problem.message).toContain(c.says);
    });
  }
}

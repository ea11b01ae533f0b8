import { describe, expect, it } from "vitest";
import { CORE_RULES } from "../src/core/validate/catalog.js";
import type { Problem } from "../src/core/validate/problem.js";
import { RULES } from "../src/types/sequence/catalog.js";
import { type } from "../src/types/sequence/index.js";
import type { SequenceDiagram } from "../src/types/sequence/model.js";
import { starter } from "../src/types/sequence/starter.js";
import { validateAs } from "../src/validate/as-type.js";
import { base } from "./support/sequence-base.js";
import { del, get, set } from "./validate-pointer.js";

const check = (d: unknown): Problem[] => validateAs(type, JSON.stringify(d, null, 2)).problems;
const rulesAndPaths = (problems: Problem[]) => problems.map(({ rule, path }) => ({ rule, path }));

type Mutation = (d: SequenceDiagram) => void;
interface Case {
  name: string;
  expect: { rule: string; path: string }[];
  fail: Mutation;
  /** A change that comes close to the rule and stays valid. */
  pass: Mutation;
}
const one = (rule: string, path: string) => [{ rule, path }];

const CASES: Case[] = [
  {
    name: "diagram_type is sequence",
    expect: one("schema/const", "/diagram_type"),
    fail: (d) => set(d, "/diagram_type", "sequense"),
    pass: (d) => set(d, "/diagram_type", "sequence"),
  },
  {
    name: "unknown properties are refused on a message",
    expect: one("schema/additionalProperties", "/steps/0/lable"),
    fail: (d) => set(d, "/steps/0/lable", "x"),
    pass: (d) => set(d, "/steps/0/label", "x"),
  },
  {
    name: "unknown properties are refused in a branch",
    expect: one("schema/additionalProperties", "/steps/3/branches/0/when"),
    fail: (d) => set(d, "/steps/3/branches/0/when", "x"),
    pass: (d) => set(d, "/steps/3/branches/0/guard", "x"),
  },
  {
    name: "a step kind is one of the kinds",
    expect: one("schema/enum", "/steps/0/kind"),
    fail: (d) => set(d, "/steps/0/kind", "cal"),
    pass: (d) => set(d, "/steps/4/steps/0/kind", "call"),
  },
  {
    name: "alt holds branches, not steps",
    expect: [
      { rule: "schema/required", path: "/steps/3/branches" },
      { rule: "schema/additionalProperties", path: "/steps/3/steps" },
    ],
    fail: (d) => {
      set(d, "/steps/3/steps", [{ kind: "reply", from: "b", to: "a", deactivate: true }]);
      del(d, "/steps/3/branches");
    },
    pass: (d) => set(d, "/steps/3/kind", "par"),
  },
  {
    name: "participants are required",
    expect: one("schema/required", "/participants"),
    fail: (d) => del(d, "/participants"),
    pass: (d) => del(d, "/boxes"),
  },
  {
    name: "meta.views needs schema_version 2",
    expect: one("version/v2-only", "/meta/views"),
    fail: (d) => set(d, "/schema_version", 1),
    pass: (d) => {
      set(d, "/schema_version", 1);
      del(d, "/meta/views");
    },
  },
  {
    name: "ids are unique across participants, boxes, messages and fragments",
    expect: one("id/duplicate", "/steps/3/id"),
    fail: (d) => set(d, "/steps/3/id", "m1"),
    pass: (d) => set(d, "/steps/3/id", "m2"),
  },
  {
    name: "view ids are unique",
    expect: one("id/duplicate", "/meta/views/1/id"),
    fail: (d) => d.meta.views?.push({ id: "v1", title: "Again", nodes: ["b"] }),
    pass: (d) => d.meta.views?.push({ id: "v2", title: "Again", nodes: ["b"] }),
  },
  {
    name: "message ends name participants",
    expect: one("ref/participant", "/steps/0/to"),
    fail: (d) => set(d, "/steps/0/to", "bb"),
    pass: (d) => set(d, "/steps/0/to", "b"),
  },
  {
    name: "view edges name message ids",
    expect: one("ref/message", "/meta/views/0/edges/0"),
    fail: (d) => set(d, "/meta/views/0/edges/0", "m2"),
    pass: (d) => set(d, "/meta/views/0/edges", []),
  },
  {
    name: "box members stand next to each other",
    expect: one("box/contiguous", "/boxes/0/participants"),
    fail: (d) => set(d, "/boxes/0/participants", ["a", "c"]),
    pass: (d) => set(d, "/boxes/0/participants", ["a", "b"]),
  },
  {
    name: "a participant is in one box at most",
    expect: one("box/shared", "/boxes/1/participants/0"),
    fail: (d) => d.boxes?.push({ id: "box2", label: "Two", participants: ["c"] }),
    pass: (d) => d.boxes?.push({ id: "box2", label: "Two", participants: ["a"] }),
  },
  {
    name: "a note beside a participant names one",
    expect: one("note/side", "/steps/5/participants"),
    fail: (d) => set(d, "/steps/5/participants", ["a", "b"]),
    pass: (d) => {
      set(d, "/steps/5/participants", ["a", "b"]);
      set(d, "/steps/5/position", "over");
    },
  },
  {
    name: "a reply answers an open call",
    expect: one("reply/no-open-call", "/steps/3/branches/1/steps/0"),
    fail: (d) => set(d, "/steps/3/branches/1/steps/0/to", "c"),
    pass: (d) => set(d, "/steps/3/branches/1/steps/0/kind", "async"),
  },
  {
    name: "a standalone reply answers no call; standalone is for replies only",
    expect: one("message/standalone", "/steps/11/standalone"),
    fail: (d) => set(d, "/steps/11/kind", "async"),
    pass: (d) => set(d, "/steps/11/label", "webhook"),
  },
  {
    name: "a reply without standalone must answer an open call",
    expect: one("reply/no-open-call", "/steps/11"),
    fail: (d) => del(d, "/steps/11/standalone"),
    pass: (d) => set(d, "/steps/11/standalone", true),
  },
  {
    name: "only a critical fragment has options",
    expect: one("fragment/options", "/steps/10/options"),
    fail: (d) => set(d, "/steps/10/kind", "opt"),
    pass: (d) => set(d, "/steps/10/options/0/guard", "refused"),
  },
  {
    name: "a critical option holds steps",
    expect: one("fragment/empty", "/steps/10/options/0/steps"),
    fail: (d) => set(d, "/steps/10/options/0/steps", []),
    pass: (d) => set(d, "/steps/10/options/0/steps/0/label", "retry"),
  },
  {
    name: "a deactivation ends an open activation",
    // The deactivate step moves up to /steps/1 once the activate before it is gone.
    expect: one("activation/balance", "/steps/1"),
    fail: (d) => del(d, "/steps/1"),
    pass: (d) => {
      del(d, "/steps/2");
      del(d, "/steps/1");
    },
  },
  {
    name: "an activation is ended",
    expect: one("activation/balance", "/steps/1"),
    fail: (d) => del(d, "/steps/2"),
    pass: (d) => {
      del(d, "/steps/2");
      d.steps.push({ kind: "deactivate", participant: "c" });
    },
  },
  {
    name: "no fragment branch is empty",
    expect: one("fragment/empty", "/steps/4/steps"),
    fail: (d) => set(d, "/steps/4/steps", []),
    pass: (d) => set(d, "/steps/4/steps", [{ kind: "divider", label: "x" }]),
  },
  {
    name: "no alt branch is empty",
    expect: one("fragment/empty", "/steps/3/branches/1/steps"),
    fail: (d) => set(d, "/steps/3/branches/1/steps", []),
    pass: (d) =>
      set(d, "/steps/3/branches/1/steps", [{ kind: "note", participants: ["a"], text: "x" }]),
  },
  {
    name: "a destroyed participant sends and receives nothing afterwards",
    expect: one("lifeline/destroyed", "/steps/12/to"),
    fail: (d) => d.steps.push({ kind: "async", from: "b", to: "w" }),
    pass: (d) => d.steps.push({ kind: "async", from: "b", to: "c" }),
  },
  {
    name: "a created participant takes part only after its create message",
    expect: one("lifeline/before-create", "/steps/0/to"),
    fail: (d) => d.steps.unshift({ kind: "async", from: "a", to: "w" }),
    pass: (d) => d.steps.unshift({ kind: "async", from: "a", to: "c" }),
  },
];

describe("sequence conformance: each rule passes and fails", () => {
  it("the base description and the starter are valid", () => {
    expect(check(base())).toEqual([]);
    expect(check(starter)).toEqual([]);
  });
  for (const c of CASES) {
    it(c.name, () => {
      const broken = base();
      c.fail(broken);
      const problems = check(broken);
      expect(rulesAndPaths(problems)).toEqual(c.expect);
      // line:column points at the offending value in the text (its key for an unknown
      // property, the enclosing object for a missing one).
      const lines = JSON.stringify(broken, null, 2).split("\n");
      for (const p of problems) {
        const at = lines[p.line - 1]?.slice(p.column - 1) ?? "";
        const value = get(broken, p.path);
        const key = JSON.stringify(p.path.split("/").at(-1));
        const shown = value === undefined ? "{" : JSON.stringify(value).slice(0, 1);
        const ok =
          (typeof value !== "object" && at.startsWith(`${JSON.stringify(value)}`)) ||
          at.startsWith(`${key}:`) ||
          at.startsWith(shown);
        expect(ok, `${p.rule} at ${p.line}:${p.column}: ${at}`).toBe(true);
      }
      const fine = base();
      c.pass(fine);
      expect(check(fine)).toEqual([]);
    });
  }
});

describe("the sequence rule catalogue", () => {
  it("every value rule is broken by some case here", () => {
    const broken = new Set(CASES.flatMap((c) => c.expect.map((e) => e.rule)));
    // Rules of the text, of workflow-only fields and of every schema keyword are proven by the
    // workflow conformance suite, which runs the same core.
    const own = Object.keys(RULES).filter((rule) => !Object.hasOwn(CORE_RULES, rule));
    expect(own.filter((rule) => !broken.has(rule))).toEqual([]);
  });
});

describe("sequence problems are located and explained", () => {
  it("names line and column, the allowed properties of the step's kind and a did-you-mean", () => {
    const d = base();
    set(d, "/steps/0/lable", "x");
    set(d, "/steps/9/from", "bb");
    const problems = check(d);
    const text = JSON.stringify(d, null, 2).split("\n");
    const unknown = problems.find((p) => p.rule === "schema/additionalProperties") as Problem;
    expect(text[unknown.line - 1]?.indexOf('"lable"')).toBe(unknown.column - 1);
    expect(unknown.message).toContain("allowed here: kind, id, from, to, label, role, activate");
    expect(unknown.suggestion).toBe('did you mean "label"?');
    const ref = problems.find((p) => p.rule === "ref/participant") as Problem;
    expect(text[ref.line - 1]?.indexOf('"bb"')).toBe(ref.column - 1);
    expect(ref.suggestion).toBe('did you mean "b"?');
  });

  it("suggests swapping a reply that goes the wrong way", () => {
    const d = base();
    set(d, "/steps/3/branches/0/steps/0/from", "a");
    set(d, "/steps/3/branches/0/steps/0/to", "b");
    const problem = check(d).find((p) => p.rule === "reply/no-open-call");
    expect(problem?.suggestion).toContain("swap from and to");
  });

  it("points a reply that answers nothing at standalone", () => {
    const d = base();
    del(d, "/steps/11/standalone");
    const problem = check(d).find((p) => p.rule === "reply/no-open-call");
    expect(problem?.suggestion).toContain('"standalone": true');
  });

  it("reports every problem at once", () => {
    const d = base();
    set(d, "/steps/0/to", "bx");
    set(d, "/steps/4/steps", []);
    set(d, "/boxes/0/participants", ["a", "c"]);
    expect(
      rulesAndPaths(check(d))
        .map((p) => p.rule)
        .sort(),
    ).toEqual(["box/contiguous", "fragment/empty", "ref/participant"]);
  });
});

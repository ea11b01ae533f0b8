import { describe, expect, it } from "vitest";
import { LIFECYCLE_RULES } from "../src/types/lifecycle/catalog.js";
import { type } from "../src/types/lifecycle/index.js";
import type { LifecycleDiagram } from "../src/types/lifecycle/model.js";
import { type ConformanceCase, checkWith, conformanceSuite } from "./support/conformance.js";
import { del, get, set } from "./validate-pointer.js";

/** A valid description using every field once, so each case breaks one rule by one change. */
function base(): LifecycleDiagram {
  return {
    schema_version: 2,
    diagram_type: "lifecycle",
    meta: {
      title: "Base",
      direction: "down",
      views: [{ id: "v1", title: "View", nodes: ["open"], edges: ["t-open"] }],
    },
    states: [
      { id: "start", kind: "initial" },
      { id: "closed", label: "Closed", sublabel: "latched" },
      {
        id: "open",
        kind: "normal",
        label: "Open",
        states: [
          { id: "open-start", kind: "initial" },
          { id: "ajar", label: "Ajar" },
          { id: "wide", label: "Wide open" },
        ],
      },
      { id: "check", kind: "choice" },
      { id: "end", kind: "final" },
    ],
    transitions: [
      { from: "start", to: "closed" },
      { id: "t-open", from: "closed", to: "open", event: "push", guard: "not locked" },
      { from: "open-start", to: "ajar" },
      { from: "ajar", to: "wide", event: "push", action: "hinge creaks" },
      { from: "open", to: "check", event: "release", role: "return" },
      { from: "check", to: "closed", guard: "latch catches" },
      { from: "check", to: "end", guard: "door breaks", role: "error" },
    ],
    notes: [{ id: "n1", state: "closed", text: "The usual state." }],
  };
}

const check = (d: unknown) => checkWith(type, d);

type Case = ConformanceCase<LifecycleDiagram> & {
  rule: keyof typeof LIFECYCLE_RULES | "id/duplicate" | `schema/${string}`;
};

const CASES: Record<string, Case> = {
  "a transition end names a state (did you mean)": {
    rule: "ref/state",
    path: "/transitions/3/to",
    fail: (d) => set(d, "/transitions/3/to", "wdie"),
    pass: (d) => set(d, "/transitions/-", { from: "ajar", to: "wide", event: "pull" }),
    suggestion: 'did you mean "wide"?',
  },
  "a note names a state": {
    rule: "ref/state",
    path: "/notes/0/state",
    fail: (d) => set(d, "/notes/0/state", "closd"),
    pass: (d) => set(d, "/notes/0/state", "ajar"),
    suggestion: 'did you mean "closed"?',
  },
  "a view edge names a transition id": {
    rule: "ref/transition",
    path: "/meta/views/0/edges/0",
    fail: (d) => set(d, "/meta/views/0/edges/0", "t-opne"),
    pass: (d) => del(d, "/meta/views/0/edges"),
    suggestion: 'did you mean "t-open"?',
  },
  "state ids are unique across nesting": {
    rule: "id/duplicate",
    path: "/states/2/states/3/id",
    fail: (d) => set(d, "/states/2/states/-", { id: "closed", label: "Closed again" }),
    // Notes have their own namespace.
    pass: (d) => set(d, "/notes/0/id", "closed"),
  },
  "only normal states are composite": {
    rule: "state/pseudo-composite",
    path: "/states/3/states",
    at: "key",
    fail: (d) => set(d, "/states/3/states", [{ id: "inner", label: "Inner" }]),
    pass: (d) => del(d, "/states/2/kind"),
  },
  "one initial state per region": {
    rule: "region/initial",
    path: "/states/2/states/3/kind",
    fail: (d) => set(d, "/states/2/states/-", { id: "open-start-2", kind: "initial" }),
    pass: (d) => {
      set(d, "/states/2/states/-", { id: "open-end", kind: "final" });
      set(d, "/transitions/-", { from: "wide", to: "open-end", event: "stop" });
    },
  },
  "the top level has an initial state": {
    rule: "region/initial",
    path: "/states",
    fail: (d) => {
      set(d, "/states/0/kind", "normal");
      set(d, "/states/0/label", "Start");
    },
    pass: (d) => set(d, "/states/0/label", "ignored on an initial state"),
  },
  "a composite entered directly has an initial state": {
    rule: "region/initial",
    path: "/states/2/states",
    at: "key",
    fail: (d) => {
      del(d, "/transitions/2");
      del(d, "/states/2/states/0");
    },
    // Entering one of its states instead needs no initial state of its own.
    pass: (d) => {
      del(d, "/transitions/2");
      del(d, "/states/2/states/0");
      set(d, "/transitions/1/to", "ajar");
      set(d, "/meta/views/0/nodes/0", "ajar");
    },
  },
  "every state is reachable from the initial state": {
    rule: "state/unreachable",
    path: "/states/2/states/2",
    fail: (d) => del(d, "/transitions/3"),
    pass: (d) => set(d, "/transitions/3/from", "closed"),
  },
  "nothing leaves a final state": {
    rule: "final/outgoing",
    path: "/transitions/7/from",
    fail: (d) => set(d, "/transitions/-", { from: "end", to: "closed", event: "repair" }),
    pass: (d) => set(d, "/transitions/-", { from: "check", to: "closed", guard: "retry" }),
  },
  "nothing enters an initial state": {
    rule: "initial/incoming",
    path: "/transitions/7/to",
    fail: (d) => set(d, "/transitions/-", { from: "closed", to: "start", event: "reset" }),
    pass: (d) => set(d, "/transitions/-", { from: "closed", to: "closed", event: "reset" }),
  },
  "unknown properties are refused (did you mean)": {
    rule: "schema/additionalProperties",
    path: "/transitions/1/gaurd",
    at: "key",
    fail: (d) => {
      const t = get(d, "/transitions/1") as Record<string, unknown>;
      t.gaurd = t.guard;
      delete t.guard;
    },
    pass: (d) => set(d, "/transitions/1/guard", "still not locked"),
    suggestion: 'did you mean "guard"?',
  },
  "a normal state needs a label": {
    rule: "schema/required",
    path: "/states/1/label",
    at: "object",
    fail: (d) => del(d, "/states/1/label"),
    pass: (d) => del(d, "/states/1/sublabel"),
  },
  "the direction is one of four": {
    rule: "schema/enum",
    path: "/meta/direction",
    fail: (d) => set(d, "/meta/direction", "dwon"),
    pass: (d) => set(d, "/meta/direction", "up"),
    suggestion: 'did you mean "down"?',
  },
};

describe("lifecycle conformance: each rule passes and fails", () => {
  conformanceSuite(type, base, CASES, Object.keys(LIFECYCLE_RULES));

  it("a misspelt state gives one problem, not also an unreachable state", () => {
    const d = base();
    set(d, "/transitions/1/to", "opn");
    const rules = check(d).problems.map((p) => p.rule);
    expect(rules).toEqual(["ref/state"]);
  });

  it("a state kind of the wrong type is one problem, with the value to write instead", () => {
    const d = base();
    const end = (d.states as { kind?: unknown }[]).findIndex((st) => st.kind === "final");
    set(d, `/states/${end}/kind`, true);
    expect(check(d).problems.map((p) => `${p.rule} ${p.path}`)).toEqual([
      `schema/enum /states/${end}/kind`,
    ]);
    set(d, `/states/${end}/kind`, "final");
    set(d, "/states/1/label", 5);
    const [problem] = check(d).problems;
    expect(problem?.suggestion).toBe('did you mean "5" (in quotes)?');
  });

  it("a direction at the top level says it belongs in meta", () => {
    const d = base();
    const direction = get(d, "/meta/direction");
    del(d, "/meta/direction");
    set(d, "/direction", direction);
    const problems = check(d).problems;
    expect(problems.map((p) => [p.rule, p.path, p.suggestion])).toEqual([
      [
        "schema/additionalProperties",
        "/direction",
        '"direction" belongs in meta: move it to meta.direction',
      ],
    ]);
  });

  it("reports every problem at once, sorted by position", () => {
    const d = base();
    set(d, "/transitions/1/to", "opn");
    set(d, "/meta/direction", "sideways");
    set(d, "/transitions/-", { from: "end", to: "closed" });
    const problems = check(d).problems;
    expect(problems.map((p) => p.rule)).toEqual(["schema/enum", "ref/state", "final/outgoing"]);
  });
});

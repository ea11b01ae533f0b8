import type { ViewTargets } from "../../core/validate/meta-rules.js";
import type { UnlocatedProblem } from "../../core/validate/schema-problems.js";
import { didYouMean } from "../../core/validate/suggest.js";
import { duplicateIds, isId, isObj, objects, suggestion } from "../../core/validate/values.js";
import { allStates, type LifecycleDiagram } from "./model.js";

/**
 * The lifecycle rules the JSON Schema cannot say: unique ids, references that resolve, one
 * initial state per region, every state reachable, nothing leaving a final state or entering an
 * initial one. Two unguarded transitions on one event from one state are a warning
 * (`ambiguousTransitions`), given with the drawing's.
 *
 * Like workflow's rules they read the raw parsed value, so a description with a schema problem
 * still gets every other problem in the same run; values of the wrong shape are skipped (the
 * schema reports them). The graph rules wait until every transition end resolves, so a misspelt
 * state gives one `ref/state` problem, not also "unreachable".
 */

interface StateInfo {
  id: string;
  kind: string;
  pointer: string;
  /** The region it belongs to: the composite's id, or "" for the top level. */
  region: string;
  children: string[];
}

interface TransitionInfo {
  index: number;
  from: string;
  to: string;
  event: string | undefined;
}

const kindOf = (s: Record<string, unknown>) => (typeof s.kind === "string" ? s.kind : "normal");

export function lifecycleRuleProblems(value: unknown): UnlocatedProblem[] {
  if (!isObj(value)) return [];
  const root = value;
  const problems: UnlocatedProblem[] = [];
  const states = new Map<string, StateInfo>();
  const regions = new Map<string, StateInfo[]>();

  const walk = (list: unknown, pointer: string, region: string) => {
    const members: StateInfo[] = [];
    for (const [s, i] of objects(list)) {
      const at = `${pointer}/${i}`;
      if (!isId(s.id)) continue;
      const earlier = states.get(s.id);
      if (earlier) {
        problems.push({
          path: `${at}/id`,
          rule: "id/duplicate",
          message: `state id "${s.id}" is already used by ${earlier.pointer}; state ids must be unique across the whole machine, nested states included`,
        });
        continue;
      }
      const info: StateInfo = { id: s.id, kind: kindOf(s), pointer: at, region, children: [] };
      states.set(s.id, info);
      members.push(info);
      if (Array.isArray(s.states)) {
        if (info.kind !== "normal") {
          problems.push({
            path: `${at}/states`,
            rule: "state/pseudo-composite",
            message: `state "${s.id}" is ${article(info.kind)} state and cannot hold states; only normal states are composite`,
            suggestion: `remove "kind": "${info.kind}" or move the states out`,
            at: "key",
          });
        }
        info.children = walk(s.states, `${at}/states`, s.id).map((c) => c.id);
      }
    }
    regions.set(region, members);
    return members;
  };
  walk(root.states, "/states", "");

  problems.push(
    ...duplicateIds([
      ["transitions", root.transitions, "transition"],
      ["notes", root.notes, "note"],
    ]),
  );

  const stateIds = [...states.keys()];
  let unresolved = !Array.isArray(root.transitions);
  const ref = (id: unknown, path: string, where: string): boolean => {
    if (!isId(id)) return false;
    if (states.has(id) || states.size === 0) return states.has(id);
    problems.push({
      path,
      rule: "ref/state",
      message: `${where} "${id}" does not name any state`,
      ...suggestion(didYouMean(id, stateIds)),
    });
    return false;
  };
  const transitions: TransitionInfo[] = [];
  for (const [t, i] of objects(root.transitions)) {
    const from = ref(t.from, `/transitions/${i}/from`, "from");
    const to = ref(t.to, `/transitions/${i}/to`, "to");
    if (!from || !to) {
      unresolved = true;
      continue;
    }
    transitions.push({
      index: i,
      from: t.from as string,
      to: t.to as string,
      event: typeof t.event === "string" ? t.event : undefined,
    });
  }
  for (const [n, i] of objects(root.notes)) ref(n.state, `/notes/${i}/state`, "note state");

  // Per-transition rules: they need both ends, not the whole graph.
  for (const t of transitions) {
    const from = states.get(t.from) as StateInfo;
    const to = states.get(t.to) as StateInfo;
    if (from.kind === "final") {
      problems.push({
        path: `/transitions/${t.index}/from`,
        rule: "final/outgoing",
        message: `transition leaves final state "${t.from}"; nothing leaves a final state`,
        suggestion: "make it a normal state, or start the transition elsewhere",
      });
    }
    if (to.kind === "initial") {
      problems.push({
        path: `/transitions/${t.index}/to`,
        rule: "initial/incoming",
        message: `transition enters initial state "${t.to}"; an initial state is only left, never entered`,
        suggestion: "point it at the state the initial state leads to",
      });
    }
  }
  const startless = initials(problems, regions, states, transitions);
  if (!unresolved && states.size > 0) {
    unreachable(problems, states, regions, transitions, startless);
  }
  return problems;
}

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

/**
 * Two unguarded transitions on one event (or none) from one state: the machine cannot tell
 * which to take. A warning, not a problem: Mermaid's own examples draw such machines (Still →
 * Moving or → [*]), and the drawing is still right. A fork's transitions are all taken at once.
 */
export function ambiguousTransitions(d: LifecycleDiagram): UnlocatedProblem[] {
  const kinds = new Map(allStates(d.states).map(({ state }) => [state.id, state.kind]));
  const problems: UnlocatedProblem[] = [];
  const seen = new Map<string, number>();
  d.transitions.forEach((t, index) => {
    if ((t.guard ?? "") !== "" || kinds.get(t.from) === "fork") return;
    const key = `${t.from}\u0000${t.event ?? ""}`;
    const earlier = seen.get(key);
    if (earlier === undefined) {
      seen.set(key, index);
      return;
    }
    const on = t.event === undefined ? "without an event" : `on event "${t.event}"`;
    problems.push({
      path: `/transitions/${index}${t.event === undefined ? "" : "/event"}`,
      rule: "transition/ambiguous",
      message: `state "${t.from}" already has an unguarded transition ${on} (/transitions/${earlier}, to "${d.transitions[earlier]?.to}"); the machine cannot tell which to take`,
      suggestion: "give one of them a guard, or a different event",
    });
  });
  return problems;
}

/** Reports regions without their one initial state; returns the regions it reported. */
function initials(
  problems: UnlocatedProblem[],
  regions: Map<string, StateInfo[]>,
  states: Map<string, StateInfo>,
  transitions: TransitionInfo[],
): Set<string> {
  const reported = new Set<string>();
  const entered = new Set(transitions.map((t) => t.to));
  for (const [region, members] of regions) {
    if (region !== "" && states.get(region)?.kind !== "normal") {
      // state/pseudo-composite already says these states should not be there.
      reported.add(region);
      continue;
    }
    const initial = members.filter((s) => s.kind === "initial");
    for (const extra of initial.slice(1)) {
      problems.push({
        path: `${extra.pointer}/kind`,
        rule: "region/initial",
        message: `${regionName(region)} already has initial state "${initial[0]?.id}" (${initial[0]?.pointer}); a region has one initial state`,
      });
    }
    if (initial.length > 0 || members.length === 0) continue;
    // The top level always starts somewhere; a composite needs its own start only when a
    // transition enters the composite itself rather than one of its states.
    if (region === "") {
      reported.add(region);
      problems.push({
        path: "/states",
        rule: "region/initial",
        message: "the machine has no initial state; the top level needs one to start from",
        suggestion: 'add { "id": "start", "kind": "initial" } and a transition from it',
      });
    } else if (entered.has(region)) {
      reported.add(region);
      const owner = states.get(region) as StateInfo;
      problems.push({
        path: `${owner.pointer}/states`,
        rule: "region/initial",
        message: `composite state "${region}" is entered by a transition but its region has no initial state`,
        suggestion: "add an initial state to its states, or point the transition at one of them",
        at: "key",
      });
    }
  }
  return reported;
}

const regionName = (region: string) =>
  region === "" ? "the top level" : `composite state "${region}"`;

function unreachable(
  problems: UnlocatedProblem[],
  states: Map<string, StateInfo>,
  regions: Map<string, StateInfo[]>,
  transitions: TransitionInfo[],
  startless: Set<string>,
) {
  const start = regions.get("")?.find((s) => s.kind === "initial");
  if (!start) return; // region/initial says so already
  const out = new Map<string, string[]>();
  for (const t of transitions) out.set(t.from, [...(out.get(t.from) ?? []), t.to]);
  const reached = new Set<string>();
  const queue: string[] = [];
  const reach = (id: string) => {
    if (reached.has(id)) return;
    reached.add(id);
    queue.push(id);
  };
  reach(start.id);
  while (queue.length > 0) {
    const id = queue.shift() as string;
    const info = states.get(id) as StateInfo;
    // Being in a state means being in every composite around it, so the composite's own
    // transitions apply; a transition into a composite enters its region at the initial state.
    if (info.region !== "") reach(info.region);
    for (const next of out.get(id) ?? []) {
      reach(next);
      const initial = regions.get(next)?.find((s) => s.kind === "initial");
      if (initial) reach(initial.id);
    }
  }
  for (const info of states.values()) {
    // An initial state is where its region is entered (region/initial judges it), and the
    // states of a region without its initial state are that one problem, not one each.
    if (reached.has(info.id) || info.kind === "initial" || startless.has(info.region)) continue;
    problems.push({
      path: info.pointer,
      rule: "state/unreachable",
      message: `state "${info.id}" cannot be reached from the initial state "${start.id}" along the transitions`,
      suggestion: "add a transition into it, or remove it",
    });
  }
}

/** Guided views highlight states (nested ones included) and transitions with an id. */
export function viewTargets(value: unknown): ViewTargets {
  const root = isObj(value) ? value : {};
  const ids = new Set<string>();
  const walk = (list: unknown) => {
    for (const [s] of objects(list)) {
      if (typeof s.id === "string") ids.add(s.id);
      walk(s.states);
    }
  };
  walk(root.states);
  const transitions = objects(root.transitions).flatMap(([t]) =>
    typeof t.id === "string" ? [t.id] : [],
  );
  return {
    nodes: { kind: "state", noun: "state", ids: ids.size > 0 ? ids : undefined },
    edges: { kind: "transition", noun: "transition id", ids: new Set(transitions) },
  };
}

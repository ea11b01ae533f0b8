import type { ViewTargets } from "../../core/validate/meta-rules.js";
import type { UnlocatedProblem } from "../../core/validate/schema-problems.js";
import { closest, didYouMean } from "../../core/validate/suggest.js";
import { idSet, isId, isObj, type Obj, objects } from "../../core/validate/values.js";

/**
 * The rules of a sequence description that the JSON Schema cannot say: unique ids, references
 * that resolve, boxes of neighbours, notes beside one participant, replies that answer an open
 * call, balanced activations, no empty fragment branch, and lifelines used only while they
 * exist (after their create message, before their destroy message).
 *
 * Like the workflow rules they read the raw parsed value, so a description with a schema
 * problem still gets every other problem in the same run; what has the wrong shape is skipped.
 */

const MESSAGES = new Set(["call", "async", "reply", "create", "destroy"]);
const FRAGMENTS = new Set(["opt", "loop", "critical", "break"]);
const BRANCHED = new Set(["alt", "par"]);

const KINDS = [...MESSAGES, "activate", "deactivate", "note", "divider", ...FRAGMENTS, ...BRANCHED];

/**
 * The step's kind; a misspelt one (a schema problem) is read as the kind it is closest to, so
 * that a typo in one kind does not also unbalance every reply and activation after it.
 */
function kindOf(step: Obj): string | undefined {
  if (typeof step.kind !== "string") return undefined;
  return KINDS.includes(step.kind) ? step.kind : closest(step.kind, KINDS);
}

/** What is true of the lifelines at one point of the walk through the steps. */
interface State {
  /** Calls not answered yet, oldest first. */
  open: { from: string; to: string; path: string }[];
  /** Open activations per participant, innermost last, by the pointer that started each. */
  active: Map<string, string[]>;
  /** Destroyed participants and the pointer of the message that destroyed them. */
  destroyed: Map<string, string>;
  /** Participants already drawn (used by some step, or never created by a message). */
  seen: Set<string>;
}

const clone = (s: State): State => ({
  open: [...s.open],
  active: new Map([...s.active].map(([k, v]) => [k, [...v]])),
  destroyed: new Map(s.destroyed),
  seen: new Set(s.seen),
});

interface Context {
  participants: Set<string> | undefined;
  problems: UnlocatedProblem[];
}

function uniqueIds(root: Obj, problems: UnlocatedProblem[]): void {
  const first = new Map<string, string>();
  const declare = (id: unknown, path: string, what: string) => {
    if (!isId(id)) return;
    const earlier = first.get(id);
    if (earlier === undefined) {
      first.set(id, path);
      return;
    }
    problems.push({
      path,
      rule: "id/duplicate",
      message: `${what} id "${id}" is already used by ${earlier}; ids must be unique in a description`,
    });
  };
  for (const [p, i] of objects(root.participants))
    declare(p.id, `/participants/${i}/id`, "participant");
  for (const [b, i] of objects(root.boxes)) declare(b.id, `/boxes/${i}/id`, "box");
  const walk = (steps: unknown, base: string) => {
    for (const [step, i] of objects(steps)) {
      const path = `${base}/${i}`;
      if (step.id !== undefined) declare(step.id, `${path}/id`, String(step.kind ?? "step"));
      walk(step.steps, `${path}/steps`);
      for (const [branch, b] of objects(step.branches))
        walk(branch.steps, `${path}/branches/${b}/steps`);
    }
  };
  walk(root.steps, "/steps");
}

function participantRef(ctx: Context, id: unknown, path: string, where: string): id is string {
  if (!isId(id) || ctx.participants === undefined) return false;
  if (ctx.participants.has(id)) return true;
  const suggestion = didYouMean(id, ctx.participants);
  ctx.problems.push({
    path,
    rule: "ref/participant",
    message: `${where} "${id}" does not name any participant`,
    ...(suggestion ? { suggestion } : {}),
  });
  return false;
}

function boxes(root: Obj, ctx: Context): void {
  const order = new Map(
    objects(root.participants).flatMap(([p, i]) => (isId(p.id) ? [[p.id, i] as const] : [])),
  );
  const owner = new Map<string, string>();
  for (const [box, b] of objects(root.boxes)) {
    const members: number[] = [];
    for (const [id, i] of (Array.isArray(box.participants) ? box.participants : []).map(
      (v, i) => [v, i] as const,
    )) {
      const path = `/boxes/${b}/participants/${i}`;
      if (!participantRef(ctx, id, path, "box participant")) continue;
      const earlier = owner.get(id);
      if (earlier !== undefined) {
        ctx.problems.push({
          path,
          rule: "box/shared",
          message: `participant "${id}" is already in box ${earlier}; a participant belongs to one box at most`,
        });
        continue;
      }
      owner.set(id, `/boxes/${b}`);
      members.push(order.get(id) as number);
    }
    if (members.length < 2) continue;
    const sorted = [...members].sort((x, y) => x - y);
    const span = (sorted.at(-1) as number) - (sorted[0] as number) + 1;
    if (span !== sorted.length) {
      const names = [...order.keys()];
      const between = names
        .slice(sorted[0], (sorted.at(-1) as number) + 1)
        .filter((_, k) => !sorted.includes((sorted[0] as number) + k));
      ctx.problems.push({
        path: `/boxes/${b}/participants`,
        rule: "box/contiguous",
        message: `the participants of box "${String(box.id)}" do not stand next to each other: ${between.map((n) => `"${n}"`).join(", ")} stand${between.length === 1 ? "s" : ""} between them`,
        suggestion:
          "reorder participants so the box's members are neighbours, or add the others to the box",
      });
    }
  }
}

/** The participant an end most probably names: itself when declared, else the closest one. */
function meant(ctx: Context, id: unknown): string | undefined {
  if (!isId(id)) return undefined;
  if (ctx.participants === undefined || ctx.participants.has(id)) return id;
  return closest(id, ctx.participants) ?? id;
}

/** A participant used by a step: it must exist at this point of the sequence. */
function alive(ctx: Context, state: State, id: string, path: string): void {
  const destroyedAt = state.destroyed.get(id);
  if (destroyedAt !== undefined) {
    ctx.problems.push({
      path,
      rule: "lifeline/destroyed",
      message: `participant "${id}" was destroyed by ${destroyedAt}; it sends and receives nothing afterwards`,
    });
  } else if (!state.seen.has(id)) {
    ctx.problems.push({
      path,
      rule: "lifeline/before-create",
      message: `participant "${id}" is created by a later create message; it cannot take part before it exists`,
      suggestion: "move this step after the create message, or drop the create message",
    });
  }
}

function message(ctx: Context, state: State, step: Obj, kind: string, path: string): void {
  // An end that names no participant is reported once; the bookkeeping goes on with the
  // participant it most probably meant, so a typo does not also unbalance every reply and
  // activation after it.
  const fromKnown = participantRef(ctx, step.from, `${path}/from`, "from");
  const toKnown = participantRef(ctx, step.to, `${path}/to`, "to");
  const from = meant(ctx, step.from);
  const to = meant(ctx, step.to);
  if (fromKnown) alive(ctx, state, step.from as string, `${path}/from`);
  if (toKnown && to !== undefined) {
    if (kind === "create") {
      if (state.seen.has(to) || state.destroyed.has(to)) {
        ctx.problems.push({
          path: `${path}/to`,
          rule: "lifeline/before-create",
          message: `participant "${to}" already exists here; a create message must be its first appearance`,
          suggestion: 'use "call" for a participant that already exists',
        });
      }
      state.seen.add(to);
    } else alive(ctx, state, to, `${path}/to`);
  }
  if (from === undefined || to === undefined) return;
  if (step.deactivate === true) deactivate(ctx, state, from, `${path}/deactivate`);
  if (step.standalone === true && kind !== "reply") {
    ctx.problems.push({
      path: `${path}/standalone`,
      rule: "message/standalone",
      message: `"standalone" is for replies that answer no call; this is a ${kind} message`,
      suggestion: 'remove "standalone", or make the message a "reply"',
    });
  }
  if (kind === "reply" && step.standalone !== true) {
    let k = state.open.length - 1;
    while (k >= 0 && !(state.open[k]?.from === to && state.open[k]?.to === from)) k--;
    if (k < 0) {
      const reverse = state.open.some((c) => c.from === from && c.to === to);
      ctx.problems.push({
        path,
        rule: "reply/no-open-call",
        message: `reply from "${from}" to "${to}" answers no open call from "${to}" to "${from}"`,
        suggestion: reverse
          ? `the open call goes from "${from}" to "${to}": swap from and to`
          : 'add the call before it, or "standalone": true for a dashed reply that answers no call',
      });
    } else state.open.splice(k, 1);
  }
  if (kind === "call") state.open.push({ from, to, path });
  if (kind === "destroy") state.destroyed.set(to, path);
  if (step.activate === true) {
    const list = state.active.get(to) ?? [];
    list.push(`${path}/activate`);
    state.active.set(to, list);
  }
}

function deactivate(ctx: Context, state: State, id: string, path: string): void {
  const list = state.active.get(id);
  if (list && list.length > 0) {
    list.pop();
    return;
  }
  ctx.problems.push({
    path,
    rule: "activation/balance",
    message: `participant "${id}" has no open activation to end here`,
    suggestion: `add { "kind": "activate", "participant": "${id}" } before it, or remove this end`,
  });
}

function walk(ctx: Context, state: State, steps: unknown, base: string): State {
  let current = state;
  for (const [step, i] of objects(steps)) {
    const path = `${base}/${i}`;
    const kind = kindOf(step);
    if (kind === undefined) continue;
    if (MESSAGES.has(kind)) message(ctx, current, step, kind, path);
    else if (kind === "activate" || kind === "deactivate") {
      if (!participantRef(ctx, step.participant, `${path}/participant`, "participant")) continue;
      const id = step.participant as string;
      alive(ctx, current, id, `${path}/participant`);
      if (kind === "deactivate") deactivate(ctx, current, id, path);
      else current.active.set(id, [...(current.active.get(id) ?? []), path]);
    } else if (kind === "note") {
      const ids = Array.isArray(step.participants) ? step.participants : [];
      ids.forEach((id, k) => {
        const p = `${path}/participants/${k}`;
        if (participantRef(ctx, id, p, "note participant")) alive(ctx, current, id, p);
      });
      const position = step.position ?? "over";
      if ((position === "left" || position === "right") && ids.length > 1) {
        ctx.problems.push({
          path: `${path}/participants`,
          rule: "note/side",
          message: `a note ${position} of a participant names exactly one participant, found ${ids.length}`,
          suggestion: `keep one participant, or use "position": "over" to span several`,
        });
      }
    } else if (FRAGMENTS.has(kind) && Array.isArray(step.options)) {
      if (kind !== "critical") {
        ctx.problems.push({
          path: `${path}/options`,
          rule: "fragment/options",
          message: `only a critical fragment has options; this is ${kind}`,
          suggestion: 'use "kind": "critical", or an "alt" with branches',
        });
      }
      const first = { steps: step.steps, at: `${path}/steps` };
      const rest = objects(step.options).map(([o, b]) => ({
        steps: o.steps,
        at: `${path}/options/${b}/steps`,
      }));
      current = walkBranches(ctx, current, [first, ...rest], kind);
    } else if (FRAGMENTS.has(kind) || (BRANCHED.has(kind) && !Array.isArray(step.branches))) {
      // An alt written with steps (a schema problem) is still walked, as one branch.
      if (Array.isArray(step.steps) && step.steps.length === 0) {
        emptyBranch(ctx, `${path}/steps`, kind);
      }
      current = walk(ctx, current, step.steps, `${path}/steps`);
    } else if (BRANCHED.has(kind)) {
      const list = objects(step.branches).map(([branch, b]) => ({
        steps: branch.steps,
        at: `${path}/branches/${b}/steps`,
      }));
      current = walkBranches(ctx, current, list, kind);
    }
  }
  return current;
}

/**
 * Branches of an alt, a par or a critical with options: each starts from the state before the
 * frame; what follows continues from the first (the others describe the same point in other
 * runs).
 */
function walkBranches(
  ctx: Context,
  current: State,
  branches: { steps: unknown; at: string }[],
  kind: string,
): State {
  let after: State | undefined;
  const seen = new Set(current.seen);
  for (const { steps, at } of branches) {
    if (Array.isArray(steps) && steps.length === 0) emptyBranch(ctx, at, kind);
    const end = walk(ctx, clone(current), steps, at);
    for (const id of end.seen) seen.add(id);
    after ??= end;
  }
  return after ? { ...after, seen } : current;
}

function emptyBranch(ctx: Context, path: string, kind: string): void {
  ctx.problems.push({
    path,
    rule: "fragment/empty",
    message: `this ${kind} ${BRANCHED.has(kind) ? "branch" : "fragment"} has no steps; every fragment branch holds at least one`,
    suggestion: "add the steps it stands for, or remove it",
  });
}

/** What guided views highlight in a sequence: participants and messages (by id). */
export function viewTargets(value: unknown): ViewTargets {
  const root = isObj(value) ? value : {};
  const messageIds = new Set<string>();
  const collect = (steps: unknown) => {
    for (const [step] of objects(steps)) {
      const kind = kindOf(step);
      if (kind !== undefined && MESSAGES.has(kind) && isId(step.id)) messageIds.add(step.id);
      collect(step.steps);
      for (const [branch] of objects(step.branches)) collect(branch.steps);
      for (const [option] of objects(step.options)) collect(option.steps);
    }
  };
  collect(root.steps);
  return {
    nodes: { kind: "participant", noun: "participant", ids: idSet(root.participants) },
    edges: { kind: "message", noun: "message id", ids: messageIds },
  };
}

/** Every problem the sequence rules find, each with its JSON path. */
export function sequenceRuleProblems(value: unknown): UnlocatedProblem[] {
  if (!isObj(value)) return [];
  const participants = idSet(value.participants);
  const created = new Set<string>();
  const collect = (steps: unknown) => {
    for (const [step] of objects(steps)) {
      if (kindOf(step) === "create" && isId(step.to)) created.add(step.to);
      collect(step.steps);
      for (const [branch] of objects(step.branches)) collect(branch.steps);
      for (const [option] of objects(step.options)) collect(option.steps);
    }
  };
  collect(value.steps);
  const ctx: Context = { participants, problems: [] };
  uniqueIds(value, ctx.problems);
  boxes(value, ctx);
  const state: State = {
    open: [],
    active: new Map(),
    destroyed: new Map(),
    seen: new Set([...(participants ?? [])].filter((id) => !created.has(id))),
  };
  const end = walk(ctx, state, value.steps, "/steps");
  for (const [id, starts] of end.active) {
    for (const start of starts) {
      ctx.problems.push({
        path: start,
        rule: "activation/balance",
        message: `the activation of "${id}" started here is never ended`,
        suggestion: `add { "kind": "deactivate", "participant": "${id}" } where its work ends, or "deactivate": true on its reply`,
      });
    }
  }
  return ctx.problems;
}

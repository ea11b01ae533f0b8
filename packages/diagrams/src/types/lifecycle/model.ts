/**
 * The lifecycle (state machine) description format (diagram_type "lifecycle"), as TypeScript
 * types. `schema/lifecycle.schema.json` is the authority for what a file may contain; these
 * types describe the same shapes. Reference: docs/diagrams/lifecycle.md.
 */
import type { EdgeRole, Id, Meta } from "../../core/model.js";

/** Which way the layers run: the initial state sits at the start, transitions flow onwards. */
export const DIRECTIONS = ["right", "down", "left", "up"] as const;
export type Direction = (typeof DIRECTIONS)[number];

/**
 * initial: the black dot a region starts from; final: the bull's eye it ends in; choice: a
 * diamond whose outgoing transitions carry guards; fork: a bar whose outgoing transitions are
 * all taken at once (into concurrent states); join: a bar that waits for all its incoming
 * transitions; normal: a named state, composite when it holds `states` of its own (its region).
 */
const STATE_KINDS = ["normal", "initial", "final", "choice", "fork", "join"] as const;
type StateKind = (typeof STATE_KINDS)[number];

/** The shared meta (guided views name states and transition ids) plus the layout's direction. */
export interface LifecycleMeta extends Meta {
  /** Which way the layers run; chosen from the content when absent (top-down first). */
  direction?: Direction;
}

export interface State {
  id: Id;
  kind?: StateKind;
  /** Required for normal states; initial, final, choice, fork and join states are drawn without text. */
  label?: string;
  /** A smaller second line: what holds while the machine is in this state. */
  sublabel?: string;
  /** Normal states only: the states of this composite state's region. */
  states?: State[];
}

export interface Transition {
  id?: Id;
  from: Id;
  to: Id;
  /** What moves the machine: written first on the label. */
  event?: string;
  /** The condition under which the event moves it: written `[guard]`. */
  guard?: string;
  /** What also happens on the way: written `/ action`. */
  action?: string;
  /** Styling as in workflow: main, branch, async, return or error. */
  role?: EdgeRole;
}

export interface Note {
  id?: Id;
  /** The state the note is attached to. */
  state: Id;
  text: string;
  /** Which side of its state the note sits on. */
  side?: "left" | "right" | "above" | "below";
}

export interface LifecycleDiagram {
  schema_version: 2;
  diagram_type: "lifecycle";
  meta: LifecycleMeta;
  states: State[];
  transitions: Transition[];
  notes?: Note[];
}

/** Every state of the machine, nested ones included, with its JSON Pointer and parent. */
interface StateEntry {
  state: State;
  pointer: string;
  parent: State | undefined;
}

/** Depth-first, in document order: a composite state comes before the states it holds. */
export function allStates(states: State[], pointer = "/states", parent?: State): StateEntry[] {
  return states.flatMap((state, i) => {
    const at = `${pointer}/${i}`;
    const own: StateEntry = { state, pointer: at, parent };
    return [own, ...allStates(state.states ?? [], `${at}/states`, state)];
  });
}

/** "event [guard] / action" as lines: the transition's label in UML notation. */
export function transitionText(t: Transition): string[] {
  const lines: string[] = [];
  if (t.event) lines.push(t.event);
  if (t.guard) lines.push(`[${t.guard}]`);
  if (t.action) lines.push(`/ ${t.action}`);
  return lines;
}

/**
 * Mermaid `stateDiagram` / `stateDiagram-v2` → a lifecycle description. A small hand-written
 * reader: one region per composite state block, `[*]` as the region's initial or final state.
 */
import type {
  Direction,
  LifecycleDiagram,
  Note,
  State,
  Transition,
} from "../../types/lifecycle/model.js";
import { ambiguousTransitions } from "../../types/lifecycle/rules.js";
import {
  applyDiagramNote,
  applyNote,
  clip,
  decodeText,
  type ImportIssue,
  idReader,
  type Scanned,
  type Statement,
} from "../source.js";

export const DIRECTION_OF: Record<string, Direction> = {
  LR: "right",
  TB: "down",
  TD: "down",
  RL: "left",
  BT: "up",
};

/** `event [guard] / action`, the UML transition label, read into its three parts. */
export function readLabel(text: string): Pick<Transition, "event" | "guard" | "action"> {
  const out: Pick<Transition, "event" | "guard" | "action"> = {};
  let rest = text.trim();
  const action = /(?:^|\s)\/\s(.*)$/.exec(rest) ?? /^\/(.*)$/.exec(rest);
  if (action) {
    out.action = (action[1] as string).trim() || undefined;
    rest = rest.slice(0, action.index).trim();
  }
  const guard = /\[([^\]]*)\]$/.exec(rest);
  if (guard) {
    out.guard = (guard[1] as string).trim() || undefined;
    rest = rest.slice(0, guard.index).trim();
  }
  if (rest) out.event = rest;
  for (const k of ["event", "guard", "action"] as const) if (out[k] === undefined) delete out[k];
  return out;
}

/** The name the importer gives a region's `[*]`: before the ids annotation renames it. */
export const pseudoName = (region: string | undefined, kind: "initial" | "final") =>
  region ? `${region}_${kind}` : kind;

interface Region {
  /** The composite's Mermaid name; undefined for the top level. */
  name: string | undefined;
  states: State[];
  statement?: Statement;
}

const ID = "([^\\s:{}]+?)(?::::[\\w-]+)?";
const TRANSITION = new RegExp(`^${ID}\\s*-->\\s*${ID}\\s*(?::(.*))?$`);

/** What reading a state diagram so far has found, shared by the steps below. */
interface Reading {
  scanned: Scanned;
  issues: ImportIssue[];
  idOf: (name: string, at: { line: number; col: number }) => string;
  top: Region;
  /** The open composite states, innermost last; the top level first. */
  stack: Region[];
  byId: Map<string, State>;
  transitions: Transition[];
  /** The statement each transition was read from, in the same order. */
  transitionAt: Statement[];
  notes: Note[];
  direction: Direction | undefined;
  title: string | undefined;
  /** A `note … of X` block waiting for its `end note`. */
  note: { note: Note; statement: Statement } | undefined;
  /** States whose label is set (by `state "…" as` or a first description line). */
  labelled: Set<string>;
}

/** Reads one kind of statement into `r`; false when the statement is not of its kind. */
type Reader = (r: Reading, s: Statement) => boolean;

export function importState(
  scanned: Scanned,
  fallbackTitle: string,
): {
  diagram: LifecycleDiagram;
  issues: ImportIssue[];
} {
  const r = startReading(scanned);
  for (const s of scanned.statements) readStatement(r, s);
  reportUnclosed(r);
  const diagram: LifecycleDiagram = {
    schema_version: 2,
    diagram_type: "lifecycle",
    meta: { title: r.title || fallbackTitle },
    states: ordered(r.top.states),
    transitions: r.transitions,
  };
  if (r.direction) diagram.meta.direction = r.direction;
  if (r.notes.length > 0) diagram.notes = r.notes;
  applyDiagramNote(diagram, scanned);
  reportAmbiguous(r, diagram);
  return { diagram, issues: r.issues };
}

function startReading(scanned: Scanned): Reading {
  const top: Region = { name: undefined, states: [] };
  return {
    scanned,
    issues: scanned.issues,
    idOf: idReader(scanned.ids, scanned.issues),
    top,
    stack: [top],
    byId: new Map(),
    transitions: [],
    transitionAt: [],
    notes: [],
    direction: undefined,
    title: scanned.title,
    note: undefined,
    labelled: new Set(),
  };
}

const report = (r: Reading, s: Statement, message: string) =>
  r.issues.push({ line: s.line, col: s.col, message });

const region = (r: Reading) => r.stack[r.stack.length - 1] as Region;

/** State `name`, created in the open region on first use. */
function state(r: Reading, name: string, s: Statement): State {
  const id = r.idOf(name, s);
  const known = r.byId.get(id);
  if (known) return known;
  const created: State = { id, label: decodeText(name) };
  r.byId.set(id, created);
  region(r).states.push(created);
  return created;
}

/** The open region's `[*]` as its initial or final state. */
function pseudo(r: Reading, kind: "initial" | "final"): State {
  const key = pseudoName(region(r).name, kind);
  const id = r.scanned.ids[key] ?? key;
  const known = r.byId.get(id);
  if (known) return known;
  const created: State = { id, kind };
  r.byId.set(id, created);
  region(r).states.push(created);
  return created;
}

// A state's first description line is its label unless `state "…" as` gave one; later ones
// are its sublabel.
function describe(r: Reading, st: State, words: string): void {
  if (!r.labelled.has(st.id)) {
    st.label = words;
    r.labelled.add(st.id);
  } else st.sublabel = st.sublabel ? `${st.sublabel}\n${words}` : words;
}

function markClass(r: Reading, text: string, s: Statement): void {
  if (/:::/.test(text))
    report(r, s, `class "${clip(text)}" not carried over (no styles in lifecycle descriptions)`);
}

/** In order: the first reader that takes a statement reads it. */
const READERS: Reader[] = [
  continueNote,
  readTransition,
  readDirection,
  readDeclaration,
  closeComposite,
  readConcurrency,
  readNote,
  readDescription,
  readTitle,
  readStyling,
  readBareState,
];

function readStatement(r: Reading, s: Statement): void {
  if (!READERS.some((read) => read(r, s)))
    report(r, s, `cannot read "${clip(s.text)}"; not carried over`);
}

/** Inside a note block every line is note text, up to `end note`. */
function continueNote(r: Reading, s: Statement): boolean {
  const note = r.note;
  if (!note) return false;
  const text = s.text;
  if (/^end\s+note$/i.test(text)) {
    r.notes.push(note.note);
    r.note = undefined;
  } else
    note.note.text = note.note.text ? `${note.note.text}\n${decodeText(text)}` : decodeText(text);
  return true;
}

function readTransition(r: Reading, s: Statement): boolean {
  const text = s.text;
  const t = TRANSITION.exec(text);
  if (!t) return false;
  markClass(r, text, s);
  const from = t[1] === "[*]" ? pseudo(r, "initial") : state(r, t[1] as string, s);
  const to = t[2] === "[*]" ? pseudo(r, "final") : state(r, t[2] as string, s);
  const transition: Transition = {
    from: from.id,
    to: to.id,
    ...readLabel(decodeText(t[3] ?? "")),
  };
  r.transitions.push(applyNote(transition, s.note));
  r.transitionAt.push(s);
  return true;
}

function readDirection(r: Reading, s: Statement): boolean {
  const dir = /^direction\s+(\w+)$/.exec(s.text);
  if (!dir) return false;
  const value = DIRECTION_OF[dir[1] as string];
  if (!value) report(r, s, `direction "${dir[1]}" not carried over`);
  else if (r.stack.length > 1)
    report(
      r,
      s,
      `direction inside a composite state not carried over (one direction per lifecycle)`,
    );
  else r.direction = value;
  return true;
}

/** `state "Label" as Name <<choice>> {`: declares a state, maybe opening a composite. */
function readDeclaration(r: Reading, s: Statement): boolean {
  const text = s.text;
  const declared =
    /^state\s+(?:"([^"]*)"\s+as\s+)?([^\s{"<:]+)\s*(?:<<(\w+)>>)?\s*(\{)?\s*(?::\s*(.*))?$/.exec(
      text,
    );
  if (!declared) return false;
  markClass(r, text, s);
  const name = (declared[2] as string).replace(/:::[\w-]+$/, "");
  const st = state(r, name, s);
  if (declared[1] !== undefined) st.label = decodeText(declared[1]);
  const stereotype = declared[3];
  if (stereotype === "choice" || stereotype === "fork" || stereotype === "join") {
    st.kind = stereotype;
    delete st.label;
  } else if (stereotype) {
    report(r, s, `<<${stereotype}>> has no lifecycle kind; "${name}" kept as a normal state`);
  }
  if (declared[1] !== undefined) r.labelled.add(st.id);
  if (declared[5]) describe(r, st, decodeText(declared[5].trim()));
  applyNote(st, s.note);
  if (declared[4]) {
    st.states = st.states ?? [];
    r.stack.push({ name, states: st.states, statement: s });
  }
  return true;
}

function closeComposite(r: Reading, s: Statement): boolean {
  if (s.text !== "}") return false;
  if (r.stack.length > 1) r.stack.pop();
  else report(r, s, `"}" without a composite state not carried over`);
  return true;
}

function readConcurrency(r: Reading, s: Statement): boolean {
  if (s.text !== "--") return false;
  report(r, s, "concurrent regions (--) not carried over; their states are kept in one region");
  return true;
}

/** `note right of X : text`, or without text the start of a note block. */
function readNote(r: Reading, s: Statement): boolean {
  const n = /^note\s+(left|right)\s+of\s+([^\s:]+)\s*(?::(.*))?$/i.exec(s.text);
  if (!n) return false;
  const side = (n[1] as string).toLowerCase();
  const target = state(r, n[2] as string, s);
  if (side === "left")
    report(r, s, `note side "left of" not carried over (notes are drawn beside their state)`);
  const made = applyNote(
    { state: target.id, text: decodeText((n[3] ?? "").trim()) } as Note,
    s.note,
  );
  if (n[3] !== undefined) r.notes.push(made);
  else r.note = { note: made, statement: s };
  return true;
}

/** `Name : words`, a state's description line. */
function readDescription(r: Reading, s: Statement): boolean {
  const described = /^([^\s:]+)\s*:\s*(.*)$/.exec(s.text);
  if (
    !described ||
    /^(classDef|class|style|title|accTitle|accDescr)$/i.test(described[1] as string)
  )
    return false;
  describe(r, state(r, described[1] as string, s), decodeText((described[2] as string).trim()));
  return true;
}

function readTitle(r: Reading, s: Statement): boolean {
  if (!/^title(?=[\s:]|$)/.test(s.text)) return false;
  r.title = decodeText(s.text.replace(/^title\s*:?\s*/, ""));
  return true;
}

function readStyling(r: Reading, s: Statement): boolean {
  // The keyword as a whole word: `style-guide` and `title_page` are states.
  if (!/^(classDef|class|style|hide|scale|accTitle|accDescr|click)(?=[\s:{]|$)/i.test(s.text))
    return false;
  report(r, s, `"${clip(s.text)}" not carried over (no styles in lifecycle descriptions)`);
  return true;
}

/** A bare `Name` (maybe `Name:::class`): the state, declared. */
function readBareState(r: Reading, s: Statement): boolean {
  const text = s.text;
  if (!/^[^\s:{}"]+$/.test(text)) return false;
  markClass(r, text, s);
  state(r, text.replace(/:::[\w-]+$/, ""), s);
  return true;
}

/**
 * Two unguarded transitions on one event from one state (Mermaid's Still → Moving, Still →
 * [*]) are imported as written: the lifecycle draws them and warns, and so does the import.
 */
function reportAmbiguous(r: Reading, diagram: LifecycleDiagram): void {
  for (const w of ambiguousTransitions(diagram)) {
    const index = Number(/^\/transitions\/(\d+)/.exec(w.path)?.[1]);
    const at = r.transitionAt[index];
    if (at)
      r.issues.push({
        line: at.line,
        col: at.col,
        message: `${w.message} (kept as written; validate --strict refuses it)`,
        rule: w.rule,
      });
  }
}

function reportUnclosed(r: Reading): void {
  if (r.note) {
    report(r, r.note.statement, `note never closed with "end note"; kept`);
    r.notes.push(r.note.note);
  }
  for (const open of r.stack.slice(1)) {
    if (open.statement)
      report(r, open.statement, `state block never closed with "}"; its states are kept`);
  }
}

/** Each region with its initial state first and its final states last (the drawing order). */
function ordered(states: State[]): State[] {
  const rank = (s: State) => (s.kind === "initial" ? 0 : s.kind === "final" ? 2 : 1);
  for (const s of states) if (s.states) s.states = ordered(s.states);
  return states
    .map((s, i) => [s, i] as const)
    .sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1])
    .map(([s]) => s);
}

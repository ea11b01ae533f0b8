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

export function importState(
  scanned: Scanned,
  fallbackTitle: string,
): {
  diagram: LifecycleDiagram;
  issues: ImportIssue[];
} {
  const issues = scanned.issues;
  const report = (s: Statement, message: string) =>
    issues.push({ line: s.line, col: s.col, message });
  const idOf = idReader(scanned.ids, issues);
  const top: Region = { name: undefined, states: [] };
  const stack: Region[] = [top];
  const byId = new Map<string, State>();
  const transitions: Transition[] = [];
  const notes: Note[] = [];
  let direction: Direction | undefined;
  let title = scanned.title;
  let note: { note: Note; statement: Statement } | undefined;

  const region = () => stack[stack.length - 1] as Region;
  const state = (name: string, s: Statement): State => {
    const id = idOf(name, s);
    const known = byId.get(id);
    if (known) return known;
    const created: State = { id, label: decodeText(name) };
    byId.set(id, created);
    region().states.push(created);
    return created;
  };
  const pseudo = (kind: "initial" | "final"): State => {
    const key = pseudoName(region().name, kind);
    const id = scanned.ids[key] ?? key;
    const known = byId.get(id);
    if (known) return known;
    const created: State = { id, kind };
    byId.set(id, created);
    region().states.push(created);
    return created;
  };
  // A state's first description line is its label unless `state "…" as` gave one; later ones
  // are its sublabel.
  const labelled = new Set<string>();
  const describe = (st: State, words: string) => {
    if (!labelled.has(st.id)) {
      st.label = words;
      labelled.add(st.id);
    } else st.sublabel = st.sublabel ? `${st.sublabel}\n${words}` : words;
  };
  const markClass = (text: string, s: Statement) => {
    if (/:::/.test(text))
      report(s, `class "${clip(text)}" not carried over (no styles in lifecycle descriptions)`);
  };

  for (const s of scanned.statements) {
    const text = s.text;
    if (note) {
      if (/^end\s+note$/i.test(text)) {
        notes.push(note.note);
        note = undefined;
      } else
        note.note.text = note.note.text
          ? `${note.note.text}\n${decodeText(text)}`
          : decodeText(text);
      continue;
    }
    const t = TRANSITION.exec(text);
    if (t) {
      markClass(text, s);
      const from = t[1] === "[*]" ? pseudo("initial") : state(t[1] as string, s);
      const to = t[2] === "[*]" ? pseudo("final") : state(t[2] as string, s);
      const transition: Transition = {
        from: from.id,
        to: to.id,
        ...readLabel(decodeText(t[3] ?? "")),
      };
      transitions.push(applyNote(transition, s.note));
      continue;
    }
    const dir = /^direction\s+(\w+)$/.exec(text);
    if (dir) {
      const value = DIRECTION_OF[dir[1] as string];
      if (!value) report(s, `direction "${dir[1]}" not carried over`);
      else if (stack.length > 1)
        report(
          s,
          `direction inside a composite state not carried over (one direction per lifecycle)`,
        );
      else direction = value;
      continue;
    }
    const declared =
      /^state\s+(?:"([^"]*)"\s+as\s+)?([^\s{"<:]+)\s*(?:<<(\w+)>>)?\s*(\{)?\s*(?::\s*(.*))?$/.exec(
        text,
      );
    if (declared) {
      markClass(text, s);
      const name = (declared[2] as string).replace(/:::[\w-]+$/, "");
      const st = state(name, s);
      if (declared[1] !== undefined) st.label = decodeText(declared[1]);
      const stereotype = declared[3];
      if (stereotype === "choice") {
        st.kind = "choice";
        delete st.label;
      } else if (stereotype) {
        report(s, `<<${stereotype}>> has no lifecycle kind; "${name}" kept as a normal state`);
      }
      if (declared[1] !== undefined) labelled.add(st.id);
      if (declared[5]) describe(st, decodeText(declared[5].trim()));
      applyNote(st, s.note);
      if (declared[4]) {
        st.states = st.states ?? [];
        stack.push({ name, states: st.states, statement: s });
      }
      continue;
    }
    if (text === "}") {
      if (stack.length > 1) stack.pop();
      else report(s, `"}" without a composite state not carried over`);
      continue;
    }
    if (text === "--") {
      report(s, "concurrent regions (--) not carried over; their states are kept in one region");
      continue;
    }
    const n = /^note\s+(left|right)\s+of\s+([^\s:]+)\s*(?::(.*))?$/i.exec(text);
    if (n) {
      const side = (n[1] as string).toLowerCase();
      const target = state(n[2] as string, s);
      if (side === "left")
        report(s, `note side "left of" not carried over (notes are drawn beside their state)`);
      const made = applyNote(
        { state: target.id, text: decodeText((n[3] ?? "").trim()) } as Note,
        s.note,
      );
      if (n[3] !== undefined) notes.push(made);
      else note = { note: made, statement: s };
      continue;
    }
    const described = /^([^\s:]+)\s*:\s*(.*)$/.exec(text);
    if (
      described &&
      !/^(classDef|class|style|title|accTitle|accDescr)$/i.test(described[1] as string)
    ) {
      describe(state(described[1] as string, s), decodeText((described[2] as string).trim()));
      continue;
    }
    if (/^title\b/.test(text)) {
      title = decodeText(text.replace(/^title\s*:?\s*/, ""));
      continue;
    }
    if (/^(classDef|class|style|hide|scale|accTitle|accDescr|click)\b/i.test(text)) {
      report(s, `"${clip(text)}" not carried over (no styles in lifecycle descriptions)`);
      continue;
    }
    if (/^[^\s:{}"]+$/.test(text)) {
      markClass(text, s);
      state(text.replace(/:::[\w-]+$/, ""), s);
      continue;
    }
    report(s, `cannot read "${clip(text)}"; not carried over`);
  }
  if (note) {
    report(note.statement, `note never closed with "end note"; kept`);
    notes.push(note.note);
  }
  for (const open of stack.slice(1)) {
    if (open.statement)
      report(open.statement, `state block never closed with "}"; its states are kept`);
  }

  const diagram: LifecycleDiagram = {
    schema_version: 2,
    diagram_type: "lifecycle",
    meta: { title: title || fallbackTitle },
    states: ordered(top.states),
    transitions,
  };
  if (direction) diagram.meta.direction = direction;
  if (notes.length > 0) diagram.notes = notes;
  return { diagram: applyDiagramNote(diagram, scanned), issues };
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

/**
 * Mermaid `sequenceDiagram` → a sequence description. A small hand-written reader, one
 * statement at a time, keeping each statement's line and column for what it reports.
 */
import type {
  Branch,
  BranchedFragment,
  Fragment,
  Message,
  MessageKind,
  Participant,
  ParticipantBox,
  SequenceDiagram,
  Step,
} from "../../types/sequence/model.js";
import { isBranched } from "../../types/sequence/model.js";
import { sequenceRuleProblems } from "../../types/sequence/rules.js";
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

/** Mermaid's arrows, longest first, and the message kind each is read as. */
const ARROWS: [string, MessageKind, string?][] = [
  ["<<-->>", "reply", "a two-way arrow is read as one reply"],
  ["<<->>", "call", "a two-way arrow is read as one call"],
  ["-->>", "reply"],
  ["->>", "call"],
  ["--x", "reply", "a cross at the end is read as an error reply"],
  ["-x", "call", "a cross at the end is read as an error call"],
  ["--)", "async", "a dotted async arrow is read as an async message"],
  ["-)", "async"],
  ["-->", "reply", "a dotted line without arrowhead is read as a reply"],
  ["->", "call", "a line without arrowhead is read as a call"],
];

const NAME = "[^\\s<>:,;+\\-][^<>:,;+]*?";
const MESSAGE = new RegExp(
  `^(${NAME})\\s*(${ARROWS.map(([a]) => a.replace(/[()]/g, "\\$&")).join("|")})([+-]?)\\s*(${NAME})\\s*(?::(.*))?$`,
);

/** Words that open a block, and what closes it. */
const BLOCKS = ["alt", "opt", "loop", "par", "critical", "break", "rect", "box"] as const;
type BlockWord = (typeof BLOCKS)[number];

interface Open {
  word: BlockWord;
  statement: Statement;
  steps: Step[];
  fragment?: Fragment | BranchedFragment;
  box?: ParticipantBox;
}

const COLOURS =
  /^(transparent|rgba?\([^)]*\)|hsla?\([^)]*\)|#[0-9a-f]{3,8}|aqua|black|blue|fuchsia|gray|grey|green|lime|maroon|navy|olive|orange|purple|red|silver|teal|white|yellow|lightblue|lightgreen|lightyellow|lightgrey|lightgray|pink|violet|gold|beige|ivory|khaki|lavender|coral|salmon|tan|wheat)\b\s*/i;

/** What reading a sequence so far has found, shared by the steps below. */
interface Reading {
  issues: ImportIssue[];
  idOf: (name: string, at: { line: number; col: number }) => string;
  participants: Participant[];
  boxes: ParticipantBox[];
  top: Step[];
  stack: Open[];
  title: string | undefined;
  autonumber: boolean | undefined;
  creating: string | undefined;
  destroying: string | undefined;
  where: Map<Message, Statement>;
}

/** One statement, with its first word (lower case) and what follows it. */
interface Line {
  s: Statement;
  text: string;
  word: string;
  rest: string;
}

/** Reads one kind of statement into `r`; false when the statement is not of its kind. */
type Reader = (r: Reading, l: Line) => boolean;

export function importSequence(
  scanned: Scanned,
  fallbackTitle: string,
): {
  diagram: SequenceDiagram;
  issues: ImportIssue[];
} {
  const r = startReading(scanned);
  for (const s of scanned.statements) readStatement(r, s);
  closeOpenBlocks(r);
  const diagram = describe(r, fallbackTitle);
  applyDiagramNote(diagram, scanned);
  repliesToNobody(diagram, r.where);
  return { diagram, issues: r.issues };
}

function startReading(scanned: Scanned): Reading {
  return {
    issues: scanned.issues,
    idOf: idReader(scanned.ids, scanned.issues),
    participants: [],
    boxes: [],
    top: [],
    stack: [],
    title: scanned.title,
    autonumber: undefined,
    creating: undefined,
    destroying: undefined,
    where: new Map(),
  };
}

const report = (r: Reading, s: Statement, message: string, col = s.col) =>
  r.issues.push({ line: s.line, col, message });

/** The steps list the next step goes into: the innermost open block's, or the top level. */
const here = (r: Reading): Step[] =>
  r.stack.length > 0 ? (r.stack[r.stack.length - 1] as Open).steps : r.top;

/** The id of participant `name`, declaring it (inside the open box, if any) on first use. */
function participant(r: Reading, name: string, s: Statement): string {
  const id = r.idOf(name, s);
  if (!r.participants.some((p) => p.id === id)) {
    r.participants.push({ id, type: "service", label: decodeText(name) });
    const box = r.stack.findLast((o) => o.word === "box")?.box;
    box?.participants.push(id);
  }
  return id;
}

/** In order: the first reader that takes a statement reads it. */
const READERS: Reader[] = [
  readDeclaration,
  readDestroy,
  readMessage,
  readActivation,
  readNote,
  readAutonumber,
  readTitle,
  openBlock,
  readBranch,
  closeBlock,
  readUnsupported,
];

function readStatement(r: Reading, s: Statement): void {
  const text = s.text;
  const word = (/^\S+/.exec(text)?.[0] ?? "").toLowerCase();
  const line: Line = { s, text, word, rest: text.slice(word.length).trim() };
  if (!READERS.some((read) => read(r, line)))
    report(r, s, `cannot read "${clip(text)}"; not carried over`);
}

function readDeclaration(r: Reading, { s, text }: Line): boolean {
  const declared = /^(create\s+)?(participant|actor)\s+(\S+?)(?:@\{.*\})?(?:\s+as\s+(.+))?$/i.exec(
    text,
  );
  if (!declared) return false;
  const id = participant(r, declared[3] as string, s);
  const p = r.participants.find((x) => x.id === id) as Participant;
  if ((declared[2] as string).toLowerCase() === "actor") p.type = "user";
  if (declared[4] !== undefined) p.label = decodeText(declared[4].trim());
  if (/@\{/.test(text)) report(r, s, "participant @{…} metadata not carried over");
  if (declared[1]) r.creating = id;
  applyNote(p, s.note);
  return true;
}

function readDestroy(r: Reading, { s, word, rest }: Line): boolean {
  if (word !== "destroy") return false;
  r.destroying = participant(r, rest, s);
  return true;
}

function readMessage(r: Reading, { s, text }: Line): boolean {
  const m = MESSAGE.exec(text);
  if (!m) return false;
  const arrow = ARROWS.find(([a]) => a === m[2]) as [string, MessageKind, string?];
  const from = participant(r, (m[1] as string).trim(), s);
  const to = participant(r, (m[4] as string).trim(), s);
  let kind = arrow[1];
  const message: Message = { kind, from, to };
  if (r.creating === to) {
    kind = "create";
    r.creating = undefined;
  } else if (r.destroying === to || r.destroying === from) {
    kind = "destroy";
    r.destroying = undefined;
  } else if (arrow[2]) report(r, s, arrow[2], s.col + (m[1] as string).length);
  message.kind = kind;
  if (arrow[0].includes("x") && kind !== "destroy") message.role = "error";
  const label = (m[5] ?? "").trim();
  if (label) message.label = decodeText(label);
  if (m[3] === "+") message.activate = true;
  if (m[3] === "-") message.deactivate = true;
  here(r).push(applyNote(message, s.note));
  r.where.set(message, s);
  return true;
}

function readActivation(r: Reading, { s, word, rest }: Line): boolean {
  if (word !== "activate" && word !== "deactivate") return false;
  here(r).push(applyNote({ kind: word, participant: participant(r, rest, s) }, s.note));
  return true;
}

function readNote(r: Reading, { s, text }: Line): boolean {
  const note = /^note\s+(over|left\s+of|right\s+of)\s+([^:]+?)\s*:(.*)$/i.exec(text);
  if (!note) return false;
  const where = (note[1] as string).toLowerCase().split(/\s+/)[0] as "over" | "left" | "right";
  const who = (note[2] as string).split(",").map((n) => participant(r, n.trim(), s));
  const step: Step = {
    kind: "note",
    participants: who,
    text: decodeText((note[3] as string).trim()),
  };
  if (where !== "over") step.position = where;
  here(r).push(applyNote(step, s.note));
  return true;
}

function readAutonumber(r: Reading, { s, word, rest }: Line): boolean {
  if (word !== "autonumber") return false;
  r.autonumber = true;
  if (rest)
    report(r, s, `autonumber start and step "${rest}" not carried over (numbers start at 1)`);
  return true;
}

function readTitle(r: Reading, { word, rest }: Line): boolean {
  if (word !== "title") return false;
  r.title = decodeText(rest.replace(/^:\s*/, ""));
  return true;
}

/** `alt`, `par`, `loop`, `box`, …: opens a block the following steps go into. */
function openBlock(r: Reading, { s, word, rest }: Line): boolean {
  if (!(BLOCKS as readonly string[]).includes(word)) return false;
  const open: Open = { word: word as BlockWord, statement: s, steps: [] };
  const guard = rest ? decodeText(rest) : undefined;
  if (word === "alt" || word === "par") {
    const first: Branch = { steps: open.steps };
    if (guard !== undefined) first.guard = guard;
    open.fragment = applyNote({ kind: word, branches: [first] } as BranchedFragment, s.note);
  } else if (word === "rect") {
    report(r, s, `rect ${clip(rest)} not carried over (its steps are kept, without the highlight)`);
  } else if (word === "box") {
    open.box = openBox(r, s, rest);
  } else {
    const fragment: Fragment = { kind: word as Fragment["kind"], steps: open.steps };
    if (guard !== undefined) fragment.guard = guard;
    open.fragment = applyNote(fragment, s.note);
  }
  r.stack.push(open);
  return true;
}

function openBox(r: Reading, s: Statement, rest: string): ParticipantBox {
  const colour = COLOURS.exec(rest);
  if (colour) report(r, s, `box colour "${colour[0].trim()}" not carried over`);
  const label = decodeText(colour ? rest.slice(colour[0].length) : rest).trim();
  const box = applyNote(
    {
      id: `box${r.boxes.length + 1}`,
      label: label || `Box ${r.boxes.length + 1}`,
      participants: [],
    },
    s.note,
  );
  r.boxes.push(box);
  return box;
}

/** `else` in alt, `and` in par, `option` in critical: the next branch of the open block. */
function readBranch(r: Reading, { s, word, rest }: Line): boolean {
  if (word !== "else" && word !== "and" && word !== "option") return false;
  const open = r.stack[r.stack.length - 1];
  const expected = word === "else" ? "alt" : word === "and" ? "par" : "critical";
  if (!open || open.word !== expected) {
    report(r, s, `"${word}" outside ${expected} not carried over`);
    return true;
  }
  const guard = rest ? decodeText(rest) : undefined;
  const branch: Branch = { steps: [] };
  if (guard !== undefined) branch.guard = guard;
  if (word === "option") {
    const critical = open.fragment as Fragment;
    critical.options = [...(critical.options ?? []), branch];
    open.steps = branch.steps;
    return true;
  }
  (open.fragment as BranchedFragment).branches.push(branch);
  open.steps = branch.steps;
  return true;
}

function closeBlock(r: Reading, { s, word }: Line): boolean {
  if (word !== "end") return false;
  const open = r.stack.pop();
  if (!open) {
    report(r, s, `"end" without a block not carried over`);
    return true;
  }
  const outer = here(r);
  if (open.fragment) {
    if (open.fragment.kind === "alt" || open.fragment.kind === "par") {
      const kind = open.fragment.kind;
      const b = (open.fragment as BranchedFragment).branches;
      (open.fragment as BranchedFragment).branches = b.filter((x, i) => {
        if (x.steps.length > 0 || i === 0) return true;
        report(r, s, `empty ${kind} branch "${x.guard ?? ""}" not carried over`);
        return false;
      });
    }
    const options = (open.fragment as Fragment).options;
    if (options) {
      (open.fragment as Fragment).options = options.filter((x) => {
        if (x.steps.length > 0) return true;
        report(r, s, `empty critical option "${x.guard ?? ""}" not carried over`);
        return false;
      });
      if ((open.fragment as Fragment).options?.length === 0)
        delete (open.fragment as Fragment).options;
    }
    const kept = withoutEmptyStart(r, s, open.fragment);
    if (kept) outer.push(kept);
  } else if (open.word === "rect") outer.push(...open.steps);
  return true;
}

/**
 * A block with nothing before its first branch: Mermaid draws it, a description holds no empty
 * part. An empty block is dropped (there is nothing to lose); a critical whose steps all sit in
 * its options takes its first option's steps as its own, so every message stays.
 */
function withoutEmptyStart(
  r: Reading,
  s: Statement,
  fragment: Fragment | BranchedFragment,
): Fragment | BranchedFragment | undefined {
  const first = isBranched(fragment) ? fragment.branches[0] : fragment;
  if (!first || first.steps.length > 0) return fragment;
  const options = isBranched(fragment) ? fragment.branches.slice(1) : (fragment.options ?? []);
  if (options.length === 0) {
    report(r, s, `empty ${fragment.kind} block not carried over`);
    return undefined;
  }
  const [next, ...rest] = options as [Branch, ...Branch[]];
  if (isBranched(fragment)) {
    report(r, s, `empty ${fragment.kind} branch "${first.guard ?? ""}" not carried over`);
    fragment.branches = [next, ...rest];
    return fragment;
  }
  report(r, s, `critical has no steps before its first option; that one's are drawn as its own`);
  fragment.steps = next.steps;
  if (rest.length > 0) fragment.options = rest;
  else delete fragment.options;
  return fragment;
}

/** Mermaid statements a description has no place for. */
function readUnsupported(r: Reading, { s, text }: Line): boolean {
  if (!/^(acc(Title|Descr)|links?|properties|details)(?=[\s:{]|$)/i.test(text)) return false;
  report(r, s, `"${clip(text)}" not carried over`);
  return true;
}

function closeOpenBlocks(r: Reading): void {
  for (let open = r.stack.pop(); open; open = r.stack.pop()) {
    report(r, open.statement, `${open.word} never closed with "end"; its steps are kept`);
    here(r).push(...(open.fragment ? [open.fragment] : open.steps));
  }
}

function describe(r: Reading, fallbackTitle: string): SequenceDiagram {
  const diagram: SequenceDiagram = {
    schema_version: 2,
    diagram_type: "sequence",
    meta: { title: r.title || fallbackTitle },
    participants: r.participants,
    steps: r.top,
  };
  if (r.autonumber) diagram.autonumber = true;
  if (r.boxes.length > 0) diagram.boxes = r.boxes;
  return diagram;
}

/**
 * Mermaid draws any dotted arrow as a reply; a description's reply answers an open call unless
 * it is `standalone`. One that answers none (the sequence rules say which) is read as a
 * standalone reply. One at a time, in order, since each change may leave a call open.
 */
function repliesToNobody(d: SequenceDiagram, where: Map<Message, Statement>): void {
  for (let round = 0; round < where.size; round++) {
    const orphan = sequenceRuleProblems(d).find((p) => p.rule === "reply/no-open-call");
    if (!orphan) return;
    const step = stepAt(d, orphan.path);
    if (step?.kind !== "reply") return;
    step.standalone = true;
  }
}

/** The step a JSON Pointer such as /steps/3/branches/0/steps/1 names. */
function stepAt(d: SequenceDiagram, pointer: string): Message | undefined {
  let at: unknown = d;
  for (const key of pointer.split("/").slice(1)) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at as Message | undefined;
}

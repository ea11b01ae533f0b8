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
export const ARROWS: [string, MessageKind, string?][] = [
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

export function importSequence(
  scanned: Scanned,
  fallbackTitle: string,
): {
  diagram: SequenceDiagram;
  issues: ImportIssue[];
} {
  const issues = scanned.issues;
  const report = (s: Statement, message: string, col = s.col) =>
    issues.push({ line: s.line, col, message });
  const idOf = idReader(scanned.ids, issues);
  const participants: Participant[] = [];
  const boxes: ParticipantBox[] = [];
  const top: Step[] = [];
  const stack: Open[] = [];
  let title = scanned.title;
  let autonumber: boolean | undefined;
  let creating: string | undefined;
  let destroying: string | undefined;
  const where = new Map<Message, Statement>();

  const here = () => (stack.length > 0 ? (stack[stack.length - 1] as Open).steps : top);
  const participant = (name: string, s: Statement): string => {
    const id = idOf(name, s);
    if (!participants.some((p) => p.id === id)) {
      participants.push({ id, type: "service", label: decodeText(name) });
      const box = stack.findLast((o) => o.word === "box")?.box;
      box?.participants.push(id);
    }
    return id;
  };

  for (const s of scanned.statements) {
    const text = s.text;
    const word = (/^\S+/.exec(text)?.[0] ?? "").toLowerCase();
    const rest = text.slice(word.length).trim();

    const declared =
      /^(create\s+)?(participant|actor)\s+(\S+?)(?:@\{.*\})?(?:\s+as\s+(.+))?$/i.exec(text);
    if (declared) {
      const id = participant(declared[3] as string, s);
      const p = participants.find((x) => x.id === id) as Participant;
      if ((declared[2] as string).toLowerCase() === "actor") p.type = "user";
      if (declared[4] !== undefined) p.label = decodeText(declared[4].trim());
      if (/@\{/.test(text)) report(s, "participant @{…} metadata not carried over");
      if (declared[1]) creating = id;
      applyNote(p, s.note);
      continue;
    }
    if (word === "destroy") {
      destroying = participant(rest, s);
      continue;
    }
    const m = MESSAGE.exec(text);
    if (m) {
      const arrow = ARROWS.find(([a]) => a === m[2]) as [string, MessageKind, string?];
      const from = participant((m[1] as string).trim(), s);
      const to = participant((m[4] as string).trim(), s);
      let kind = arrow[1];
      const message: Message = { kind, from, to };
      if (creating === to) {
        kind = "create";
        creating = undefined;
      } else if (destroying === to || destroying === from) {
        kind = "destroy";
        destroying = undefined;
      } else if (arrow[2]) report(s, arrow[2], s.col + (m[1] as string).length);
      message.kind = kind;
      if (arrow[0].includes("x") && kind !== "destroy") message.role = "error";
      const label = (m[5] ?? "").trim();
      if (label) message.label = decodeText(label);
      if (m[3] === "+") message.activate = true;
      if (m[3] === "-") message.deactivate = true;
      here().push(applyNote(message, s.note));
      where.set(message, s);
      continue;
    }
    if (word === "activate" || word === "deactivate") {
      here().push(applyNote({ kind: word, participant: participant(rest, s) }, s.note));
      continue;
    }
    const note = /^note\s+(over|left\s+of|right\s+of)\s+([^:]+?)\s*:(.*)$/i.exec(text);
    if (note) {
      const where = (note[1] as string).toLowerCase().split(/\s+/)[0] as "over" | "left" | "right";
      const who = (note[2] as string).split(",").map((n) => participant(n.trim(), s));
      const step: Step = {
        kind: "note",
        participants: who,
        text: decodeText((note[3] as string).trim()),
      };
      if (where !== "over") step.position = where;
      here().push(applyNote(step, s.note));
      continue;
    }
    if (word === "autonumber") {
      autonumber = true;
      if (rest)
        report(s, `autonumber start and step "${rest}" not carried over (numbers start at 1)`);
      continue;
    }
    if (word === "title") {
      title = decodeText(rest.replace(/^:\s*/, ""));
      continue;
    }
    if ((BLOCKS as readonly string[]).includes(word)) {
      const open: Open = { word: word as BlockWord, statement: s, steps: [] };
      const guard = rest ? decodeText(rest) : undefined;
      if (word === "alt" || word === "par") {
        const first: Branch = { steps: open.steps };
        if (guard !== undefined) first.guard = guard;
        open.fragment = applyNote({ kind: word, branches: [first] } as BranchedFragment, s.note);
      } else if (word === "rect") {
        report(
          s,
          `rect ${clip(rest)} not carried over (its steps are kept, without the highlight)`,
        );
      } else if (word === "box") {
        const colour = COLOURS.exec(rest);
        if (colour) report(s, `box colour "${colour[0].trim()}" not carried over`);
        const label = decodeText(colour ? rest.slice(colour[0].length) : rest).trim();
        open.box = applyNote(
          {
            id: `box${boxes.length + 1}`,
            label: label || `Box ${boxes.length + 1}`,
            participants: [],
          },
          s.note,
        );
        boxes.push(open.box);
      } else {
        const fragment: Fragment = { kind: word as Fragment["kind"], steps: open.steps };
        if (guard !== undefined) fragment.guard = guard;
        open.fragment = applyNote(fragment, s.note);
      }
      stack.push(open);
      continue;
    }
    if (word === "else" || word === "and" || word === "option") {
      const open = stack[stack.length - 1];
      const expected = word === "else" ? "alt" : word === "and" ? "par" : "critical";
      if (!open || open.word !== expected) {
        report(s, `"${word}" outside ${expected} not carried over`);
        continue;
      }
      const guard = rest ? decodeText(rest) : undefined;
      if (word === "option") {
        // No option branches on critical yet: kept as a divider and the steps that follow.
        report(
          s,
          `critical option "${clip(rest)}" kept as a divider inside critical (no option branches in sequence descriptions)`,
        );
        open.steps.push({ kind: "divider", label: guard ?? "option" });
        continue;
      }
      const branch: Branch = { steps: [] };
      if (guard !== undefined) branch.guard = guard;
      (open.fragment as BranchedFragment).branches.push(branch);
      open.steps = branch.steps;
      continue;
    }
    if (word === "end") {
      const open = stack.pop();
      if (!open) {
        report(s, `"end" without a block not carried over`);
        continue;
      }
      const outer = here();
      if (open.fragment) {
        if (open.fragment.kind === "alt" || open.fragment.kind === "par") {
          const kind = open.fragment.kind;
          const b = (open.fragment as BranchedFragment).branches;
          (open.fragment as BranchedFragment).branches = b.filter((x, i) => {
            if (x.steps.length > 0 || i === 0) return true;
            report(s, `empty ${kind} branch "${x.guard ?? ""}" not carried over`);
            return false;
          });
        }
        outer.push(open.fragment);
      } else if (open.word === "rect") outer.push(...open.steps);
      continue;
    }
    if (/^(acc(Title|Descr)|links?|properties|details)\b/i.test(text)) {
      report(s, `"${clip(text)}" not carried over`);
      continue;
    }
    report(s, `cannot read "${clip(text)}"; not carried over`);
  }
  for (let open = stack.pop(); open; open = stack.pop()) {
    report(open.statement, `${open.word} never closed with "end"; its steps are kept`);
    here().push(...(open.fragment ? [open.fragment] : open.steps));
  }

  const diagram: SequenceDiagram = {
    schema_version: 2,
    diagram_type: "sequence",
    meta: { title: title || fallbackTitle },
    participants,
    steps: top,
  };
  if (autonumber) diagram.autonumber = true;
  if (boxes.length > 0) diagram.boxes = boxes;
  applyDiagramNote(diagram, scanned);
  repliesToNobody(diagram, where, issues);
  return { diagram, issues };
}

/**
 * Mermaid draws any dotted arrow as a reply; a description's reply answers an open call. One
 * that answers none (the sequence rules say which) is a message nobody waits for: read as
 * async, and reported. One at a time, in order, since each change may leave a call open.
 */
function repliesToNobody(
  d: SequenceDiagram,
  where: Map<Message, Statement>,
  issues: ImportIssue[],
): void {
  for (let round = 0; round < where.size; round++) {
    const orphan = sequenceRuleProblems(d).find((p) => p.rule === "reply/no-open-call");
    if (!orphan) return;
    const step = stepAt(d, orphan.path);
    if (step?.kind !== "reply") return;
    step.kind = "async";
    const s = where.get(step);
    if (s)
      issues.push({
        line: s.line,
        col: s.col,
        message: "a dotted arrow answering no open call is read as an async message",
      });
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

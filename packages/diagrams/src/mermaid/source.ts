/**
 * What every Mermaid kind shares when read: the front matter, statements with their line and
 * column, comments and directives (each reported, never dropped silently), Mermaid's entity
 * codes, and the `%% @orderline` annotations an export writes for what Mermaid cannot say.
 */

/** Something in the Mermaid source that did not carry over whole; positions are 1-based. */
export interface ImportIssue {
  line: number;
  col: number;
  message: string;
  /**
   * Set when the statement was carried over as written and the description's own warning
   * rule (e.g. transition/ambiguous) applies to it: told, not lost, so it comes back on every
   * round trip.
   */
  rule?: string;
}

/**
 * One statement: a line (or a `;`-separated part of one) without its comment, trimmed.
 * `note` holds the fields of the `%% @orderline {…}` line just above it.
 */
export interface Statement {
  text: string;
  line: number;
  col: number;
  note?: Record<string, unknown>;
}

export interface Scanned {
  /** The statements after the header line (`sequenceDiagram`, `flowchart LR`, …). */
  statements: Statement[];
  header: Statement | undefined;
  title?: string;
  /** `%% @orderline diagram {…}`: top-level fields of the description. */
  diagram: Record<string, unknown>;
  /** `%% @orderline ids {…}`: Mermaid id → description id. */
  ids: Record<string, string>;
  issues: ImportIssue[];
}

const FLOWCHART = /^(flowchart|graph)\b/;
const ACC_BLOCK = /^accDescr\s*\{/i;

/** Whether `text` leaves a `"` open (an odd number of them). */
const quoteOpen = (text: string) => (text.match(/"/g)?.length ?? 0) % 2 === 1;

const ANNOTATION = /^%%\s*@orderline(?:\s+(diagram|ids))?\s+(\{.*\})\s*$/;

/** Splits a line at `;` outside quotes, keeping entity codes such as `#59;` whole. */
function splitStatements(text: string): { text: string; offset: number }[] {
  const parts: { text: string; offset: number }[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    if (c !== ";" || quoted) continue;
    if (/#\w+$/.test(text.slice(start, i))) continue;
    parts.push({ text: text.slice(start, i), offset: start });
    start = i + 1;
  }
  parts.push({ text: text.slice(start), offset: start });
  return parts;
}

/** Reads the front matter's title; other keys are reported. Returns the lines after it. */
function frontMatter(lines: string[], scanned: Scanned): number {
  if (lines[0]?.trim() !== "---") return 0;
  const close = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (close < 0) {
    scanned.issues.push({ line: 1, col: 1, message: "front matter never closed with ---" });
    return 0;
  }
  for (let i = 1; i < close; i++) {
    const raw = lines[i] as string;
    if (raw.trim() === "") continue;
    const title = /^title:\s*(.*)$/.exec(raw);
    if (title) {
      const value = (title[1] as string).trim();
      scanned.title = value.startsWith('"') ? safeJson(value, value) : value.replace(/^'|'$/g, "");
      continue;
    }
    if (/^\s/.test(raw)) continue; // a nested key, reported with its parent
    scanned.issues.push({
      line: i + 1,
      col: 1,
      message: `front matter "${raw.trim()}" not carried over (only title is)`,
    });
  }
  return close + 1;
}

function safeJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** Splits Mermaid text into statements with positions; comments are reported unless they are annotations. */
export function scan(source: string): Scanned {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const scanned: Scanned = {
    statements: [],
    header: undefined,
    diagram: {},
    ids: {},
    issues: [],
  };
  let pending: Record<string, unknown> | undefined;
  for (let i = frontMatter(lines, scanned); i < lines.length; i++) {
    let raw = lines[i] as string;
    const line = i + 1;
    // A flowchart's quoted label may run over several lines: one statement, line breaks kept.
    if (scanned.header && FLOWCHART.test(scanned.header.text)) {
      while (quoteOpen(raw) && i + 1 < lines.length) raw += `\n${(lines[++i] as string).trim()}`;
    }
    // `accDescr {` … `}`: one statement however many lines it takes, reported as one.
    if (ACC_BLOCK.test(raw.trim())) {
      while (!raw.includes("}") && i + 1 < lines.length) raw += ` ${(lines[++i] as string).trim()}`;
    }
    const indent = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed === "") continue;
    if (trimmed.startsWith("%%")) {
      const note = ANNOTATION.exec(trimmed);
      const value = note
        ? safeJson<Record<string, unknown> | undefined>(note[2] as string, undefined)
        : undefined;
      if (note && value) {
        if (note[1] === "diagram") Object.assign(scanned.diagram, value);
        else if (note[1] === "ids") Object.assign(scanned.ids, value);
        else pending = value;
        continue;
      }
      const what = trimmed.startsWith("%%{") ? "directive" : "comment";
      scanned.issues.push({
        line,
        col: indent + 1,
        message: `${what} "${clip(trimmed)}" not carried over`,
      });
      continue;
    }
    for (const part of splitStatements(raw.slice(indent))) {
      const text = part.text.trim();
      if (text === "") continue;
      const col = indent + part.offset + (part.text.length - part.text.trimStart().length) + 1;
      const statement: Statement = { text, line, col };
      if (pending) {
        statement.note = pending;
        pending = undefined;
      }
      if (!scanned.header) scanned.header = statement;
      else scanned.statements.push(statement);
    }
  }
  return scanned;
}

export const clip = (text: string, max = 40) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

const NAMED: Record<string, string> = {
  quot: '"',
  amp: "&",
  lt: "<",
  gt: ">",
  nbsp: "\u00a0",
  apos: "'",
};

/** Mermaid text as plain text: entity codes (`#35;`, `#quot;`) decoded and `<br>` as a line break. */
export function decodeText(text: string): string {
  return text
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/#([a-z]+);/gi, (whole, name: string) => NAMED[name.toLowerCase()] ?? whole);
}

/** What `encodeText` writes for each character Mermaid would read as syntax. */
const ENTITY: Record<string, string> = {
  "#": "#35;",
  ";": "#59;",
  '"': "#quot;",
  "%": "#37;",
  "<": "#lt;",
  ">": "#gt;",
  "\n": "<br>",
};

/**
 * Plain text as Mermaid text that ends neither early nor in a comment: `#`, `;`, `"`, `%`, `<`,
 * `>` and line breaks encoded, in one pass, so no entity's own `#` or `;` is encoded again.
 */
export function encodeText(text: string): string {
  return text.replace(/[#;"%<>\n]/g, (c) => ENTITY[c] as string);
}

/**
 * The annotation that turns what the importer makes of a statement (`read`) back into the
 * description's object (`original`): the fields that differ, and null for those to remove.
 */
export function annotationFor(original: object, read: object): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const a = original as Record<string, unknown>;
  const b = read as Record<string, unknown>;
  for (const key of Object.keys(a)) {
    if (a[key] !== undefined && JSON.stringify(a[key]) !== JSON.stringify(b[key]))
      out[key] = a[key];
  }
  for (const key of Object.keys(b)) {
    if (b[key] !== undefined && a[key] === undefined) out[key] = null;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The annotation line for `annotationFor`'s result, or nothing. */
export function annotationLine(
  indent: string,
  fields: Record<string, unknown> | undefined,
): string[] {
  return fields ? [`${indent}%% @orderline ${JSON.stringify(fields)}`] : [];
}

/** Applies a statement's annotation to the object read from it (null removes a field). */
export function applyNote<T extends object>(
  target: T,
  note: Record<string, unknown> | undefined,
): T {
  if (!note) return target;
  const t = target as Record<string, unknown>;
  for (const [key, value] of Object.entries(note)) {
    if (value === null) delete t[key];
    else t[key] = value;
  }
  return target;
}

/** The front matter carrying the title, as every export starts. */
export const titleFrontMatter = (title: string): string[] => [
  "---",
  `title: ${JSON.stringify(title)}`,
  "---",
];

/**
 * Description ids as Mermaid ids: letters, digits and `_` only. `back` maps each changed one
 * (and any name the importer makes up, added by the caller) back; `idsLine` writes it.
 */
export function mermaidIds(ids: Iterable<string>): {
  of: (id: string) => string;
  back: Record<string, string>;
} {
  const map = new Map<string, string>();
  const taken = new Set<string>();
  const back: Record<string, string> = {};
  const all = [...ids];
  const plain = (id: string) =>
    /^[A-Za-z][A-Za-z0-9_]*$/.test(id) && !RESERVED.has(id.toLowerCase());
  for (const id of all) if (plain(id)) taken.add(id);
  for (const id of all) {
    if (map.has(id)) continue;
    if (plain(id)) {
      map.set(id, id);
      continue;
    }
    let base = id.replace(/[^A-Za-z0-9_]/g, "_");
    if (!/^[A-Za-z]/.test(base) || RESERVED.has(base.toLowerCase())) base = `n_${base}`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    map.set(id, name);
    back[name] = id;
  }
  return { of: (id) => map.get(id) ?? id, back };
}

/** The `%% @orderline ids {…}` line, when some id changed. */
export const idsLine = (back: Record<string, string>): string[] =>
  Object.keys(back).length > 0 ? [`%% @orderline ids ${JSON.stringify(back)}`] : [];

/** Words Mermaid reads as keywords where an id stands. */
const RESERVED = new Set([
  "end",
  "graph",
  "subgraph",
  "style",
  "class",
  "classdef",
  "click",
  "state",
  "note",
  "as",
  "default",
  "direction",
]);

/**
 * A Mermaid id as a description id (letters, digits, `_`, `-`, starting with a letter), through
 * the ids annotation when there is one; a change is reported once per id.
 */
export function idReader(
  ids: Record<string, string>,
  issues: ImportIssue[],
): (name: string, at: { line: number; col: number }) => string {
  const seen = new Map<string, string>();
  const used = new Set<string>(Object.values(ids));
  return (name, at) => {
    const known = seen.get(name);
    if (known) return known;
    let id = ids[name];
    if (id === undefined) {
      id = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
      if (!/^[A-Za-z]/.test(id)) id = `n${id}`.slice(0, 64);
      if (id !== name) {
        const base = id;
        for (let n = 2; used.has(id); n++) id = `${base}_${n}`;
        issues.push({ line: at.line, col: at.col, message: `id "${name}" read as "${id}"` });
      }
    }
    seen.set(name, id);
    used.add(id);
    return id;
  };
}

/** The `%% @orderline diagram {…}` fields: meta merged into meta, the rest set at the top. */
export function applyDiagramNote<D extends { meta: object }>(diagram: D, scanned: Scanned): D {
  const { meta, ...rest } = scanned.diagram as { meta?: Record<string, unknown> };
  if (meta) applyNote(diagram.meta, meta);
  return applyNote(diagram, rest);
}

/**
 * The top level as the importer makes it: schema_version 2, the type, and the fields the
 * Mermaid carries (taken from `d` as they are, so they never differ).
 */
export function carried<D extends { diagram_type: string }>(d: D, keys: (keyof D & string)[]) {
  const out: Record<string, unknown> = { schema_version: 2, diagram_type: d.diagram_type };
  for (const k of keys) if (d[k] !== undefined) out[k] = d[k];
  return out;
}

/**
 * The `%% @orderline diagram {…}` line for what the description holds beyond what the Mermaid
 * carries (`read`: the top level as the importer makes it, meta with the title only).
 */
export function diagramNoteLine(
  original: { meta: object },
  read: Record<string, unknown>,
): string[] {
  const meta = annotationFor(original.meta, read.meta as object);
  const { meta: _a, ...restOriginal } = original as Record<string, unknown>;
  const { meta: _b, ...restRead } = read as Record<string, unknown>;
  const rest = annotationFor(restOriginal, restRead) ?? {};
  const fields = meta ? { meta, ...rest } : rest;
  return Object.keys(fields).length > 0 ? [`%% @orderline diagram ${JSON.stringify(fields)}`] : [];
}

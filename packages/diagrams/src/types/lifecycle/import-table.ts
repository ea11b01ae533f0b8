import type { LifecycleDiagram, State, Transition } from "./model.js";

/**
 * Markdown state tables (`State | Moved by | Condition | Next state | Also happens`, the form
 * the specifications use) turned into lifecycle descriptions: one state per distinct state
 * name, one transition per row. Pure: text in, descriptions or located errors out.
 */

const TABLE_COLUMNS = ["State", "Moved by", "Condition", "Next state", "Also happens"] as const;

/** A malformed table, located by its 1-based line in the Markdown file. */
interface TableError {
  line: number;
  message: string;
}

export interface ImportedTable {
  /** The line of the table's header row. */
  line: number;
  /** The caption the table was given (the text just above it), if any. */
  caption: string | undefined;
  diagram: LifecycleDiagram;
}

export type ImportResult =
  | { ok: true; tables: ImportedTable[] }
  | { ok: false; errors: TableError[]; tables: ImportedTable[] };

const normalize = (cell: string) => cell.trim().toLowerCase().replaceAll(/\s+/g, " ");
const isRow = (line: string) => line.trimStart().startsWith("|");

/** The cells of a Markdown table row: outer pipes dropped, `\|` kept as a literal pipe. */
function splitRow(line: string): string[] {
  let body = line.trim();
  if (body.startsWith("|")) body = body.slice(1);
  if (body.endsWith("|") && !body.endsWith("\\|")) body = body.slice(0, -1);
  const cells: string[] = [];
  let cell = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch === "\\" && body[i + 1] === "|") {
      cell += "|";
      i++;
    } else if (ch === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}

const DELIMITER = /^:?-+:?$/;
// Cells that say "nothing here"; in the Condition column "any" says "whatever holds".
const NONE = new Set(["", "-", "–", "—", "none", "n/a"]);
const ALWAYS = new Set(["any", "always"]);

function value(cell: string, column: "event" | "guard" | "action"): string | undefined {
  const n = normalize(cell);
  if (NONE.has(n)) return undefined;
  if (column === "guard" && ALWAYS.has(n)) return undefined;
  return cell.trim();
}

/**
 * A state cell's name and detail: "pending sync (new language shown and stored)" names the
 * state "pending sync" and says something about it, so it is the same state as a row's plain
 * "pending sync".
 */
function stateName(cell: string): { name: string; detail: string | undefined } {
  const m = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(cell.trim());
  if (m && (m[1] as string) !== "") return { name: m[1] as string, detail: m[2] as string };
  return { name: cell.trim(), detail: undefined };
}

/** A state id from its name: lowercase words joined by "-", unique in `taken`. */
function slug(name: string, taken: Set<string>): string {
  let base = name
    .normalize("NFKD")
    .replaceAll(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, "-")
    .replaceAll(/^-+|-+$/g, "")
    .slice(0, 56);
  if (!/^[a-z]/.test(base)) base = `state-${base}`.replace(/-$/, "");
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** The text just above the table, unless it is itself a table row: "Access token lifecycle:". */
function captionAbove(lines: string[], header: number): string | undefined {
  for (let i = header - 1; i >= 0 && i >= header - 3; i--) {
    const text = (lines[i] as string).trim();
    if (text === "") continue;
    if (isRow(text)) return undefined;
    const caption = text
      .replace(/^#+\s*/, "")
      .replace(/:$/, "")
      .trim();
    return caption === "" ? undefined : caption;
  }
  return undefined;
}

interface Row {
  line: number;
  cells: Record<(typeof TABLE_COLUMNS)[number], string>;
}

function toDiagram(rows: Row[], title: string): LifecycleDiagram {
  const taken = new Set<string>(["initial"]);
  const ids = new Map<string, string>();
  const states: State[] = [{ id: "initial", kind: "initial" }];
  const stateFor = (cell: string): string => {
    const { name, detail } = stateName(cell);
    const key = normalize(name);
    let id = ids.get(key);
    if (id === undefined) {
      id = slug(name, taken);
      ids.set(key, id);
      states.push({ id, label: name });
    }
    const state = states.find((s) => s.id === id) as State;
    if (detail !== undefined && state.sublabel === undefined) state.sublabel = detail;
    return id;
  };
  const transitions: Transition[] = [];
  for (const row of rows) {
    const from = stateFor(row.cells.State);
    const to = stateFor(row.cells["Next state"]);
    const t: Transition = { from, to };
    const event = value(row.cells["Moved by"], "event");
    const guard = value(row.cells.Condition, "guard");
    const action = value(row.cells["Also happens"], "action");
    if (event !== undefined) t.event = event;
    if (guard !== undefined) t.guard = guard;
    if (action !== undefined) t.action = action;
    transitions.push(t);
  }
  // The first row's state is where the table starts: the initial state leads there.
  const first = ids.get(normalize(stateName(rows[0]?.cells.State ?? "").name)) as string;
  transitions.unshift({ from: "initial", to: first });
  return {
    schema_version: 2,
    diagram_type: "lifecycle",
    meta: { title },
    states,
    transitions,
  };
}

/**
 * Every state table in a Markdown text, in order, each as a lifecycle description. A table is a
 * state table when its header row names the five columns (any order, any case); a header that
 * names "Moved by" and "Next state" but not all five is reported as malformed. Errors name the
 * line; the tables that are well formed are returned beside them.
 */
export function importTables(markdown: string, fallbackTitle = "Lifecycle"): ImportResult {
  const lines = markdown.split(/\r?\n/);
  const errors: TableError[] = [];
  const tables: ImportedTable[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as string;
    if (!isRow(line)) {
      i++;
      continue;
    }
    const headerLine = i + 1;
    const header = splitRow(line).map(normalize);
    // Skip to the end of this table whatever it is.
    let end = i + 1;
    while (end < lines.length && isRow(lines[end] as string)) end++;
    const wanted = TABLE_COLUMNS.map(normalize);
    const looksLikeState = header.includes("moved by") && header.includes("next state");
    if (!looksLikeState) {
      i = end;
      continue;
    }
    const missing = TABLE_COLUMNS.filter((c) => !header.includes(normalize(c)));
    const extra = header.filter((h) => !wanted.includes(h));
    if (missing.length > 0 || extra.length > 0) {
      const parts = [
        missing.length > 0 ? `missing ${missing.map((c) => `"${c}"`).join(", ")}` : undefined,
        extra.length > 0 ? `unknown ${extra.map((c) => `"${c}"`).join(", ")}` : undefined,
      ].filter(Boolean);
      errors.push({
        line: headerLine,
        message: `a state table needs exactly the columns ${TABLE_COLUMNS.join(" | ")}; this one has ${parts.join(" and ")}`,
      });
      i = end;
      continue;
    }
    const delimiter = lines[i + 1];
    const delimiterCells = delimiter === undefined ? [] : splitRow(delimiter);
    if (
      delimiter === undefined ||
      !isRow(delimiter) ||
      delimiterCells.length !== header.length ||
      !delimiterCells.every((c) => DELIMITER.test(c.replaceAll(" ", "")))
    ) {
      errors.push({
        line: headerLine + 1,
        message: `the header row (line ${headerLine}) must be followed by a delimiter row of ${header.length} cells, like |---|---|---|---|---|`,
      });
      i = end;
      continue;
    }
    const column = (name: string) => header.indexOf(normalize(name));
    const rows: Row[] = [];
    let bad = false;
    for (let r = i + 2; r < end; r++) {
      const cells = splitRow(lines[r] as string);
      const lineNo = r + 1;
      if (cells.length !== header.length) {
        errors.push({
          line: lineNo,
          message: `row has ${cells.length} cells; the table's header (line ${headerLine}) has ${header.length}`,
        });
        bad = true;
        continue;
      }
      const picked = Object.fromEntries(
        TABLE_COLUMNS.map((c) => [c, cells[column(c)] as string]),
      ) as Row["cells"];
      for (const c of ["State", "Next state"] as const) {
        if (NONE.has(normalize(picked[c]))) {
          errors.push({
            line: lineNo,
            message: `the "${c}" cell is empty; every row moves from a state to a state`,
          });
          bad = true;
        }
      }
      rows.push({ line: lineNo, cells: picked });
    }
    if (rows.length === 0 && !bad) {
      errors.push({ line: headerLine, message: "the state table has no rows" });
      bad = true;
    }
    if (!bad) {
      const caption = captionAbove(lines, i);
      tables.push({
        line: headerLine,
        caption,
        diagram: toDiagram(rows, caption ?? fallbackTitle),
      });
    }
    i = end;
  }
  return errors.length > 0 ? { ok: false, errors, tables } : { ok: true, tables };
}

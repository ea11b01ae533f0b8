import { writeFileSync } from "node:fs";
import { basename, extname, resolve } from "node:path";
import type { ImportedTable } from "../../types/lifecycle/import-table.js";
import { parseArgsOrReport, usageError } from "../args.js";
import { type Command, EXIT } from "../command.js";
import { readDescription } from "../input.js";

const HELP = `Usage: orderline-diagrams import-table FILE [-o OUT.json] [--table N]

Turns every Markdown state table in FILE (columns State | Moved by | Condition |
Next state | Also happens) into a lifecycle description: one state per distinct state,
one transition per row (event from "Moved by", guard from "Condition", action from
"Also happens"; empty, "-", "—" or "none" cells mean none), and an initial state
leading to the first row's state.

Arguments:
  FILE               a Markdown file; "-" reads standard input

Options:
  -o, --out OUT.json write the description there instead of standard output; with
                     several tables and no --table, one file per table:
                     OUT-1.json, OUT-2.json, ...
  --table N          only the N-th state table of FILE (counting from 1)
  -h, --help         show this help

Exit status:
  0  written
  1  a malformed table (each problem printed as FILE:LINE: message), or no state table
  2  usage error: unknown option, no FILE, a file that cannot be read or written,
     several tables with neither -o nor --table, --table out of range

Examples:
  orderline-diagrams import-table spec.md -o docs/diagrams/token-lifecycle.json
  orderline-diagrams import-table spec.md --table 2 > second.json
`;

const OPTIONS = {
  out: { type: "string", short: "o" },
  table: { type: "string" },
} as const;

const text = (table: ImportedTable) => `${JSON.stringify(table.diagram, null, 2)}\n`;

export const command: Command = {
  name: "import-table",
  summary: "turn a Markdown state table into a lifecycle description",
  help: HELP,
  async run(args, io) {
    const parsed = parseArgsOrReport(command, args, OPTIONS, io);
    if (!parsed) return EXIT.usage;
    const { values, positionals } = parsed;
    if (positionals.length !== 1) return usageError(command, io, "name exactly one FILE");
    const file = positionals[0] as string;
    let pick: number | undefined;
    if (values.table !== undefined) {
      pick = Number(values.table);
      if (!Number.isInteger(pick) || pick < 1) {
        return usageError(
          command,
          io,
          `--table must be a whole number from 1, not "${values.table}"`,
        );
      }
    }
    const source = readDescription(file, io.cwd);
    if (typeof source !== "string") {
      io.stderr(`orderline-diagrams import-table: ${source.error}\n`);
      return EXIT.usage;
    }
    const name = file === "-" ? "<stdin>" : file;
    const fallback = file === "-" ? "Lifecycle" : basename(file, extname(file));
    // Loaded here, so other commands never load a type folder they do not use.
    const { importTables } = await import("../../types/lifecycle/import-table.js");
    const result = importTables(source, fallback);
    if (!result.ok) {
      for (const e of result.errors) io.stderr(`${name}:${e.line}: ${e.message}\n`);
      return EXIT.invalid;
    }
    const { tables } = result;
    if (tables.length === 0) {
      io.stderr(
        `${name}: no state table found (a Markdown table with the columns State | Moved by | Condition | Next state | Also happens)\n`,
      );
      return EXIT.invalid;
    }
    let chosen = tables;
    if (pick !== undefined) {
      const table = tables[pick - 1];
      if (!table) {
        return usageError(
          command,
          io,
          `--table ${pick}: ${name} has ${tables.length} state table${tables.length === 1 ? "" : "s"}`,
        );
      }
      chosen = [table];
    }
    const out = values.out;
    if (chosen.length > 1 && out === undefined) {
      const list = tables.map((t, i) => `  ${i + 1}: line ${t.line}, "${t.diagram.meta.title}"`);
      return usageError(
        command,
        io,
        `${name} has ${tables.length} state tables; pick one with --table N or give -o OUT.json for one file each:\n${list.join("\n")}`,
      );
    }
    if (out === undefined) {
      io.stdout(text(chosen[0] as ImportedTable));
      return EXIT.ok;
    }
    const ext = extname(out) || ".json";
    const stem = out.slice(0, out.length - extname(out).length);
    const targets = chosen.map((t, i) => ({
      table: t,
      path: chosen.length === 1 ? out : `${stem}-${i + 1}${ext}`,
    }));
    for (const { table, path } of targets) {
      try {
        writeFileSync(resolve(io.cwd, path), text(table));
      } catch (error) {
        io.stderr(
          `orderline-diagrams import-table: cannot write ${path}: ${(error as Error).message}\n`,
        );
        return EXIT.usage;
      }
      io.stdout(
        `wrote ${path} (table at line ${table.line}: ${table.diagram.states.length} states, ${table.diagram.transitions.length} transitions)\n`,
      );
    }
    return EXIT.ok;
  },
};

import { writeFileSync } from "node:fs";
import { basename, extname, resolve } from "node:path";
import type { TypeName } from "../../types/index.js";
import { parseArgsOrReport, usageError } from "../args.js";
import { type Command, EXIT } from "../command.js";
import { readDescription } from "../input.js";
import { parseType } from "../type-option.js";

const HELP = `Usage: orderline-diagrams import FILE.mmd [-o OUT.json] [--type T] [--strict]

Reads a Mermaid diagram and writes the description of the matching type:
  sequenceDiagram               → sequence
  stateDiagram, stateDiagram-v2 → lifecycle
  flowchart, graph              → architecture (default), or workflow / data-flow with --type
The result is validated like any description. Everything the description cannot hold
(a colour, a style, an arrow end, a comment) is reported as FILE:LINE:COL: message, with
Mermaid's line and column; nothing is dropped without a line saying so.
docs/diagrams/mermaid.md lists what maps and what is reported, construct by construct.

Arguments:
  FILE.mmd          a Mermaid file; "-" reads standard input

Options:
  -o, --out OUT.json  write the description there instead of standard output
  --type T          for a flowchart: architecture, workflow or data-flow
  --strict          anything not carried over is an error: exit 1, nothing written
  -h, --help        show this help

Exit status:
  0  written (what was not carried over, if anything, printed as warnings)
  1  not a Mermaid kind that is read, the result does not validate, or --strict
     and something was not carried over
  2  usage error: unknown option, no FILE, a file that cannot be read or written,
     a --type the diagram cannot become

Examples:
  orderline-diagrams import docs/login.mmd -o docs/diagrams/login.json
  orderline-diagrams import --type data-flow dfd.mmd > dfd.json
`;

const OPTIONS = {
  out: { type: "string", short: "o" },
  type: { type: "string" },
  strict: { type: "boolean" },
} as const;

export const command: Command = {
  name: "import",
  summary: "turn a Mermaid diagram into a description (sequence, lifecycle, architecture, …)",
  help: HELP,
  async run(args, io) {
    const parsed = parseArgsOrReport(command, args, OPTIONS, io);
    if (!parsed) return EXIT.usage;
    const { values, positionals } = parsed;
    if (positionals.length !== 1) return usageError(command, io, "name exactly one FILE");
    const file = positionals[0] as string;
    let type: TypeName | undefined;
    if (values.type !== undefined) {
      const checked = parseType(values.type);
      if (typeof checked !== "string") return usageError(command, io, checked.error);
      type = checked;
    }
    const source = readDescription(file, io.cwd);
    if (typeof source !== "string") {
      io.stderr(`orderline-diagrams import: ${source.error}\n`);
      return EXIT.usage;
    }
    const name = file === "-" ? "<stdin>" : file;
    const { detectKind, importToJson, targetType } = await import("../../mermaid/index.js");
    const { scan } = await import("../../mermaid/source.js");
    const header = scan(source).header;
    const kind = header ? detectKind(header.text) : undefined;
    if (kind && type) {
      const target = targetType(kind, type);
      if (typeof target !== "string") return usageError(command, io, target.error);
    }
    const fallbackTitle = file === "-" ? "Imported diagram" : basename(file, extname(file));
    const result = await importToJson(source, {
      file: name,
      ...(type ? { type } : {}),
      fallbackTitle,
    });
    const level = values.strict ? "error" : "warning";
    for (const i of result.issues)
      io.stderr(`${name}:${i.line}:${i.col}: ${result.ok ? level : "error"}: ${i.message}\n`);
    if (!result.ok) {
      if (result.problems)
        io.stderr(`the imported description does not validate:\n${result.problems}`);
      return EXIT.invalid;
    }
    // Issues with a rule were carried over as written; the description's own warning says why.
    const lost = result.issues.filter((i) => i.rule === undefined).length;
    const warned = result.issues.length - lost;
    const told = [
      ...(lost > 0 ? [`${count(lost)} not carried over`] : []),
      ...(warned > 0 ? [`${warned} warning${warned === 1 ? "" : "s"}`] : []),
    ].join(", ");
    if (values.strict && result.issues.length > 0) {
      io.stderr(`${name}: ${told}; nothing written (--strict)\n`);
      return EXIT.invalid;
    }
    const d = result.diagram;
    if (values.out === undefined) {
      io.stdout(result.json);
    } else {
      try {
        writeFileSync(resolve(io.cwd, values.out), result.json);
      } catch (error) {
        io.stderr(
          `orderline-diagrams import: cannot write ${values.out}: ${(error as Error).message}\n`,
        );
        return EXIT.usage;
      }
      io.stdout(
        `wrote ${values.out} (${d.diagram_type}${told ? `; ${told}, listed above` : ""})\n`,
      );
    }
    return EXIT.ok;
  },
};

const count = (n: number) => `${n} thing${n === 1 ? "" : "s"}`;

import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { formatProblems, validateSource } from "../../validate/index.js";
import { parseArgsOrReport, usageError } from "../args.js";
import { type Command, EXIT } from "../command.js";
import { readDescription } from "../input.js";

const FORMATS = ["mermaid"] as const;

const HELP = `Usage: orderline-diagrams export FILE.json --to mermaid [-o OUT.mmd]

Writes the closest Mermaid for a description of any type:
  sequence      → sequenceDiagram
  lifecycle     → stateDiagram-v2
  architecture, workflow, data-flow → flowchart (boundaries and lanes as subgraphs)
What Mermaid cannot say (component types, sublabels, roles, views, routes, …) is kept in
"%% @orderline {…}" comment lines, which Mermaid ignores and "orderline-diagrams import"
reads back: export then import gives the same description.

Options:
  --to FORMAT       mermaid (the only one for now)
  -o, --out OUT.mmd write there instead of standard output
  -h, --help        show this help

Exit status:
  0  written
  1  the description has problems (printed as by validate)
  2  usage error: unknown option, no FILE or --to, a file that cannot be read or written

Example:
  orderline-diagrams export examples/diagrams/token-refresh-sequence.json --to mermaid -o token.mmd
`;

const OPTIONS = {
  to: { type: "string" },
  out: { type: "string", short: "o" },
} as const;

export const command: Command = {
  name: "export",
  summary: "write a description as Mermaid (any type)",
  help: HELP,
  async run(args, io) {
    const parsed = parseArgsOrReport(command, args, OPTIONS, io);
    if (!parsed) return EXIT.usage;
    const { values, positionals } = parsed;
    if (positionals.length !== 1) return usageError(command, io, "name exactly one FILE");
    if (values.to === undefined)
      return usageError(command, io, "say which format with --to mermaid");
    if (!(FORMATS as readonly string[]).includes(values.to)) {
      return usageError(command, io, `--to ${values.to}: formats are ${FORMATS.join(", ")}`);
    }
    const file = positionals[0] as string;
    const source = readDescription(file, io.cwd);
    if (typeof source !== "string") {
      io.stderr(`orderline-diagrams export: ${source.error}\n`);
      return EXIT.usage;
    }
    const name = file === "-" ? "<stdin>" : file;
    const result = await validateSource(source, { file: name });
    if (!result.ok) {
      io.stderr(formatProblems(result.problems, "text"));
      return EXIT.invalid;
    }
    const { exportMermaid } = await import("../../mermaid/index.js");
    const text = await exportMermaid(result.diagram);
    if (values.out === undefined) {
      io.stdout(text);
      return EXIT.ok;
    }
    try {
      writeFileSync(resolve(io.cwd, values.out), text);
    } catch (error) {
      io.stderr(
        `orderline-diagrams export: cannot write ${values.out}: ${(error as Error).message}\n`,
      );
      return EXIT.usage;
    }
    io.stdout(`wrote ${values.out}\n`);
    return EXIT.ok;
  },
};

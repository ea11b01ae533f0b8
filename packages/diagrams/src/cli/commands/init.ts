import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { STARTER } from "../../types/workflow/starter.js";
import { parseArgsOrReport, usageError } from "../args.js";
import { type Command, EXIT } from "../command.js";

const DEFAULT_FILE = "workflow.json";

const HELP = `Usage: orderline-diagrams init [FILE] [--force]

Writes a small starter workflow description that validates, to edit into your own:
three lanes, two phases, four nodes, a mainPath and semanticChecks.

Arguments:
  FILE          where to write it (default: ${DEFAULT_FILE}); "-" prints it instead

Options:
  -f, --force   overwrite FILE if it exists (without it, an existing file is left alone)
  -h, --help    show this help

Exit status: 0 written, 1 FILE exists (nothing written), 2 usage error or cannot write.

Next: orderline-diagrams validate ${DEFAULT_FILE}
`;

export function starterText(): string {
  return `${JSON.stringify(STARTER, null, 2)}\n`;
}

export { STARTER };

const OPTIONS = { force: { type: "boolean", short: "f" } } as const;

export const command: Command = {
  name: "init",
  summary: "write a starter description that validates",
  help: HELP,
  async run(args, io) {
    const parsed = parseArgsOrReport(command, args, OPTIONS, io);
    if (!parsed) return EXIT.usage;
    const { values, positionals } = parsed;
    if (positionals.length > 1) return usageError(command, io, "name at most one FILE");
    const file = positionals[0] ?? DEFAULT_FILE;
    if (file === "-") {
      io.stdout(starterText());
      return EXIT.ok;
    }
    try {
      // "wx" fails if the file exists, in one step, so nothing is overwritten by a race.
      writeFileSync(resolve(io.cwd, file), starterText(), { flag: values.force ? "w" : "wx" });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === "EEXIST") {
        io.stderr(`orderline-diagrams init: ${file} already exists; use --force to overwrite it\n`);
        return EXIT.invalid;
      }
      const reason = error instanceof Error ? error.message : String(error);
      io.stderr(`orderline-diagrams init: cannot write ${file}: ${reason}\n`);
      return EXIT.usage;
    }
    io.stdout(`wrote ${file}\nnext: orderline-diagrams validate ${file}\n`);
    return EXIT.ok;
  },
};

import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Description } from "../../core/diagram-type.js";
import { loadType, TYPE_NAMES } from "../../types/index.js";
import { parseArgsOrReport, usageError } from "../args.js";
import { type Command, EXIT } from "../command.js";
import { parseType } from "../type-option.js";

const DEFAULT_TYPE = "workflow";

const HELP = `Usage: orderline-diagrams init [--type TYPE] [FILE] [--force]

Writes a small starter description of TYPE that validates and shows the type's main
features, to edit into your own. The workflow starter has three lanes, two phases, four nodes,
a mainPath and semanticChecks.

Arguments:
  FILE             where to write it (default: TYPE.json, e.g. ${DEFAULT_TYPE}.json); "-" prints it

Options:
  -t, --type TYPE  the diagram type: ${TYPE_NAMES.join(", ")} (default: ${DEFAULT_TYPE})
  -f, --force      overwrite FILE if it exists (without it, an existing file is left alone)
  -h, --help       show this help

Exit status: 0 written, 1 FILE exists (nothing written), 2 usage error or cannot write.

Next: orderline-diagrams validate ${DEFAULT_TYPE}.json
`;

/** A starter as written: pretty-printed JSON with a final newline. */
export function starterText(starter: Description): string {
  return `${JSON.stringify(starter, null, 2)}\n`;
}

const OPTIONS = {
  force: { type: "boolean", short: "f" },
  type: { type: "string", short: "t" },
} as const;

export const command: Command = {
  name: "init",
  summary: "write a starter description that validates",
  help: HELP,
  async run(args, io) {
    const parsed = parseArgsOrReport(command, args, OPTIONS, io);
    if (!parsed) return EXIT.usage;
    const { values, positionals } = parsed;
    if (positionals.length > 1) return usageError(command, io, "name at most one FILE");
    const name = parseType(values.type ?? DEFAULT_TYPE);
    if (typeof name !== "string") return usageError(command, io, name.error);
    const text = starterText((await loadType(name)).starter);
    const file = positionals[0] ?? `${name}.json`;
    if (file === "-") {
      io.stdout(text);
      return EXIT.ok;
    }
    try {
      // "wx" fails if the file exists, in one step, so nothing is overwritten by a race.
      writeFileSync(resolve(io.cwd, file), text, { flag: values.force ? "w" : "wx" });
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

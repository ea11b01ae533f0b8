import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { schema } from "../../types/workflow/schema.js";
import { parseArgsOrReport, usageError } from "../args.js";
import { type Command, EXIT } from "../command.js";

const HELP = `Usage: orderline-diagrams schema [-o FILE]

Prints the JSON Schema (draft 2020-12) of the workflow description format, the same file the
package ships as @orderline/diagrams/schema/workflow.schema.json. Point your editor at it for
completion and inline errors while writing a description.

Options:
  -o, --output FILE  write the schema to FILE instead of standard output
  -h, --help         show this help

Exit status: 0 printed, 2 usage error.
`;

const OPTIONS = { output: { type: "string", short: "o" } } as const;

export const command: Command = {
  name: "schema",
  summary: "print the JSON Schema of the description format",
  help: HELP,
  async run(args, io) {
    const parsed = parseArgsOrReport(command, args, OPTIONS, io);
    if (!parsed) return EXIT.usage;
    const { values, positionals } = parsed;
    if (positionals.length > 0) {
      return usageError(command, io, `unexpected argument "${positionals[0]}"`);
    }
    const text = schema.text();
    if (values.output === undefined) {
      io.stdout(text);
      return EXIT.ok;
    }
    try {
      writeFileSync(resolve(io.cwd, values.output), text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      io.stderr(`orderline-diagrams schema: cannot write ${values.output}: ${reason}\n`);
      return EXIT.usage;
    }
    io.stderr(`wrote ${values.output}\n`);
    return EXIT.ok;
  },
};

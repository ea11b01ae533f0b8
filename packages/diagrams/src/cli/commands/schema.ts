import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { loadType, TYPE_NAMES } from "../../types/index.js";
import { combinedSchemaText } from "../../validate/combined.js";
import { parseArgsOrReport, usageError } from "../args.js";
import { type Command, EXIT } from "../command.js";
import { parseType } from "../type-option.js";

const HELP = `Usage: orderline-diagrams schema [--type TYPE] [-o FILE]

Prints a JSON Schema (draft 2020-12) of the description format, the same file the package ships
in @orderline/diagrams/schema/. Point your editor at it for completion and inline errors while
writing a description.

Without --type it prints the combined schema (diagram.schema.json), which checks a description
of any type against that type's schema, picked by its diagram_type.

Options:
  -t, --type TYPE    only the schema of TYPE (${TYPE_NAMES.join(", ")}), e.g. workflow.schema.json
  -o, --output FILE  write the schema to FILE instead of standard output
  -h, --help         show this help

Exit status: 0 printed, 2 usage error.
`;

const OPTIONS = {
  output: { type: "string", short: "o" },
  type: { type: "string", short: "t" },
} as const;

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
    let text: string;
    if (values.type === undefined) text = await combinedSchemaText();
    else {
      const type = parseType(values.type);
      if (typeof type !== "string") return usageError(command, io, type.error);
      text = (await loadType(type)).schema.text();
    }
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

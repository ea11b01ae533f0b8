import { type CliIo, type Command, EXIT } from "./command.js";
import { command as exportCommand } from "./commands/export.js";
import { command as importCommand } from "./commands/import.js";
import { command as importTable } from "./commands/import-table.js";
import { command as init } from "./commands/init.js";
import { command as preview } from "./commands/preview.js";
import { command as render } from "./commands/render.js";
import { command as schema } from "./commands/schema.js";
import { command as validate } from "./commands/validate.js";

export const COMMANDS: Command[] = [
  validate,
  render,
  preview,
  schema,
  init,
  importTable,
  importCommand,
  exportCommand,
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "Usage: orderline-diagrams <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run 'orderline-diagrams <command> --help' for a command's options.",
    "",
  ].join("\n");
}

/** Runs one CLI invocation; returns the exit code. No process-wide side effects, so tests call it. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout(usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr(`orderline-diagrams: unknown command '${name}'\n\n${usage()}`);
    return EXIT.usage;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(command.help);
    return EXIT.ok;
  }
  return command.run(rest, io);
}

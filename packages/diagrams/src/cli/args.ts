import { type ParseArgsConfig, parseArgs } from "node:util";
import { EXIT } from "./command.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

export type ParsedArgs<O extends Options> = ReturnType<
  typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>
>;

/**
 * Strict option parsing shared by the commands: an unknown flag or a missing option value is a
 * usage error (exit 2) reported in one line, never silently ignored.
 */
export function parseCommandArgs<O extends Options>(
  args: string[],
  options: O,
): { ok: true; parsed: ParsedArgs<O> } | { ok: false; error: string } {
  try {
    return {
      ok: true,
      parsed: parseArgs({ args, options, allowPositionals: true, strict: true }),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: message.replace(/\. To specify a positional argument.*$/s, "") };
  }
}

/** Reports a usage error the way every command does (message, then the help) and gives exit 2. */
export function usageError(
  command: { name: string; help: string },
  io: { stderr: (text: string) => void },
  message: string,
): typeof EXIT.usage {
  io.stderr(`orderline-diagrams ${command.name}: ${message}\n\n${command.help}`);
  return EXIT.usage;
}

/** parseCommandArgs, reporting a bad option as a usage error; undefined when it did. */
export function parseArgsOrReport<O extends Options>(
  command: { name: string; help: string },
  args: string[],
  options: O,
  io: { stderr: (text: string) => void },
): ParsedArgs<O> | undefined {
  const result = parseCommandArgs(args, options);
  if (result.ok) return result.parsed;
  usageError(command, io, result.error);
  return undefined;
}

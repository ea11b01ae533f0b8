import { parseArgs } from "node:util";
import { parseDuration } from "../lib/duration.js";
import { UsageError } from "./io.js";

/**
 * What a (sub)command accepts, as data: the parser and the `--help` text are both made from it,
 * so a help text cannot leave out an option the command takes.
 */
interface OptionSpec {
  type: "string" | "boolean";
  /** The value's placeholder in help (`NAME`, `FILE`); string options only. */
  value?: string;
  help: string;
  required?: boolean;
}

export interface CommandSpec {
  /** `partners create`, `migrate`: what follows `orderline-gateway`. */
  name: string;
  /** Positional arguments as help shows them (`CLIENT_ID KEY_ID`). */
  args?: string;
  summary: string;
  /** Extra lines after the option list (examples, notes). */
  notes?: string;
  options: Record<string, OptionSpec>;
  /** False for `serve`, whose output is a running server rather than a result. */
  json?: boolean;
}

/** A command made of subcommands (`partners create`, `partners list` …). */
export interface CommandGroup {
  name: string;
  summary: string;
  subcommands: Record<string, CommandSpec>;
}

const DB_OPTION: OptionSpec = {
  type: "string",
  value: "FILE|URL",
  help: "the store: a SQLite file, sqlite:<path> or postgres://… (default: DATABASE_URL, else sqlite:./data/gateway.db)",
};

const JSON_OPTION: OptionSpec = {
  type: "boolean",
  help: "print the result, and any error, as JSON",
};

/** Every option a command takes: its own, then --db, --json where it applies, and --help. */
export function optionsOf(spec: CommandSpec): Record<string, OptionSpec> {
  return {
    ...spec.options,
    db: DB_OPTION,
    ...(spec.json === false ? {} : { json: JSON_OPTION }),
    help: { type: "boolean", help: "this help" },
  };
}

const flag = (name: string, option: OptionSpec) =>
  option.type === "string" ? `--${name} ${option.value ?? "VALUE"}` : `--${name}`;

function usageLine(spec: CommandSpec): string {
  const parts = [`orderline-gateway ${spec.name}`];
  if (spec.args) parts.push(spec.args);
  for (const [name, option] of Object.entries(spec.options))
    parts.push(option.required ? flag(name, option) : `[${flag(name, option)}]`);
  return parts.join(" ");
}

export function helpOf(spec: CommandSpec): string {
  const rows = Object.entries(optionsOf(spec)).map(([name, option]) => [
    name === "help" ? "-h, --help" : flag(name, option),
    option.help,
  ]);
  const width = Math.max(...rows.map(([left]) => (left as string).length)) + 2;
  return [
    `Usage: ${usageLine(spec)}`,
    "",
    spec.summary,
    "",
    "Options:",
    ...rows.map(([left, right]) => `  ${(left as string).padEnd(width)}${right}`),
    ...(spec.notes ? ["", spec.notes] : []),
    "",
  ].join("\n");
}

export function groupHelpOf(group: CommandGroup): string {
  const subs = Object.values(group.subcommands);
  return [
    `Usage: orderline-gateway ${group.name} <subcommand> [options]`,
    "",
    group.summary,
    "",
    "Subcommands:",
    ...subs.flatMap((s) => [`  ${usageLine(s)}`, `      ${s.summary}`]),
    "",
    `Run 'orderline-gateway ${group.name} <subcommand> --help' for a subcommand's options.`,
    "",
  ].join("\n");
}

/** The subcommand `args[0]` names in `group`, or a usage error listing the group's subcommands. */
export function subcommandOf(group: CommandGroup, args: string[]): [CommandSpec, string[]] {
  const [sub, ...rest] = args;
  const spec = sub === undefined ? undefined : group.subcommands[sub];
  if (spec === undefined || sub === undefined || !Object.hasOwn(group.subcommands, sub)) {
    throw new UsageError(
      `${sub === undefined ? "Missing subcommand" : `Unknown subcommand '${sub}'`} for ${group.name}.`,
      groupHelpOf(group),
    );
  }
  return [spec, rest];
}

export type Values = Record<string, string | boolean | undefined>;

/** Parses `args` strictly against `spec`; a missing required option is a usage error. */
export function parseFor(
  spec: CommandSpec,
  args: string[],
): { values: Values; positionals: string[] } {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      options: Object.fromEntries(
        Object.entries(optionsOf(spec)).map(([name, o]) => [name, { type: o.type }]),
      ),
      allowPositionals: true,
      strict: true,
    }) as { values: Values; positionals: string[] };
  } catch (error) {
    // Node's message names the option; the help says what the command does accept.
    throw new UsageError((error as Error).message, helpOf(spec));
  }
  for (const [name, option] of Object.entries(spec.options)) {
    if (option.required && typeof parsed.values[name] !== "string")
      throw new UsageError(`${spec.name} needs ${flag(name, option)}.`, helpOf(spec));
  }
  return parsed;
}

/** --grace: a whole number with a unit, s, m, h or d (`0` alone is --immediately). */
export function graceOption(spec: CommandSpec, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = parseDuration(raw);
  if (ms === undefined)
    throw new UsageError(
      `--grace takes a duration such as 30m, 12h or 7d, got '${raw}'.`,
      helpOf(spec),
    );
  return ms;
}

export function requirePositional(
  spec: CommandSpec,
  positionals: string[],
  index: number,
  what: string,
): string {
  const value = positionals[index];
  if (value === undefined) throw new UsageError(`Missing ${what}.`, helpOf(spec));
  return value;
}

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { TYPE_NAMES } from "../../types/index.js";
import {
  formatProblems,
  type Problem,
  renderWarnings,
  validateSource,
} from "../../validate/index.js";
import { parseArgsOrReport, usageError } from "../args.js";
import { type Command, EXIT } from "../command.js";

const HELP = `Usage: orderline-diagrams validate FILE... [--format text|json] [--strict]
                                   [--report NAME]

Checks diagram descriptions of any type (${TYPE_NAMES.join(", ")}), each against the format of the
type its diagram_type names (JSON syntax, the type's JSON Schema and the rules beyond it), and
reports every problem in every file at once. A valid description is also laid out, and what
the drawing cannot honour (a requested route or channel, text cut short with "…") is reported
as a warning, located like a problem, with a rule id under render/.

Arguments:
  FILE...            description files; a directory stands for the *.json files directly
                     in it; "-" reads standard input

Options:
  --format FORMAT    text (default): one line per problem,
                       file:line:col  /json/path  message (suggestion)  [rule]
                     json: a JSON array of problems
                       {file, line, column, path, rule, message, suggestion?,
                        severity?}  (severity "warning" for warnings)
  --strict           treat warnings as problems (exit status 1)
  --report NAME      also print the report NAME on each valid file, a report its
                     type offers: data-flow offers "boundaries" (every flow that
                     crosses a trust boundary, with the boundaries it leaves and
                     enters, its protocol and classification). With --format json
                     the output is {problems, reports: [{file, report, rows}]}
  -h, --help         show this help

Exit status:
  0  every file is valid
  1  at least one file has problems (or, with --strict, warnings)
  2  usage error: unknown option, no FILE, a file that cannot be read, a
     directory without .json files, or a --report the file's type does not offer

Examples:
  orderline-diagrams validate examples/diagrams/*.json
  orderline-diagrams validate --format json docs/diagrams
  orderline-diagrams validate --report boundaries examples/diagrams/signed-order-data-flow.json
`;

const OPTIONS = {
  format: { type: "string" },
  strict: { type: "boolean" },
  report: { type: "string" },
} as const;

function readInput(file: string, cwd: string): string {
  return file === "-" ? readFileSync(0, "utf8") : readFileSync(resolve(cwd, file), "utf8");
}

/**
 * The files to check: each argument as given, except that a directory stands for the .json
 * files directly in it, in name order. A directory without any is reported and skipped.
 */
function expandInputs(args: string[], cwd: string, report: (message: string) => void): string[] {
  const files: string[] = [];
  for (const arg of args) {
    let isDirectory = false;
    try {
      isDirectory = arg !== "-" && statSync(resolve(cwd, arg)).isDirectory();
    } catch {
      // Not there: reading it reports that.
    }
    if (!isDirectory) {
      files.push(arg);
      continue;
    }
    const found = readdirSync(resolve(cwd, arg))
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => join(arg, name));
    if (found.length === 0) report(`no .json files in directory ${arg}`);
    files.push(...found);
  }
  return files;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The last line of text output: "4 files valid" or "3 problems in 1 of 4 files". */
function summary(checked: number, invalid: number, problems: number, unreadable: number): string {
  const unread = unreadable > 0 ? `; ${unreadable} could not be read` : "";
  const files = plural(checked, "file");
  return invalid === 0
    ? `${files} valid${unread}\n`
    : `${plural(problems, "problem")} in ${invalid} of ${files}${unread}\n`;
}

function readError(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "is a directory";
  if (code === "EACCES") return "permission denied";
  return error instanceof Error ? error.message : String(error);
}

export const command: Command = {
  name: "validate",
  summary: "check descriptions and report every problem with file:line:col",
  help: HELP,
  async run(args, io) {
    const parsed = parseArgsOrReport(command, args, OPTIONS, io);
    if (!parsed) return EXIT.usage;
    const { values, positionals } = parsed;
    const format = values.format ?? "text";
    if (format !== "text" && format !== "json") {
      return usageError(command, io, `--format must be text or json, not "${format}"`);
    }
    if (positionals.length === 0) return usageError(command, io, "name at least one FILE");
    const problems: Problem[] = [];
    let unreadable = 0;
    let emptyDirectories = 0;
    let invalid = 0;
    let unreported = 0;
    const reports: { file: string; report: string; rows: Record<string, unknown>[] }[] = [];
    const files = expandInputs(positionals, io.cwd, (message) => {
      io.stderr(`orderline-diagrams validate: ${message}\n`);
      emptyDirectories++;
    });
    for (const file of files) {
      let source: string;
      try {
        source = readInput(file, io.cwd);
      } catch (error) {
        io.stderr(`orderline-diagrams validate: cannot read ${file}: ${readError(error)}\n`);
        unreadable++;
        continue;
      }
      const name = file === "-" ? "<stdin>" : file;
      const result = await validateSource(source, { file: name });
      if (result.ok) {
        const warnings = await renderWarnings(source, { file: name });
        problems.push(...warnings);
        if (format === "text") io.stdout(formatProblems(warnings, "text"));
        if (values.strict && warnings.length > 0) {
          invalid++;
          continue;
        }
        const note = warnings.length > 0 ? ` (${plural(warnings.length, "warning")})` : "";
        if (format === "text") io.stdout(`${name}: valid${note}\n`);
        if (values.report !== undefined) {
          // Loaded only for --report: a plain validate does not pay for it.
          const { runReport } = await import("../report.js");
          const report = await runReport(result.diagram, values.report);
          if (!report.ok) {
            io.stderr(`orderline-diagrams validate: ${name}: ${report.error}\n`);
            unreported++;
          } else if (format === "text") {
            io.stdout(
              report.text.map((line, i) => (i === 0 ? `${name}: ${line}` : line)).join("\n"),
            );
            io.stdout("\n");
          } else reports.push({ file: name, report: values.report, rows: report.rows });
        }
        continue;
      }
      invalid++;
      problems.push(...result.problems);
      if (format === "text") io.stdout(formatProblems(result.problems, "text"));
    }
    if (format === "json" && values.report !== undefined) {
      io.stdout(`${JSON.stringify({ problems, reports }, null, 2)}\n`);
    } else if (format === "json") io.stdout(formatProblems(problems, "json"));
    else if (files.length > 1 || invalid > 0) {
      io.stdout(summary(files.length - unreadable, invalid, problems.length, unreadable));
    }
    if (unreadable > 0 || emptyDirectories > 0 || unreported > 0) return EXIT.usage;
    return invalid > 0 ? EXIT.invalid : EXIT.ok;
  },
};

import { mkdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { Description, LaidOut } from "../../core/diagram-type.js";
import type { VisualPreset } from "../../core/model.js";
import type { ExportOptions, OutputFormat } from "../../export/index.js";
import type { TypeName } from "../../types/index.js";
import { type ParsedArgs, parseCommandArgs } from "../args.js";
import { type CliIo, type Command, EXIT } from "../command.js";
import { readDescription } from "../input.js";
import { parsePreset } from "../preset.js";

// Kept here (not imported from export/ or schema/) so that loading the command list stays cheap.
const FORMATS: readonly OutputFormat[] = ["svg", "png", "pdf", "html"];

const HELP = `Usage: orderline-diagrams render FILE... [-o OUT] [--format F] [--preset P] [--scale N]
                                [--view ID] [--font FILE]... [--strict]

Validates each description and renders it, without a browser, to SVG, PNG, PDF or a
self-contained HTML page (the trace animation along mainPath, guided views, node cards).

Arguments:
  FILE...             one or more description files; "-" reads standard input
                        (then -o is required)

Options:
  -o, --out OUT       one FILE: the output file; its extension (.svg .png .pdf .html) gives
                        the format, "-" writes to standard output
                      several FILEs, or OUT ending in "/": a directory (created if
                        missing); each FILE is written there as <name>.<format>
                      omitted: each FILE goes to its meta.output (relative to the FILE)
                        if set, else beside it as <name>.<format>
  -f, --format F      svg, png, pdf or html; needed only when OUT has no such extension
                        (default svg)
  --preset P          classic, signal-flow, blueprint or editorial; overrides
                        meta.visual_preset
  --scale N           PNG only: pixels per diagram unit, e.g. 2 for a high-density
                        image (default 1)
  --view ID           of a diagram with views (architecture: context, containers...): the
                        one to draw; without it SVG and PNG draw the first view, PDF has
                        one page per view and HTML one step per view
  --font FILE         PNG and PDF: a font file (.ttf, .otf, .ttc) for characters the
                        bundled Inter lacks (CJK, Arabic, Thai, Devanagari...), tried
                        before the system's fonts; may be given more than once. A
                        character no font draws is named in a warning
  --strict            treat warnings as problems: nothing is written
  -h, --help          show this help

Nothing is written unless every FILE is valid: with any problem, the problems are printed
(file:line:col  /json/path  message) and no output file is touched. What the drawing cannot
honour (a requested route or channel, text cut short with "…") is printed as a warning in
the same form; the output is still written unless --strict is given.

Exit status:
  0  every output written
  1  at least one description has problems, or warnings with --strict (nothing written)
  2  usage error, a FILE that cannot be read, or an output that cannot be written

Examples:
  orderline-diagrams render examples/diagrams/partner-order-flow.json -o flow.svg
  orderline-diagrams render flow.json -o flow.png --scale 2 --preset blueprint
  orderline-diagrams render examples/diagrams/*.json -o out/ --format pdf
  orderline-diagrams render examples/diagrams/orderline-architecture.json --view gateway -o g.png
`;

const OPTIONS = {
  out: { type: "string", short: "o" },
  format: { type: "string", short: "f" },
  preset: { type: "string" },
  scale: { type: "string" },
  strict: { type: "boolean" },
  view: { type: "string" },
  font: { type: "string", multiple: true },
} as const;

function formatOf(path: string): OutputFormat | undefined {
  const ext = extname(path).slice(1).toLowerCase();
  if (ext === "htm") return "html";
  return (FORMATS as readonly string[]).includes(ext) ? (ext as OutputFormat) : undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

interface Job {
  file: string;
  diagram: Description;
  layout: LaidOut;
  /** Absolute output path, or "-" for standard output. */
  out: string;
  format: OutputFormat;
}

function usageError(io: CliIo, message: string, withHelp = false): number {
  io.stderr(`orderline-diagrams render: ${message}\n${withHelp ? `\n${HELP}` : ""}`);
  return EXIT.usage;
}

/** Writes through a temporary file and a rename, so a reader never sees half an output. */
function writeAtomically(path: string, content: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(temp, content);
  renameSync(temp, path);
}

/** What the options ask of the outputs. */
interface OutputChoice {
  format: OutputFormat | undefined;
  preset: VisualPreset | undefined;
  scale: number | undefined;
  out: string | undefined;
  /** --font files, absolute. */
  fonts: string[];
  /** Several FILEs, or OUT names a directory: each FILE becomes <name>.<format> in OUT. */
  intoDir: boolean;
}

type Values = ParsedArgs<typeof OPTIONS>["values"];

/** The options read and checked against each other and the FILE list, or a usage error. */
function chooseOutput(values: Values, files: string[], cwd: string): OutputChoice | string {
  let format: OutputFormat | undefined;
  if (values.format !== undefined) {
    const f = values.format.toLowerCase();
    if (!(FORMATS as readonly string[]).includes(f)) {
      return `--format must be svg, png, pdf or html, not "${values.format}"`;
    }
    format = f as OutputFormat;
  }
  const preset = parsePreset(values.preset);
  if (typeof preset === "object") return preset.error;
  let scale: number | undefined;
  if (values.scale !== undefined) {
    scale = Number(values.scale);
    if (!Number.isFinite(scale) || scale <= 0 || scale > 16) {
      return `--scale must be a number above 0 and at most 16, not "${values.scale}"`;
    }
  }
  const out = values.out;
  const many = files.length > 1;
  // "-o dir/" names a directory even before it exists.
  const outIsDir =
    out !== undefined && out !== "-" && (/[/\\]$/.test(out) || isDirectory(resolve(cwd, out)));
  if (many && out === "-") return "-o - (standard output) takes a single FILE";
  if (!many && out !== undefined && out !== "-" && !outIsDir) {
    const fromExt = formatOf(out);
    if (format === undefined && fromExt === undefined) {
      return `cannot tell the format of "${out}": use .svg, .png, .pdf or .html, or --format`;
    }
    if (format !== undefined && fromExt !== undefined && fromExt !== format) {
      return `--format ${format} contradicts the extension of "${out}"`;
    }
    format ??= fromExt;
  }
  if (files.includes("-") && out === undefined) {
    return "a description read from standard input (-) needs -o";
  }
  if (files.filter((f) => f === "-").length > 1) {
    return "standard input (-) can be read only once";
  }
  const fonts = (values.font ?? []).map((f) => resolve(cwd, f));
  const unreadable = fonts.find((f) => !isFile(f));
  if (unreadable) return `--font: no font file at ${unreadable}`;
  return { format, preset, scale, out, fonts, intoDir: many || outIsDir };
}

/** Where one FILE's output goes, and in which format. */
function targetOf(
  file: string,
  diagram: Description,
  choice: OutputChoice,
  cwd: string,
): { out: string; format: OutputFormat } {
  const { out, format } = choice;
  const name = file === "-" ? "stdin" : basename(file, extname(file));
  if (out === "-") return { out: "-", format: format ?? "svg" };
  if (out !== undefined && choice.intoDir) {
    const f = format ?? "svg";
    return { out: resolve(cwd, out, `${name}.${f}`), format: f };
  }
  if (out !== undefined) return { out: resolve(cwd, out), format: format ?? "svg" };
  if (diagram.meta.output) {
    const metaFormat = formatOf(diagram.meta.output);
    const f = format ?? metaFormat ?? "svg";
    const base = resolve(cwd, dirname(file), diagram.meta.output);
    return {
      out: metaFormat === f ? base : `${base.slice(0, base.length - extname(base).length)}.${f}`,
      format: f,
    };
  }
  const f = format ?? "svg";
  return { out: resolve(cwd, dirname(file), `${name}.${f}`), format: f };
}

/**
 * Reads, validates and lays out one FILE, printing its problems and warnings: the job to
 * write, "invalid" when it has problems (or warnings with --strict), or a usage error.
 */
async function prepare(
  file: string,
  values: Values,
  choice: OutputChoice,
  io: CliIo,
): Promise<Job | "invalid" | { error: string }> {
  const { validateSource, formatProblems, renderWarnings } = await import(
    "../../validate/index.js"
  );
  const { loadType } = await import("../../types/index.js");
  const source = readDescription(file, io.cwd);
  if (typeof source === "object") return source;
  const shownAs = { file: file === "-" ? "<stdin>" : file };
  const result = await validateSource(source, shownAs);
  if (!result.ok) {
    io.stderr(formatProblems(result.problems, "text"));
    return "invalid";
  }
  const diagram = result.diagram;
  // Laid out once: for the warnings now and for the output later.
  const type = await loadType(diagram.diagram_type as TypeName);
  if (values.view !== undefined) {
    const views = type.views?.(diagram) ?? [];
    if (!views.some((v) => v.id === values.view)) {
      return {
        error:
          views.length === 0
            ? `--view: ${file} (${diagram.diagram_type}) has no views`
            : `--view: ${file} has no view "${values.view}"; its views are ${views.map((v) => v.id).join(", ")}`,
      };
    }
  }
  const layout = await type.layout(diagram, values.view);
  const warnings = await renderWarnings(source, shownAs, layout);
  io.stderr(formatProblems(warnings, "text"));
  if (values.strict && warnings.length > 0) return "invalid";
  return { file, diagram, layout, ...targetOf(file, diagram, choice, io.cwd) };
}

/** Writes every job's output; an output that cannot be written is a usage error. */
async function writeJobs(
  jobs: Job[],
  view: string | undefined,
  choice: OutputChoice,
  io: CliIo,
): Promise<number> {
  const { exportDiagram } = await import("../../export/index.js");
  for (const job of jobs) {
    const options: ExportOptions = {
      layout: job.layout,
      fonts: choice.fonts,
      onWarning: (message) => io.stderr(`${job.file}: warning: ${message}\n`),
    };
    if (view !== undefined) options.view = view;
    if (choice.preset) options.preset = choice.preset;
    if (choice.scale !== undefined) options.scale = choice.scale;
    const content = await exportDiagram(job.diagram, job.format, options);
    if (job.out === "-") {
      if (typeof content === "string") io.stdout(content);
      else process.stdout.write(content);
      continue;
    }
    try {
      writeAtomically(job.out, content);
    } catch (error) {
      return usageError(io, `cannot write ${job.out}: ${(error as Error).message}`);
    }
    io.stderr(`${job.file} → ${job.out}\n`);
  }
  return EXIT.ok;
}

export const command: Command = {
  name: "render",
  summary: "render descriptions to SVG, PNG, PDF or animated HTML",
  help: HELP,
  async run(args, io) {
    const parsedArgs = parseCommandArgs(args, OPTIONS);
    if (!parsedArgs.ok) return usageError(io, parsedArgs.error, true);
    const { values, positionals: files } = parsedArgs.parsed;
    if (files.length === 0) return usageError(io, "name at least one FILE", true);
    const choice = chooseOutput(values, files, io.cwd);
    if (typeof choice === "string") return usageError(io, choice);
    // Read and validate everything before writing anything.
    const jobs: Job[] = [];
    let invalid = 0;
    for (const file of files) {
      const job = await prepare(file, values, choice, io);
      if (job === "invalid") invalid++;
      else if ("error" in job) return usageError(io, job.error);
      else jobs.push(job);
    }
    if (invalid > 0) {
      io.stderr(
        `nothing written: ${invalid} of ${files.length} file${files.length === 1 ? "" : "s"} ha${invalid === 1 ? "s" : "ve"} problems${values.strict ? " or warnings (--strict)" : ""}\n`,
      );
      return EXIT.invalid;
    }
    if (choice.scale !== undefined && jobs.some((j) => j.format !== "png")) {
      return usageError(io, "--scale applies to PNG output only");
    }
    return writeJobs(jobs, values.view, choice, io);
  },
};

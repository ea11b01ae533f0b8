import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { WorkflowDiagram } from "../../schema/types.js";
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

/** The starter description; test/validate-cli.test.ts proves it validates. */
export const STARTER: WorkflowDiagram = {
  schema_version: 2,
  diagram_type: "workflow",
  meta: {
    title: "My workflow",
    subtitle: "Replace these lanes, nodes and edges with your own",
    locale: "en",
    visual_preset: "classic",
    animation: "trace",
  },
  lanes: [
    { id: "client", label: "Client" },
    { id: "service", label: "Service" },
    { id: "data", label: "Data" },
  ],
  phases: [
    { id: "request", label: "Request", fromCol: 0, toCol: 1 },
    { id: "handle", label: "Handle", fromCol: 2, toCol: 3 },
  ],
  nodes: [
    { id: "start", lane: "client", col: 0, type: "start", label: "Start" },
    { id: "app", lane: "client", col: 1, type: "frontend", label: "Web app" },
    {
      id: "api",
      lane: "service",
      col: 2,
      type: "backend",
      label: "API",
      sublabel: "validates input",
    },
    { id: "db", lane: "data", col: 3, type: "database", label: "Database" },
  ],
  edges: [
    { id: "open", from: "start", to: "app", role: "main" },
    { id: "request", from: "app", to: "api", label: "request", role: "main" },
    { id: "write", from: "api", to: "db", label: "write", role: "main" },
    { id: "reply", from: "api", to: "app", label: "response", role: "return" },
  ],
  mainPath: ["start", "app", "api", "db"],
  semanticChecks: { allowedRoots: ["start"], allowedTerminals: ["db"] },
};

export function starterText(): string {
  return `${JSON.stringify(STARTER, null, 2)}\n`;
}

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

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseCommandArgs } from "../args.js";
import { type Command, EXIT } from "../command.js";
import { parsePreset } from "../preset.js";
import { parseType } from "../type-option.js";

const DEFAULT_PORT = 4780;

const HELP = `Usage: orderline-diagrams preview FILE [--port N] [--host H] [--preset P] [--view ID]
                                  [--type T]

Serves a local page showing FILE rendered, and re-renders it every time FILE is saved. When a
save breaks the description, the page shows its problems (file:line:col, path, message)
instead of the last picture, and the picture comes back with the next good save.
FILE may be Mermaid (.mmd, .mermaid): it is imported on each save (as "import" does) and
what the import does not carry over is listed beside the picture.

Options:
  --port N      port to listen on (default ${DEFAULT_PORT}; if it is taken, a free port is
                  used instead; 0 always picks a free port)
  --host H      address to listen on (default 127.0.0.1: only this machine)
  --preset P    classic, signal-flow, blueprint or editorial; overrides meta.visual_preset
  --view ID     of a diagram with views (architecture): the one shown (default the first)
  --type T      of a Mermaid flowchart: architecture (default), workflow or data-flow
  -h, --help    show this help

Stop with Ctrl+C.

Exit status: 0 stopped, 2 usage error or FILE cannot be read.
`;

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  preset: { type: "string" },
  view: { type: "string" },
  type: { type: "string" },
} as const;

export const command: Command = {
  name: "preview",
  summary: "serve a live preview that re-renders on every save",
  help: HELP,
  async run(args, io) {
    const parsedArgs = parseCommandArgs(args, OPTIONS);
    const fail = (message: string) => {
      io.stderr(`orderline-diagrams preview: ${message}\n`);
      return EXIT.usage;
    };
    if (!parsedArgs.ok) return fail(`${parsedArgs.error}\n\n${HELP}`);
    const { values, positionals } = parsedArgs.parsed;
    if (positionals.length !== 1) return fail(`name exactly one FILE\n\n${HELP}`);
    const file = positionals[0] as string;
    if (!existsSync(resolve(io.cwd, file))) return fail(`cannot read ${file}: no such file`);
    let port = DEFAULT_PORT;
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        return fail(`--port must be an integer from 0 to 65535, not "${values.port}"`);
      }
    }
    const preset = parsePreset(values.preset);
    if (typeof preset === "object") return fail(preset.error);
    const type = values.type === undefined ? undefined : parseType(values.type);
    if (typeof type === "object") return fail(type.error);
    const { startPreview } = await import("../../preview/server.js");
    const options = {
      file: resolve(io.cwd, file),
      port,
      host: values.host ?? "127.0.0.1",
      ...(preset ? { preset } : {}),
      ...(values.view === undefined ? {} : { view: values.view }),
      ...(type ? { type } : {}),
    };
    let server: Awaited<ReturnType<typeof startPreview>>;
    try {
      server = await startPreview(options);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== "EADDRINUSE" || values.port !== undefined) {
        return fail(`cannot listen on ${options.host}:${port}: ${code ?? String(error)}`);
      }
      server = await startPreview({ ...options, port: 0 });
    }
    const state = server.state();
    io.stdout(`Previewing ${file} at ${server.url}  (Ctrl+C to stop)\n`);
    if (!state.ok) io.stdout(`${file} has problems now; the page shows them until it is fixed.\n`);
    await new Promise<void>((resolveStop) => {
      process.once("SIGINT", resolveStop);
      process.once("SIGTERM", resolveStop);
    });
    await server.close();
    return EXIT.ok;
  },
};

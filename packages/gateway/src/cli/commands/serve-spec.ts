import type { CommandSpec } from "../spec.js";

/**
 * `serve`'s options and help, apart from serve.ts: the command list and its help load this alone,
 * and the HTTP gateway only when serve runs (cli/run.ts).
 */
export const SERVE: CommandSpec = {
  name: "serve",
  summary:
    "Runs the gateway; creates the store and applies pending migrations first. PORT, HOST, DATABASE_URL and LOG_LEVEL are read from the environment too; a flag wins.",
  json: false,
  options: {
    port: { type: "string", value: "N", help: "listening port (default 3000; 0 picks a free one)" },
    host: {
      type: "string",
      value: "H",
      help: "listening address (default 127.0.0.1; 0.0.0.0 for every interface)",
    },
    "log-level": {
      type: "string",
      value: "L",
      help: "pino level: trace … fatal, silent (default info)",
    },
    demo: {
      type: "boolean",
      help: "create a demo partner (and tenant with an admin user) on an empty store and print how to send a signed order",
    },
  },
};

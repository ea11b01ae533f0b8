import { ConfigError } from "../config/config.js";
import { PartnerAdminError } from "../domain/partners/admin.js";
import { AdminError } from "../domain/tenants/admin.js";
import { WebhookError } from "../domain/webhooks/endpoint-admin.js";
import { ApiError } from "../problems/api-error.js";
import { PublicKeyError } from "../security/public-key.js";
import { StoreUnavailableError } from "../store/open.js";
import { MIGRATE, migrateCommand } from "./commands/migrate.js";
import { ORDERS, ordersCommand } from "./commands/orders.js";
import { PARTNERS, partnersCommand } from "./commands/partners.js";
import { SERVE } from "./commands/serve-spec.js";
import { SIGNING_KEYS, signingKeysCommand } from "./commands/signing-keys.js";
import {
  OVERRIDES,
  overridesCommand,
  TENANTS,
  tenantsCommand,
  USERS,
  usersCommand,
} from "./commands/tenants.js";
import { WEBHOOKS, webhooksCommand } from "./commands/webhooks.js";
import { type CliIo, EXIT, UsageError } from "./io.js";
import { type CommandGroup, type CommandSpec, groupHelpOf, helpOf } from "./spec.js";

interface Command {
  spec: CommandGroup | CommandSpec;
  run: (args: string[], io: CliIo) => Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  // The HTTP gateway (Fastify, every route) loads only for serve: admin commands need none of it.
  serve: {
    spec: SERVE,
    run: async (args, io) => (await import("./commands/serve.js")).serveCommand(args, io),
  },
  partners: { spec: PARTNERS, run: partnersCommand },
  "signing-keys": { spec: SIGNING_KEYS, run: signingKeysCommand },
  tenants: { spec: TENANTS, run: tenantsCommand },
  users: { spec: USERS, run: usersCommand },
  overrides: { spec: OVERRIDES, run: overridesCommand },
  webhooks: { spec: WEBHOOKS, run: webhooksCommand },
  migrate: { spec: MIGRATE, run: migrateCommand },
  orders: { spec: ORDERS, run: ordersCommand },
};

const isGroup = (spec: CommandGroup | CommandSpec): spec is CommandGroup => "subcommands" in spec;

/** A summary's first sentence or clause, for the one-line command list. */
const firstClause = (summary: string): string =>
  summary.split(/[.;] /)[0]?.replace(/\.$/, "") ?? "";

export const USAGE = `Usage: orderline-gateway <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, { spec }]) => `  ${name.padEnd(14)}${firstClause(spec.summary)}`)
  .join("\n")}

The store is --db FILE|URL or DATABASE_URL (default: sqlite:./data/gateway.db). Only serve and
migrate create a store; every other command refuses one that does not exist (exit 3).
Exit codes: 0 done, 1 refused or failed, 2 bad arguments or configuration, 3 no usable store.
Run 'orderline-gateway <command> --help' (or '<command> <subcommand> --help') for details.
`;

/** The help `--help` asks for: a subcommand's own when one is named, else the command's. */
function helpFor(spec: CommandGroup | CommandSpec, args: string[]): string {
  if (!isGroup(spec)) return helpOf(spec);
  const sub = args[0];
  return sub !== undefined && Object.hasOwn(spec.subcommands, sub)
    ? helpOf(spec.subcommands[sub] as CommandSpec)
    : groupHelpOf(spec);
}

/** How an error ends the command: exit code and the `code` of a JSON error. */
function classify(error: unknown): [number, string] {
  if (error instanceof UsageError) return [EXIT.usage, "usage"];
  if (error instanceof ConfigError) return [EXIT.usage, "config_invalid"];
  // A store newer than this build is the wrong build for it, like a bad setting: exit 2.
  if (error instanceof StoreUnavailableError)
    return [error.code === "store_newer" ? EXIT.usage : EXIT.store, error.code];
  if (
    error instanceof PartnerAdminError ||
    error instanceof PublicKeyError ||
    error instanceof AdminError ||
    error instanceof WebhookError ||
    // A share's refusal (partner_limit, partner_key_in_use): the same as the API answers.
    error instanceof ApiError
  )
    return [EXIT.failure, "refused"];
  return [EXIT.failure, "failed"];
}

function report(error: unknown, io: CliIo, json: boolean): number {
  const [exit, code] = classify(error);
  const message = (error as Error).message;
  if (json) io.stderr(`${JSON.stringify({ error: { code, message, exit_code: exit } })}\n`);
  else {
    const help = error instanceof UsageError && error.help ? `\n${error.help}` : "";
    io.stderr(`orderline-gateway: ${message}\n${help}`);
  }
  return exit;
}

/** The admin CLI without process side effects: tests call it with their own io. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    io.stdout(USAGE);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  const json = rest.includes("--json");
  const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (entry === undefined)
    return report(new UsageError(`Unknown command '${command}'.`, USAGE), io, json);
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(helpFor(entry.spec, rest));
    return EXIT.ok;
  }
  try {
    return await entry.run(rest, io);
  } catch (error) {
    return report(error, io, json);
  }
}

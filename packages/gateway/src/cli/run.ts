import { openStore } from "../store/open.js";
import { PARTNERS_HELP, partnersCommand } from "./commands/partners.js";
import { SERVE_HELP, serveCommand } from "./commands/serve.js";
import { SIGNING_KEYS_HELP, signingKeysCommand } from "./commands/signing-keys.js";
import {
  OVERRIDES_HELP,
  overridesCommand,
  TENANTS_HELP,
  tenantsCommand,
  USERS_HELP,
  usersCommand,
} from "./commands/tenants.js";
import { type CliIo, EXIT, UsageError } from "./io.js";
import { configFrom, parse } from "./options.js";

export const USAGE = `Usage: orderline-gateway <command> [options]

Commands:
  serve           run the gateway (--port, --host, --db, --demo)
  partners        create partners, register and revoke keys, rotate secrets, disable/enable, list
  signing-keys    list or rotate the gateway's JWT signing keys
  tenants         create and list tenants (the companies whose users sign in to /v1)
  users           create and list a tenant's users (password from stdin or a prompt)
  overrides       import or export a tenant's vocabulary overrides (<language>/<namespace>.json)
  migrate         apply pending store migrations

The store is DATABASE_URL or --db (default: sqlite:./data/gateway.db).
Run 'orderline-gateway <command> --help' for details.
`;

const HELP: Record<string, string> = {
  serve: SERVE_HELP,
  partners: PARTNERS_HELP,
  "signing-keys": SIGNING_KEYS_HELP,
  tenants: TENANTS_HELP,
  users: USERS_HELP,
  overrides: OVERRIDES_HELP,
};

async function migrateCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parse(args, {});
  const store = await openStore(configFrom(io, values.db).databaseUrl);
  await store.close();
  io.stdout("Store is up to date.\n");
  return EXIT.ok;
}

/** The admin CLI without process side effects: tests call it with their own io. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    io.stdout(USAGE);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(HELP[command] ?? USAGE);
    return EXIT.ok;
  }
  try {
    switch (command) {
      case "serve":
        return await serveCommand(rest, io);
      case "partners":
        return await partnersCommand(rest, io);
      case "signing-keys":
        return await signingKeysCommand(rest, io);
      case "tenants":
        return await tenantsCommand(rest, io);
      case "users":
        return await usersCommand(rest, io);
      case "overrides":
        return await overridesCommand(rest, io);
      case "migrate":
        return await migrateCommand(rest, io);
      default:
        throw new UsageError(`Unknown command '${command}'.\n\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`orderline-gateway: ${error.message}\n`);
      return EXIT.usage;
    }
    io.stderr(`orderline-gateway: ${(error as Error).message}\n`);
    return EXIT.failure;
  }
}

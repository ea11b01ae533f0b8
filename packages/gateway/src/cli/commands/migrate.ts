import { openCore } from "../../core.js";
import { type CliIo, EXIT } from "../io.js";
import { configFrom } from "../options.js";
import { type CommandSpec, parseFor } from "../spec.js";

export const MIGRATE: CommandSpec = {
  name: "migrate",
  summary:
    "Creates the store (and, without GATEWAY_MASTER_KEY, its master key file) when it does not exist and applies pending migrations; serve does the same at every start. No other command creates a store.",
  options: {},
};

export async function migrateCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseFor(MIGRATE, args);
  // The whole core, not the store alone: a new store also needs its master key and signing key.
  const { store } = await openCore(configFrom(io, values.db), { create: true });
  let version: number;
  try {
    version = await store.schemaVersion();
  } finally {
    await store.close();
  }
  io.stdout(
    values.json === true
      ? `${JSON.stringify({ store: store.kind, schema_version: version })}\n`
      : `Store is up to date (schema version ${version}).\n`,
  );
  return EXIT.ok;
}

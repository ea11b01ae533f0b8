import { resolve } from "node:path";
import { type GatewayConfig, loadConfig } from "../config/config.js";
import { isPostgresUrl } from "../lib/database-url.js";
import type { CliIo } from "./io.js";
import type { Values } from "./spec.js";

/** Config from the environment, with --db (a sqlite: URL or a file path) taking precedence. */
export function configFrom(
  io: CliIo,
  db: string | boolean | undefined,
  overrides: Partial<GatewayConfig> = {},
): GatewayConfig {
  const databaseUrl =
    typeof db !== "string" ? undefined : /^[a-z]+:/.test(db) ? db : `sqlite:${resolve(io.cwd, db)}`;
  const env = { ...io.env };
  if (env.DATABASE_URL?.startsWith("sqlite:") && !env.DATABASE_URL.startsWith("sqlite:/")) {
    env.DATABASE_URL = `sqlite:${resolve(io.cwd, env.DATABASE_URL.slice("sqlite:".length))}`;
  }
  if (env.DATABASE_URL === undefined && databaseUrl === undefined) {
    env.DATABASE_URL = `sqlite:${resolve(io.cwd, "data/gateway.db")}`;
  }
  // A database server has no directory: master key and demo files go to ./data of the caller.
  if (env.GATEWAY_DATA_DIR === undefined && isPostgresUrl(databaseUrl ?? env.DATABASE_URL ?? "")) {
    env.GATEWAY_DATA_DIR = resolve(io.cwd, "data");
  }
  return loadConfig(env, databaseUrl === undefined ? overrides : { ...overrides, databaseUrl });
}

export function stringOption(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

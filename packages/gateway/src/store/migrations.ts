import { readdirSync, readFileSync } from "node:fs";

export type Dialect = "sqlite" | "postgres";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const ROOT = new URL("./migrations/", import.meta.url);

/**
 * The versioned migrations of one dialect, `migrations/<dialect>/NNN_name.sql`, in order. Each
 * version exists once per dialect under the same number and name (a test holds them in step),
 * so both stores always have the same schema version.
 */
export function loadMigrations(dialect: Dialect): Migration[] {
  const directory = new URL(`${dialect}/`, ROOT);
  return readdirSync(directory)
    .filter((file) => /^\d{3}_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -4),
      sql: readFileSync(new URL(file, directory), "utf8"),
    }));
}

/** The newest schema version this build knows (what `/ready` expects the store to have). */
export function latestVersion(dialect: Dialect): number {
  return loadMigrations(dialect).at(-1)?.version ?? 0;
}

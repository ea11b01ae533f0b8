/**
 * The backup commands docs/deploy.md gives leave files only their owner can read (0600), like
 * the live store: run as written (paths moved into a temporary directory) under a permissive
 * umask, against a real store of each kind.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sqlitePathOf } from "../src/config/config.js";
import { openStore } from "../src/store/open.js";
import { tempDir } from "./helpers.js";
import { freshDatabaseUrl, type StoreKind, storeKinds } from "./support/stores.js";

const DEPLOY_MD = new URL("../../../docs/deploy.md", import.meta.url);
const TOOL: Record<StoreKind, string> = { sqlite: "sqlite3", postgres: "pg_dump" };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The documented command line that runs `tool`. */
function documentedCommand(tool: string): string {
  const line = readFileSync(DEPLOY_MD, "utf8")
    .split("\n")
    .find((l) => l.includes(tool) && l.includes("/backups/"));
  if (!line) throw new Error(`docs/deploy.md has no ${tool} backup command`);
  return line;
}

const haveTool = (tool: string) => spawnSync(tool, ["--version"]).status === 0;

describe.each(storeKinds)("the documented backup command (%s store)", (kind) => {
  it.runIf(haveTool(TOOL[kind]) || process.env.CI)("writes a 0600 file", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const url = await freshDatabaseUrl(kind, dir);
    await (await openStore(url)).close();
    mkdirSync(join(dir, "backups"));
    const command = documentedCommand(TOOL[kind])
      .replaceAll("/backups/", `${dir}/backups/`)
      .replace("data/gateway.db", kind === "sqlite" ? sqlitePathOf(url) : "");
    execFileSync("bash", ["-c", `umask 022 && ${command}`], {
      // libpq reads a space in the URL's options as %20 only, never as +.
      env: { ...process.env, DATABASE_URL: url.replaceAll("+", "%20") },
    });
    const [file] = readdirSync(join(dir, "backups"));
    expect(file).toBeDefined();
    expect(statSync(join(dir, "backups", file ?? "")).mode & 0o777).toBe(0o600);
  });
});

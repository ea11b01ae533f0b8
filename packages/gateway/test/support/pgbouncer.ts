/**
 * Debian's PgBouncer in transaction pooling mode in front of the test PostgreSQL server, set up
 * as docs/deploy.md says (`statement_timeout` in `ignore_startup_parameters`).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./haproxy.js";

const PGBOUNCER = "/usr/sbin/pgbouncer";
export const havePgbouncer = spawnSync(PGBOUNCER, ["--version"]).status === 0;

const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface RunningPgbouncer {
  port: number;
  /** `url` (a database on the test server) as reached through PgBouncer. */
  through(url: string): string;
  /** Everything PgBouncer logged so far. */
  log(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts PgBouncer (pool_mode = transaction, `poolSize` server connections per database and
 * user) with its ini in `dir`. Every database of the server is reachable under its own name;
 * `aliases` adds names for databases, each a pool of its own (separate server sessions).
 */
export async function startPgbouncer(
  dir: string,
  options: { poolSize?: number; aliases?: Record<string, string> } = {},
): Promise<RunningPgbouncer> {
  const server = new URL(SERVER_URL);
  const port = await freePort();
  const user = decodeURIComponent(server.username || "postgres");
  const target = `host=${server.hostname} port=${server.port || 5432}`;
  const aliases = Object.entries(options.aliases ?? {}).map(
    ([alias, database]) => `${alias} = ${target} dbname=${database}`,
  );
  const ini = join(dir, "pgbouncer.ini");
  const userlist = join(dir, "userlist.txt");
  writeFileSync(userlist, `"${user}" ""\n`);
  writeFileSync(
    ini,
    [
      "[databases]",
      ...aliases,
      `* = ${target}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${userlist}`,
      "pool_mode = transaction",
      `default_pool_size = ${options.poolSize ?? 8}`,
      "max_client_conn = 1000",
      "ignore_startup_parameters = statement_timeout",
      "",
    ].join("\n"),
  );
  // PgBouncer refuses to run as root: it drops to the server's user then, which must read these.
  const asRoot = userInfo().uid === 0;
  if (asRoot) for (const path of [dir, ini, userlist]) chmodSync(path, 0o755);
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ["-u", "postgres"] : []), ini], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout?.on("data", (chunk) => {
    log += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    log += chunk;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const through = (url: string) => {
    const via = new URL(url);
    via.hostname = "127.0.0.1";
    via.port = String(port);
    return via.toString();
  };
  const stop = async () => {
    child.kill("SIGKILL");
    await exited;
  };
  for (let i = 0; i < 100; i++) {
    const client = new pg.Client({ connectionString: through(SERVER_URL) });
    const up = await client.connect().then(
      () => client.query("SELECT 1").then(() => true),
      () => false,
    );
    await client.end().catch(() => {});
    if (up) return { port, through, log: () => log, stop };
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  await stop();
  throw new Error(`PgBouncer did not come up:\n${log}`);
}

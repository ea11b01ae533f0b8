/**
 * A throwaway PostgreSQL cluster for fault injection: initdb in a temp dir, started with pg_ctl
 * on a free port, then stopped, hung (SIGSTOP of the postmaster and its backends), resumed and
 * removed at will, without touching the shared server the other tests use. initdb and pg_ctl
 * are found on PATH or in Debian's /usr/lib/postgresql/<version>/bin. As root (CI) the cluster
 * runs as the `postgres` user, since PostgreSQL refuses to run as root.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import pg from "pg";

/** The directory holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function postgresBinDir(): string | undefined {
  const has = (dir: string) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"));
  for (const dir of (process.env.PATH ?? "").split(delimiter)) if (dir && has(dir)) return dir;
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions)
      if (has(join(debian, version, "bin"))) return join(debian, version, "bin");
  }
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    if (has(dir)) return dir;
  } catch {}
  return undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** uid/gid to run the server as: ours, or the postgres user's when we are root. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }));
  return { uid: id("-u"), gid: id("-g") };
}

/**
 * Lets the server's user reach `dir`: the run's temp dir is 0700 root, so each ancestor gets
 * o+x (enter, not list) when it lacks it.
 */
function allowTraversal(dir: string): void {
  for (let at = dirname(dir); at !== dirname(at); at = dirname(at)) {
    const { mode } = statSync(at);
    if ((mode & 0o001) === 0) chmodSync(at, (mode & 0o7777) | 0o001);
  }
}

export class PgCluster {
  readonly #bin: string;
  readonly #user = serverUser();
  readonly #dataDir: string;
  #paused = false;
  readonly #onExit = () => this.#killNow();

  private constructor(
    readonly dir: string,
    readonly port: number,
    bin: string,
  ) {
    this.#bin = bin;
    this.#dataDir = join(dir, "data");
    // A test run that dies must not leave a server (possibly stopped) behind.
    process.once("exit", this.#onExit);
  }

  /** initdb + start; the superuser is `postgres` with trust auth on 127.0.0.1 only. */
  static async create(options: { maxConnections?: number } = {}): Promise<PgCluster> {
    const bin = postgresBinDir();
    if (bin === undefined) throw new Error("initdb/pg_ctl not found (install postgresql)");
    const dir = mkdtempSync(join(tmpdir(), "orderline-pg-"));
    const cluster = new PgCluster(dir, await freePort(), bin);
    if (cluster.#user) {
      chownSync(dir, cluster.#user.uid, cluster.#user.gid);
      allowTraversal(dir);
    }
    cluster.#run("initdb", [
      "-D",
      cluster.#dataDir,
      "-U",
      "postgres",
      "--auth=trust",
      "--no-sync",
      "-E",
      "UTF8",
      "--no-instructions",
    ]);
    cluster.#maxConnections = options.maxConnections ?? 40;
    cluster.start();
    return cluster;
  }

  #maxConnections = 40;

  #run(tool: string, args: string[]): string {
    return execFileSync(join(this.#bin, tool), args, {
      encoding: "utf8",
      cwd: this.dir,
      stdio: ["ignore", "pipe", "pipe"],
      ...(this.#user ?? {}),
    });
  }

  /** A URL for `database` on this cluster (the maintenance database by default). */
  url(database = "postgres"): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  start(): void {
    const options = [
      `-p ${this.port}`,
      `-k ${this.dir}`,
      "-c listen_addresses=127.0.0.1",
      "-c fsync=off",
      "-c full_page_writes=off",
      `-c max_connections=${this.#maxConnections}`,
    ].join(" ");
    this.#run("pg_ctl", [
      "-D",
      this.#dataDir,
      "-l",
      join(this.dir, "log"),
      "-w",
      "-o",
      options,
      "start",
    ]);
  }

  /** Stops the server: `fast` ends sessions (57P01) and shuts down cleanly. */
  stop(mode: "fast" | "immediate" = "fast"): void {
    this.resume();
    this.#run("pg_ctl", ["-D", this.#dataDir, "-m", mode, "-w", "stop"]);
  }

  /** The postmaster's pid, from postmaster.pid. */
  postmasterPid(): number {
    return Number(readFileSync(join(this.#dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  }

  /** Every process of the server: the postmaster and its children (backends, walwriter, …). */
  #processes(): number[] {
    const postmaster = this.postmasterPid();
    let children = "";
    try {
      children = execFileSync("ps", ["-o", "pid=", "--ppid", String(postmaster)], {
        encoding: "utf8",
      });
    } catch {} // no children
    return [
      postmaster,
      ...children
        .split("\n")
        .map((s) => Number(s.trim()))
        .filter((n) => n > 0),
    ];
  }

  /**
   * Signals the postmaster, then each of its children: every server process calls setsid(),
   * so they are not one process group. Stopped first, the postmaster forks no new backend
   * while its children are being stopped.
   */
  #signalAll(signal: NodeJS.Signals): void {
    for (const pid of this.#processes()) {
      try {
        process.kill(pid, signal);
      } catch {} // exited meanwhile
    }
  }

  /** Hangs the server: it accepts TCP connections (the kernel does) but answers nothing. */
  pause(): void {
    this.#signalAll("SIGSTOP");
    this.#paused = true;
  }

  resume(): void {
    if (!this.#paused) return;
    this.#signalAll("SIGCONT");
    this.#paused = false;
  }

  /** A superuser client on this cluster (end it when done). */
  async admin<T>(work: (client: pg.Client) => Promise<T>, database = "postgres"): Promise<T> {
    const client = new pg.Client({
      connectionString: this.url(database),
      connectionTimeoutMillis: 3000,
    });
    client.on("error", () => {});
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** Ends every session whose application_name is `applicationName`; returns how many. */
  terminate(applicationName: string): Promise<number> {
    return this.admin(async (client) => {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()) t",
        [applicationName],
      );
      return rows[0]?.n ?? 0;
    });
  }

  #killNow(): void {
    try {
      this.#signalAll("SIGCONT");
      this.#signalAll("SIGKILL");
    } catch {} // no postmaster.pid: nothing runs
  }

  /** Stops the server (whatever its state) and removes its directory. */
  async destroy(): Promise<void> {
    process.off("exit", this.#onExit);
    try {
      this.stop("immediate");
    } catch {
      this.#killNow();
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

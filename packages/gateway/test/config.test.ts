import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { run } from "../src/cli/run.js";
import { loadConfig, unknownSettingWarnings } from "../src/config/config.js";
import { tempDir } from "./helpers.js";
import { CLI, capturingIo } from "./support/processes.js";
import { freshPostgresUrl } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("loadConfig", () => {
  it("defaults to the contract's values and the embedded store under ./data", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe("sqlite:./data/gateway.db");
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.jwt.ttlSeconds).toBe(12 * 3600);
    expect(config.jwt.refreshGraceSeconds).toBe(24 * 3600);
    expect(config.jwt.sessionMaxSeconds).toBe(30 * 24 * 3600);
    expect(config.signature.maxSkewSeconds).toBe(300);
    expect(config.sqliteSynchronous).toBe("full");
  });

  it("reads the environment", () => {
    const config = loadConfig({
      PORT: "8080",
      DATABASE_URL: "sqlite:/var/lib/orderline/gw.db",
      GATEWAY_REFRESH_GRACE_SECONDS: "60",
      GATEWAY_MAX_SKEW_SECONDS: "120",
      GATEWAY_SQLITE_SYNCHRONOUS: "normal",
    });
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe("/var/lib/orderline");
    expect(config.jwt.refreshGraceSeconds).toBe(60);
    expect(config.signature.maxSkewSeconds).toBe(120);
    expect(config.sqliteSynchronous).toBe("normal");
  });

  it("takes a PostgreSQL URL, the pool size, Redis and the rate limits", () => {
    const defaults = loadConfig({});
    expect(defaults.redisUrl).toBeUndefined();
    expect(defaults.pgPoolMax).toBe(16);
    expect(defaults.rateLimit).toEqual({ windowSeconds: 60, ordersMax: 6000, loginMax: 60 });
    const config = loadConfig({
      DATABASE_URL: "postgres://orderline:pw@db.internal:5432/orderline",
      GATEWAY_PG_POOL_MAX: "8",
      REDIS_URL: "redis://redis.internal:6379",
      GATEWAY_RATE_LIMIT_WINDOW_SECONDS: "10",
      GATEWAY_RATE_LIMIT_ORDERS: "0",
      GATEWAY_RATE_LIMIT_LOGINS: "5",
    });
    expect(config.databaseUrl).toBe("postgres://orderline:pw@db.internal:5432/orderline");
    // A database server has no directory of its own: master key and demo files go to ./data.
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.pgPoolMax).toBe(8);
    expect(config.redisUrl).toBe("redis://redis.internal:6379");
    expect(config.rateLimit).toEqual({ windowSeconds: 10, ordersMax: 0, loginMax: 5 });
    expect(loadConfig({ REDIS_URL: "" }).redisUrl).toBeUndefined();
  });

  it("refuses values it cannot use instead of guessing", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(
      "PORT='eighty' is not valid: it must be an integer from 0 to 65535.",
    );
    expect(() => loadConfig({ GATEWAY_SQLITE_SYNCHRONOUS: "off" })).toThrow(
      "one of 'full', 'normal'",
    );
    expect(() => loadConfig({ GATEWAY_RATE_LIMIT_ORDERS: "-1" })).toThrow(
      "GATEWAY_RATE_LIMIT_ORDERS='-1' is not valid: it must be an integer of at least 0.",
    );
    // Zero connections used to mean pg's default of 10 without a word.
    expect(() => loadConfig({ GATEWAY_PG_POOL_MAX: "0" })).toThrow("an integer from 1 to 1000");
  });

  it("names a URL's password nowhere and a master key not at all", () => {
    expect(() => loadConfig({ REDIS_URL: "redis//:hunter2@cache" })).toThrow(/^(?!.*hunter2)/);
    expect(() => loadConfig({ GATEWAY_MASTER_KEY: "secret-but-short" })).toThrow(
      "GATEWAY_MASTER_KEY=(hidden) is not valid",
    );
  });

  it("warns about GATEWAY_* names it does not know, with the nearest known one", () => {
    expect(
      unknownSettingWarnings({
        GATEWAY_PG_POOL_MAXX: "4",
        GATEWAY_DRAIN_SECONDS: "1",
        GATEWAY_SOMETHING_ELSE_ENTIRELY: "x",
        GATEWAY_URL: "http://demo",
        HOME: "/root",
      }),
    ).toEqual([
      "Unknown setting GATEWAY_PG_POOL_MAXX is ignored. Did you mean GATEWAY_PG_POOL_MAX?",
      "Unknown setting GATEWAY_SOMETHING_ELSE_ENTIRELY is ignored.",
    ]);
  });
});

interface Served {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The environment `serve` gets in these tests, plus `env`. */
const serveEnv = (env: Record<string, string>, dir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  PORT: "0",
  REDIS_URL: "",
  GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
  DATABASE_URL: `sqlite:${join(dir, "gw.db")}`,
  ...env,
});

/**
 * `serve` with `env` added, run in this process: the `run` that `dist/cli/main.js` calls, with
 * the process's environment. Anything written to the real stdout or stderr meanwhile (around
 * the CLI's io) is added to what the io got, so a stray line still fails the one-line check.
 * A process costs about a second of CPU to start; serveWith runs one setting as a real process.
 */
async function serveInProcess(env: Record<string, string>, dir: string): Promise<Served> {
  const captured = capturingIo({ env: serveEnv(env, dir), cwd: dir });
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    captured.io.stdout(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    captured.io.stderr(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  try {
    // A setting that passes would start serving: end the test instead of waiting for a signal.
    let timer: NodeJS.Timeout | undefined;
    const status = await Promise.race([
      run(["serve"], captured.io),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), 20_000);
      }),
    ]);
    clearTimeout(timer);
    return { status, stdout: captured.stdout(), stderr: captured.stderr() };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

/** `serve` with `env` added, to completion (or the timeout); what an operator would see. */
function serveWith(env: Record<string, string>, dir: string): Promise<Served> {
  const child = spawn("node", [CLI, "serve"], {
    timeout: 60_000,
    stdio: ["ignore", "pipe", "pipe"],
    env: serveEnv(env, dir),
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) =>
    child.once("close", (status) => resolve({ status, stdout, stderr })),
  );
}

describe("serve with a bad setting (real processes)", () => {
  const BAD: Record<string, string>[] = [
    { LOG_LEVEL: "verbose" },
    { REDIS_URL: "redis//cache.internal:6379" },
    { GATEWAY_PG_POOL_MAX: "0" },
    { PORT: "99999" },
    { GATEWAY_TRUST_PROXY: "true" },
    { GATEWAY_MASTER_KEY: "too-short" },
    { GATEWAY_LANGUAGES: "en,!!" },
    { GATEWAY_SCRYPT_COST: "1000" },
    { GATEWAY_CORS_ORIGINS: "app.example.com" },
    { GATEWAY_USER_JWT_AUDIENCE: "orderline-partner-api" },
    { GATEWAY_WEBHOOK_RETENTION_SECONDS: "60" },
    { GATEWAY_HASH_CONCURRENCY: "65" },
    { GATEWAY_DRAIN_READY_SECONDS: "soon" },
    { GATEWAY_CONSOLE_DIR: "/nonexistent/console" },
    { DATABASE_URL: "mysql://db.internal/orderline" },
  ];

  it("exits 2 with one line naming the variable, before it opens (or creates) anything", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    // The first as a real process (main.js: exit status, the process's own stderr), the others
    // through the same `run` in this process, one after the other.
    const [first = {}, ...others] = BAD;
    const results = [await serveWith(first, dir)];
    for (const env of others) results.push(await serveInProcess(env, dir));
    for (const [i, env] of BAD.entries()) {
      const [name] = Object.keys(env);
      const result = results[i] ?? { status: null, stdout: "", stderr: "" };
      expect(result.status, `${name}: ${result.stderr}`).toBe(2);
      const lines = result.stderr.trim().split("\n");
      expect(lines, name).toHaveLength(1);
      expect(lines[0], name).toMatch(new RegExp(`^orderline-gateway: ${name}[= ]`));
      expect(result.stdout, name).not.toContain("listening");
      // Validation comes first: not even the store file was created.
      expect(existsSync(join(dir, "gw.db")), name).toBe(false);
    }
  }, 180_000);

  it("a second instance whose metrics port is taken exits 2 naming GATEWAY_METRICS_LISTEN, without serving", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    // The first instance's metrics listener, as another process on the host holds it.
    const first = createServer();
    await new Promise<void>((resolve) => first.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => first.close(resolve)));
    const { port } = first.address() as AddressInfo;
    const second = await serveWith({ GATEWAY_METRICS_LISTEN: `127.0.0.1:${port}` }, dir);
    expect(second.status, second.stderr).toBe(2);
    expect(second.stderr.trim()).toBe(
      `orderline-gateway: GATEWAY_METRICS_LISTEN=127.0.0.1:${port}: the metrics address is taken by another process; give each instance on a host its own port, or off`,
    );
    expect(second.stdout).not.toContain("listening");
  });

  it("starts on PostgreSQL, warning about an unknown setting and pools that cannot fit max_connections", async () => {
    const databaseUrl = await freshPostgresUrl();
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const child = spawn("node", [CLI, "serve", "--port", "0", "--log-level", "warn"], {
      env: {
        ...process.env,
        REDIS_URL: "",
        DATABASE_URL: databaseUrl,
        GATEWAY_DATA_DIR: dir,
        GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
        GATEWAY_DRAIN_SECOND: "1",
        GATEWAY_PG_POOL_MAX: "50",
        // 50 × 1000 is more than any server here allows.
        GATEWAY_INSTANCES: "1000",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    cleanups.push(async () => {
      child.kill("SIGINT");
      await exited;
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk) => String(chunk).includes("listening") && resolve());
      child.once("exit", () => reject(new Error(`exited early: ${stderr}`)));
    });
    expect(stderr).toContain(
      "warning: Unknown setting GATEWAY_DRAIN_SECOND is ignored. Did you mean GATEWAY_DRAIN_SECONDS?",
    );
    expect(stderr).toMatch(
      /warning: GATEWAY_PG_POOL_MAX=50 × GATEWAY_INSTANCES=1000 = 50000 connections cannot fit the PostgreSQL server's max_connections=\d+ minus \d+ reserved/,
    );
  });
});

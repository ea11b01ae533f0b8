/**
 * The admin CLI as operators run it (the built `dist/cli/main.js` in a child process): only
 * `migrate` and `serve` create a store; every other command refuses a missing or foreign one
 * with a clear message and exit code, as JSON under --json, and each (sub)command has its own
 * complete --help.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PARTNERS } from "../src/cli/commands/partners.js";
import { SIGNING_KEYS } from "../src/cli/commands/signing-keys.js";
import { OVERRIDES, TENANTS, USERS } from "../src/cli/commands/tenants.js";
import { type CommandSpec, optionsOf } from "../src/cli/spec.js";
import { latestVersion } from "../src/store/migrations.js";
import { rsaKeys, tempDir } from "./helpers.js";
import { CLI, runCaptured } from "./support/processes.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const exec = promisify(execFile);

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  expect(existsSync(CLI), "build the package first (npm run build)").toBe(true);
  ({ dir, cleanup } = tempDir());
});
afterAll(() => cleanup());

/** Runs the built CLI in `dir`; resolves with its exit code and output, whatever the code. */
async function gatewayCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeout = 0,
) {
  const merged: NodeJS.ProcessEnv = {
    ...process.env,
    GATEWAY_MASTER_KEY: "",
    GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
    ...env,
  };
  delete merged.DATABASE_URL;
  if (env.DATABASE_URL !== undefined) merged.DATABASE_URL = env.DATABASE_URL;
  try {
    const { stdout, stderr } = await exec("node", [CLI, ...args], {
      cwd: dir,
      env: merged,
      timeout,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * A set-up step, not what a test is about: the same run() the binary calls, in this process and
 * in `dir`, with gatewayCli's environment (a CLI process costs about a second of CPU to start).
 */
async function setUpStep(args: string[]): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, GATEWAY_MASTER_KEY: "" };
  delete env.DATABASE_URL;
  const { code, stderr } = await runCaptured(args, { env, cwd: dir });
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}: ${stderr}`);
}

describe("orderline-gateway on a store that is not there", () => {
  it("refuses a mistyped --db path with exit 3 and creates nothing", async () => {
    const result = await gatewayCli(["partners", "list", "--db", "typo/gatewy.db"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("No store at");
    expect(result.stderr).toContain("orderline-gateway migrate");
    expect(existsSync(join(dir, "typo"))).toBe(false);
    expect(existsSync(join(dir, "data"))).toBe(false);
  });

  it("refuses a missing store before asking for a password", async () => {
    const result = await gatewayCli([
      ...["users", "create", "--tenant", "tnt_x", "--email", "ana@example.com"],
      ...["--role", "admin", "--db", "typo.db"],
    ]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("No store at");
    expect(result.stdout + result.stderr).not.toContain("Password");
  });

  it("refuses a DATABASE_URL of an unsupported kind, without echoing its password", async () => {
    const result = await gatewayCli(["tenants", "list"], {
      DATABASE_URL: "mysql://admin:hunter2@db.example:3306/orders",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("does not support");
    expect(result.stderr).toContain("postgres://");
    expect(result.stderr).not.toContain("hunter2");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("answers errors as JSON under --json, on stderr, with the same exit codes", async () => {
    const missing = await gatewayCli(["partners", "list", "--json", "--db", "nothere.db"]);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe("");
    expect(JSON.parse(missing.stderr)).toEqual({
      error: {
        code: "store_missing",
        message: expect.stringContaining("No store at"),
        exit_code: 3,
      },
    });
    const usage = await gatewayCli(["partners", "create", "--json", "--db", "nothere.db"]);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stderr).error).toMatchObject({
      code: "usage",
      message: "partners create needs --name NAME.",
    });
    const unknownOption = await gatewayCli(["signing-keys", "list", "--json", "--colour"]);
    expect(unknownOption.code).toBe(2);
    expect(JSON.parse(unknownOption.stderr).error.message).toContain("--colour");
  });

  it("migrate --json creates the store, 0600 in a 0700 directory, and then the others work", async () => {
    const created = await gatewayCli(["migrate", "--json", "--db", "fresh/gateway.db"]);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({
      store: "sqlite",
      schema_version: expect.any(Number),
    });
    expect(statSync(join(dir, "fresh")).mode & 0o777).toBe(0o700);
    for (const file of ["gateway.db", "gateway.db-wal", "master.key"]) {
      if (existsSync(join(dir, "fresh", file)))
        expect(statSync(join(dir, "fresh", file)).mode & 0o777, file).toBe(0o600);
    }
    const list = await gatewayCli(["partners", "list", "--json", "--db", "fresh/gateway.db"]);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it("refuses a store that lacks a migration, naming the command that brings it up to date", async () => {
    await setUpStep(["migrate", "--db", "behind.db"]);
    const db = new Database(join(dir, "behind.db"));
    db.prepare("DELETE FROM schema_migrations WHERE version = ?").run(latestVersion("sqlite"));
    db.close();
    const result = await gatewayCli(["tenants", "list", "--json", "--db", "behind.db"]);
    expect(result.code).toBe(3);
    const { error } = JSON.parse(result.stderr);
    expect(error.code).toBe("store_outdated");
    expect(error.message).toContain(`this build needs ${latestVersion("sqlite")}`);
    expect(error.message).toContain("orderline-gateway migrate");
  });

  it("a store a newer release upgraded: serve, migrate and admin commands exit 2 naming both versions, and nothing is served", async () => {
    await setUpStep(["migrate", "--db", "ahead.db"]);
    const newer = latestVersion("sqlite") + 1;
    const db = new Database(join(dir, "ahead.db"));
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
      newer,
      "from_a_newer_release",
      Date.now(),
    );
    db.close();
    for (const args of [
      ["serve", "--port", "0", "--db", "ahead.db"],
      ["migrate", "--json", "--db", "ahead.db"],
      ["partners", "list", "--json", "--db", "ahead.db"],
    ]) {
      // Before the refusal, serve listened on the store: the time limit ends such a run.
      const result = await gatewayCli(args, {}, 20_000);
      expect(result.code, args[0]).toBe(2);
      expect(result.stdout, args[0]).not.toContain("listening on");
      expect(result.stderr, args[0]).toContain(`schema version ${newer}`);
      expect(result.stderr, args[0]).toContain(
        `newer than this build knows (${latestVersion("sqlite")})`,
      );
    }
  });

  it("names the openssl command when given a certificate instead of a public key", async () => {
    const keys = rsaKeys();
    writeFileSync(join(dir, "key.pem"), keys.privatePem);
    execFileSync("openssl", [
      "req",
      ...["-x509", "-new", "-key", join(dir, "key.pem"), "-subj", "/CN=partner", "-days", "1"],
      ...["-out", join(dir, "cert.pem")],
    ]);
    await setUpStep(["migrate", "--db", "certs.db"]);
    const result = await gatewayCli([
      ...["partners", "create", "--name", "Acme", "--public-key", "cert.pem"],
      ...["--db", "certs.db"],
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("certificate");
    expect(result.stderr).toContain("openssl x509 -in cert.pem -pubkey -noout");
  });
});

describe.each(storeKinds.filter((k) => k === "postgres"))("on PostgreSQL (%s)", (kind) => {
  it("refuses a database without an Orderline store and leaves it empty", async () => {
    const url = await freshDatabaseUrl(kind, dir);
    const result = await gatewayCli(["partners", "list"], { DATABASE_URL: url });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("holds no Orderline store");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema()",
      );
      expect(rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
  });
});

describe("--help", () => {
  const subcommands: CommandSpec[] = [PARTNERS, SIGNING_KEYS, TENANTS, USERS, OVERRIDES].flatMap(
    (group) => Object.values(group.subcommands),
  );

  it.each(subcommands.map((spec) => [spec.name, spec] as const))(
    "%s --help is its own and lists every option it takes",
    async (name, spec) => {
      // In process (the same run() the binary calls): a process each would cost a second.
      const result = await runCaptured([...name.split(" "), "--help"], { env: {}, cwd: dir });
      expect(result.code).toBe(0);
      const help = result.output;
      expect(help.startsWith(`Usage: orderline-gateway ${name}`)).toBe(true);
      for (const option of Object.keys(optionsOf(spec))) expect(help).toContain(`--${option}`);
    },
  );

  it("migrate --help and serve --help (the built command) describe their own options", async () => {
    const migrate = await gatewayCli(["migrate", "--help"]);
    expect(migrate.stdout).toMatch(/^Usage: orderline-gateway migrate/);
    expect(migrate.stdout).toContain("--json");
    const serve = await gatewayCli(["serve", "--help"]);
    for (const option of ["--port", "--host", "--log-level", "--demo", "--db"])
      expect(serve.stdout).toContain(option);
    expect(serve.stdout).toContain("127.0.0.1");
  });
});

describe("what an admin command loads", () => {
  /** The modules `node dist/cli/main.js ARGS` loaded, as URLs (an ESM load hook records them). */
  async function modulesLoadedBy(args: string[]): Promise<string[]> {
    const list = join(dir, `loaded-${args[0]}.txt`);
    const hooks = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(list)}, url + "\\n");
  return next(url, context);
}`;
    const register = `import { register } from "node:module";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
    await exec(
      "node",
      ["--import", `data:text/javascript,${encodeURIComponent(register)}`, CLI, ...args],
      {
        cwd: dir,
        env: { ...process.env, GATEWAY_MASTER_KEY: "", DATABASE_URL: "" },
      },
    );
    return readFileSync(list, "utf8").split("\n").filter(Boolean);
  }
  const http = (url: string) =>
    url.includes("/node_modules/fastify/") || /\/dist\/(gateway|http\/app)\.js$/.test(url);

  it("runs partners list without the HTTP gateway (Fastify, the routes); serve --help too", async () => {
    await setUpStep(["migrate", "--db", "loads.db"]);
    const list = await modulesLoadedBy(["partners", "list", "--db", "loads.db"]);
    // The hook saw the command's own modules, so what it did not see was not loaded.
    expect(list.some((url) => url.endsWith("/dist/cli/commands/partners.js"))).toBe(true);
    expect(list.some((url) => url.endsWith("/dist/core.js"))).toBe(true);
    expect(list.filter(http)).toEqual([]);
    expect((await modulesLoadedBy(["serve", "--help"])).filter(http)).toEqual([]);
  });
});

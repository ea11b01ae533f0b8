import { execFile, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "../src/cli/commands/serve.js";
import { DEMO_ADMIN_EMAIL } from "../src/cli/demo.js";
import { tempDir } from "./helpers.js";
import { capturingIo, runCaptured } from "./support/processes.js";

const BIN = fileURLToPath(new URL("../bin/orderline-gateway.js", import.meta.url));
const ENV = { DATABASE_URL: undefined, GATEWAY_MASTER_KEY: undefined, GATEWAY_SCRYPT_COST: "1024" };

let dir: string;
let cleanup: () => void;
beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  // Only migrate (and serve) create a store; every other command needs one.
  expect((await cli(["migrate"])).code).toBe(0);
});
afterAll(() => cleanup());

function cli(argv: string[], secret?: string) {
  return runCaptured([...argv, "--db", "tenants.db"], { env: ENV, cwd: dir, secret: secret ?? "" });
}

async function newTenant(name: string): Promise<string> {
  const created = await cli(["tenants", "create", "--name", name, "--json"]);
  expect(created.code).toBe(0);
  return JSON.parse(created.stdout).tenant_id;
}

describe("orderline-gateway tenants, users, overrides", () => {
  it("creates and lists tenants", async () => {
    const id = await newTenant("Acme Foods");
    expect(id).toMatch(/^tnt_[0-9a-f]{32}$/);
    const list = await cli(["tenants", "list"]);
    expect(list.stdout).toContain(`${id}  Acme Foods`);
    expect((await cli(["tenants", "create"])).code).toBe(2);
  });

  it("creates a user with the password read as a secret, never from a flag", async () => {
    const tenant = await newTenant("Users Inc");
    const created = await cli(
      [
        "users",
        "create",
        "--tenant",
        tenant,
        "--email",
        "Ops@Users.example",
        "--role",
        "admin",
        "--json",
      ],
      "a long enough password",
    );
    expect(created.code).toBe(0);
    expect(created.prompts).toEqual(["Password for Ops@Users.example: "]);
    expect(JSON.parse(created.stdout)).toMatchObject({
      email: "ops@users.example",
      role: "admin",
      language: "en",
    });
    expect(created.stdout).not.toContain("a long enough password");

    const flag = await cli([
      "users",
      "create",
      "--tenant",
      tenant,
      "--email",
      "x@users.example",
      "--role",
      "member",
      "--password",
      "secret",
    ]);
    expect(flag.code).toBe(2);
    const short = await cli(
      ["users", "create", "--tenant", tenant, "--email", "y@users.example", "--role", "member"],
      "short",
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("at least 12 characters");
    const taken = await cli(
      ["users", "create", "--tenant", tenant, "--email", "ops@users.example", "--role", "member"],
      "another long password",
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("already exists");
    const role = await cli(
      ["users", "create", "--tenant", tenant, "--email", "z@users.example", "--role", "owner"],
      "another long password",
    );
    expect(role.code).toBe(2);
    const noTenant = await cli(
      [
        "users",
        "create",
        "--tenant",
        "tnt_missing",
        "--email",
        "z@users.example",
        "--role",
        "member",
      ],
      "another long password",
    );
    expect(noTenant.code).toBe(1);
    expect(noTenant.stderr).toContain("No tenant");
    const reset = await cli(
      ["users", "set-password", "--email", "ops@users.example"],
      "the replacement password",
    );
    expect(reset.code).toBe(0);
    expect(reset.prompts).toEqual(["New password for ops@users.example: "]);
    const unknown = await cli(
      ["users", "set-password", "--email", "ghost@users.example"],
      "the replacement password",
    );
    expect(unknown.code).toBe(1);
    const list = await cli(["users", "list", "--tenant", tenant]);
    expect(list.stdout).toContain("admin   en     ops@users.example");
  });

  /**
   * Runs the real command on a terminal (`script` gives it a pseudo-terminal) and types each
   * answer once its prompt shows, or every answer at once at the first prompt (`pasted`).
   * Returns everything the terminal displayed.
   */
  function onTerminal(args: string[], answers: string[], pasted = false) {
    const command = [process.execPath, BIN, ...args, "--db", "tenants.db"]
      .map((a) => `'${a}'`)
      .join(" ");
    return new Promise<{ code: number | null; screen: string }>((resolve) => {
      const child = spawn("script", ["-qec", command, "/dev/null"], {
        cwd: dir,
        env: { ...process.env, ...ENV, DATABASE_URL: "" },
      });
      let screen = "";
      let answered = 0;
      const onOutput = (chunk: Buffer) => {
        screen += chunk.toString("utf8");
        const prompts = screen.match(/Password for [^:]+: |Repeat it: /g)?.length ?? 0;
        if (pasted && prompts > 0 && answered === 0) {
          child.stdin.write(answers.map((a) => `${a}\r`).join(""));
          answered = answers.length;
        }
        while (answered < prompts && answered < answers.length) {
          child.stdin.write(`${answers[answered++]}\r`);
        }
      };
      child.stdout.on("data", onOutput);
      child.stderr.on("data", onOutput);
      child.on("exit", (code) => resolve({ code, screen }));
    });
  }

  it("asks for the password twice on a terminal without showing what is typed", async () => {
    const tenant = await newTenant("Terminal Co");
    const create = ["users", "create", "--tenant", tenant, "--role", "member", "--email"];
    const ok = await onTerminal(
      [...create, "tty@terminal.example"],
      ["typed on the terminal", "typed on the terminal"],
    );
    expect(ok.code).toBe(0);
    expect(ok.screen).toContain("Password for tty@terminal.example: ");
    expect(ok.screen).toContain("Repeat it: ");
    expect(ok.screen).toContain("email:    tty@terminal.example");
    expect(ok.screen).not.toContain("typed on the terminal");

    const differ = await onTerminal(
      [...create, "typo@terminal.example"],
      ["typed on the terminal", "typed on the terminel"],
    );
    expect(differ.code).toBe(1);
    expect(differ.screen).toContain("The two entries differ.");
    expect(differ.screen).not.toContain("typed on the termin");

    // Both entries typed ahead (or pasted) in one go: each still goes to its own prompt.
    const ahead = await onTerminal(
      [...create, "ahead@terminal.example"],
      ["typed ahead of time", "typed ahead of time"],
      true,
    );
    expect(ahead.code).toBe(0);
    expect(ahead.screen).toContain("Repeat it: ");
    expect(ahead.screen).not.toContain("typed ahead of time");

    const list = await cli(["users", "list", "--tenant", tenant]);
    expect(list.stdout).toContain("tty@terminal.example");
    expect(list.stdout).toContain("ahead@terminal.example");
    expect(list.stdout).not.toContain("typo@terminal.example");
  });

  it("reads the password from piped stdin in the real command", async () => {
    const tenant = await newTenant("Pipe Co");
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          [
            BIN,
            "users",
            "create",
            "--tenant",
            tenant,
            "--email",
            "pipe@pipe.example",
            "--role",
            "member",
            "--json",
            "--db",
            "tenants.db",
          ],
          { cwd: dir, env: { ...process.env, ...ENV, DATABASE_URL: "" } },
          (error, stdout, stderr) =>
            resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
        child.stdin?.end("piped password 123\n");
      },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).email).toBe("pipe@pipe.example");
    // The piped password signs in.
    const { createGateway } = await import("../src/gateway.js");
    const { loadConfig } = await import("../src/config/config.js");
    const { createLogger } = await import("../src/http/logger.js");
    const gw = await createGateway({
      config: loadConfig(ENV, { databaseUrl: `sqlite:${join(dir, "tenants.db")}`, dataDir: dir }),
      logger: createLogger("silent"),
    });
    try {
      const login = await gw.app.inject({
        method: "POST",
        url: "/v1/auth/login",
        payload: { email: "pipe@pipe.example", password: "piped password 123" },
      });
      expect(login.statusCode).toBe(200);
    } finally {
      await gw.close();
    }
  });

  it("imports and exports overrides as <language>/<namespace>.json, all or nothing", async () => {
    const tenant = await newTenant("Words Ltd");
    const source = join(dir, "words-in");
    mkdirSync(join(source, "en"), { recursive: true });
    mkdirSync(join(source, "de"), { recursive: true });
    writeFileSync(
      join(source, "en", "common.json"),
      JSON.stringify({ header: { title: "Bookings" } }),
    );
    writeFileSync(join(source, "de", "booking.json"), JSON.stringify({ title: "Buchungen" }));
    const imported = await cli(["overrides", "import", "--tenant", tenant, "--dir", "words-in"]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain("en/common: 1 added, 0 changed, 0 removed");
    expect(imported.stdout).toContain("de/booking: 1 added");

    // One bad file: nothing of the batch is written.
    writeFileSync(
      join(source, "en", "common.json"),
      JSON.stringify({ header: { title: "Changed" } }),
    );
    writeFileSync(join(source, "de", "zz.json"), JSON.stringify({ constructor: "x" }));
    const refused = await cli(["overrides", "import", "--tenant", tenant, "--dir", "words-in"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("constructor");

    const exported = await cli(["overrides", "export", "--tenant", tenant, "--dir", "words-out"]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "words-out", "en", "common.json"), "utf8"))).toEqual({
      header: { title: "Bookings" },
    });
    expect(JSON.parse(readFileSync(join(dir, "words-out", "de", "booking.json"), "utf8"))).toEqual({
      title: "Buchungen",
    });
    const unknownLanguage = join(dir, "words-xx");
    mkdirSync(join(unknownLanguage, "xx"), { recursive: true });
    writeFileSync(join(unknownLanguage, "xx", "common.json"), "{}");
    const language = await cli(["overrides", "import", "--tenant", tenant, "--dir", "words-xx"]);
    expect(language.code).toBe(1);
    expect(language.stderr).toContain("not a supported language");
  });

  it("partners create --tenant assigns the partner's orders to the tenant", async () => {
    const tenant = await newTenant("Partnered");
    const created = await cli([
      "partners",
      "create",
      "--name",
      "Supplier",
      "--tenant",
      tenant,
      "--json",
    ]);
    expect(created.code).toBe(0);
    const list = await cli(["partners", "list", "--json"]);
    const partner = JSON.parse(list.stdout).find(
      (p: { client_id: string }) => p.client_id === JSON.parse(created.stdout).client_id,
    );
    expect(partner.tenant_id).toBe(tenant);
    const clientId = JSON.parse(created.stdout).client_id;
    const other = await newTenant("Other Owner");
    expect((await cli(["partners", "set-tenant", clientId, "--tenant", other])).code).toBe(0);
    expect((await cli(["partners", "list"])).stdout).toContain(`tenant ${other}`);
    expect((await cli(["partners", "set-tenant", clientId, "--tenant", "none"])).code).toBe(0);
    expect((await cli(["partners", "set-tenant", clientId, "--tenant", "tnt_nope"])).code).toBe(1);
    const missing = await cli(["partners", "create", "--name", "Lost", "--tenant", "tnt_nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No tenant");
  });
});

describe("serve --demo with a demo tenant", () => {
  it("creates a demo tenant admin whose printed sign-in works and sees the demo partner's orders", async () => {
    const { dir: demoDir, cleanup: demoCleanup } = tempDir();
    const where = {
      env: { GATEWAY_SCRYPT_COST: "1024", GATEWAY_METRICS_LISTEN: "127.0.0.1:0" },
      cwd: demoDir,
    };
    const captured = capturingIo(where);
    const server = await serve(
      ["--port", "0", "--host", "127.0.0.1", "--demo", "--log-level", "warn"],
      captured.io,
    );
    try {
      const printed = captured.output();
      const password = /password: (\S+)/.exec(printed)?.[1] as string;
      expect(printed).toContain(DEMO_ADMIN_EMAIL);
      expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
      const login = await fetch(`${server.url}/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: DEMO_ADMIN_EMAIL, password }),
      });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const vocabulary = await fetch(`${server.url}/v1/tenant/i18n-config`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(await vocabulary.json()).toEqual({
        data: { namespace: "common", language: "en", overrides: { app: { name: "Demo Orders" } } },
      });
      // The demo partner belongs to the demo tenant: its order shows in the tenant's list.
      const { execFile: exec } = await import("node:child_process");
      await new Promise((resolve, reject) =>
        exec("node", ["data/demo/create-order.mjs"], { cwd: demoDir }, (e) =>
          e ? reject(e) : resolve(null),
        ),
      );
      const orders = await fetch(`${server.url}/v1/orders`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(((await orders.json()) as { data: unknown[] }).data).toHaveLength(1);
    } finally {
      await server.close();
    }
    // A second start creates no second tenant and prints no password.
    captured.clear();
    const again = await serve(
      ["--port", "0", "--host", "127.0.0.1", "--demo", "--log-level", "warn"],
      captured.io,
    );
    await again.close();
    expect(captured.output()).not.toContain("password:");
    const list = await runCaptured(["tenants", "list", "--json"], where);
    expect(JSON.parse(list.stdout)).toHaveLength(1);
    demoCleanup();
  });
});

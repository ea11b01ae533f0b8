import { execFile } from "node:child_process";
import { createPublicKey } from "node:crypto";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "../src/cli/commands/serve.js";
import { type RsaKeys, rsaKeys, tempDir } from "./helpers.js";
import { capturingIo, runCaptured } from "./support/processes.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const exec = promisify(execFile);

let dir: string;
let cleanup: () => void;
let keys: RsaKeys;
let secondKeys: RsaKeys;
/** The store the partners commands run against (`--db`): a file, or a PostgreSQL URL. */
let db = "admin.db";

beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  keys = rsaKeys();
  secondKeys = rsaKeys();
  writeFileSync(join(dir, "partner.pem"), keys.publicPem);
  writeFileSync(join(dir, "second.pem"), secondKeys.publicPem);
});
afterAll(() => cleanup());

function cli(...argv: string[]) {
  return runCaptured([...argv, "--db", db], {
    env: { DATABASE_URL: undefined, GATEWAY_MASTER_KEY: undefined },
    cwd: dir,
  });
}

async function createPartner() {
  const created = await cli(
    "partners",
    "create",
    "--name",
    "Acme Retail",
    "--public-key",
    "partner.pem",
    "--json",
  );
  expect(created.code).toBe(0);
  return JSON.parse(created.stdout) as { client_id: string; client_secret: string; key_id: string };
}

async function listed(clientId: string) {
  const list = await cli("partners", "list", "--json");
  return (
    JSON.parse(list.stdout) as {
      client_id: string;
      status: string;
      secret_version: number;
      signature_version: number;
      keys: { key_id: string; revoked_at: string | null }[];
    }[]
  ).find((p) => p.client_id === clientId);
}

describe.each(storeKinds)("orderline-gateway partners (%s store)", (kind) => {
  beforeAll(async () => {
    db = kind === "sqlite" ? "admin.db" : await freshDatabaseUrl("postgres", dir);
    // Only migrate (and serve) create a store; every other command needs one.
    expect((await cli("migrate")).code).toBe(0);
  });

  it("create --json prints one JSON object with the credentials, once", async () => {
    const created = await createPartner();
    expect(created.client_id).toMatch(/^olc_[0-9a-f]{24}$/);
    expect(created.client_secret).toMatch(/^ols_[A-Za-z0-9_-]{43}$/);
    expect(created.key_id).toMatch(/^key_/);
    const list = await cli("partners", "list", "--json");
    expect(list.stdout).not.toContain(created.client_secret);
  });

  it("create without --json prints the secret with a warning, and without --name is a usage error", async () => {
    const created = await cli("partners", "create", "--name", "Plain Text");
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/client_secret: ols_/);
    expect(created.stdout).toContain("shown only now");
    const missing = await cli("partners", "create");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--name");
  });

  it("add-key explains how to convert a PKCS#1 RSA PUBLIC KEY", async () => {
    const { client_id } = await createPartner();
    const pkcs1 = createPublicKey(secondKeys.publicPem)
      .export({ type: "pkcs1", format: "pem" })
      .toString();
    expect(pkcs1).toContain("BEGIN RSA PUBLIC KEY");
    writeFileSync(join(dir, "pkcs1.pem"), pkcs1);
    const result = await cli("partners", "add-key", client_id, "--public-key", "pkcs1.pem");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("PKCS#1");
    expect(result.stderr).toContain("openssl rsa -RSAPublicKey_in -in key.pem -pubout");
  });

  it("add-key refuses a 1024-bit key and a private key", async () => {
    const { client_id } = await createPartner();
    writeFileSync(join(dir, "small.pem"), rsaKeys(1024).publicPem);
    const small = await cli("partners", "add-key", client_id, "--public-key", "small.pem");
    expect(small.code).toBe(1);
    expect(small.stderr).toContain("1024 bits; at least 2048");
    writeFileSync(join(dir, "private.pem"), keys.privatePem);
    const priv = await cli("partners", "add-key", client_id, "--public-key", "private.pem");
    expect(priv.code).toBe(1);
    expect(priv.stderr).toContain("private key");
  });

  it("add-key allows two active keys, refuses a third, and revoke-key frees a slot", async () => {
    const { client_id, key_id } = await createPartner();
    const second = await cli(
      "partners",
      "add-key",
      client_id,
      "--public-key",
      "second.pem",
      "--json",
    );
    expect(second.code).toBe(0);
    writeFileSync(join(dir, "third.pem"), rsaKeys().publicPem);
    const third = await cli("partners", "add-key", client_id, "--public-key", "third.pem");
    expect(third.code).toBe(1);
    expect(third.stderr).toContain("2 active keys");
    expect((await cli("partners", "revoke-key", client_id, key_id)).code).toBe(0);
    expect(
      (await listed(client_id))?.keys.find((k) => k.key_id === key_id)?.revoked_at,
    ).not.toBeNull();
    expect((await cli("partners", "add-key", client_id, "--public-key", "third.pem")).code).toBe(0);
    const again = await cli("partners", "revoke-key", client_id, key_id);
    expect(again.code).toBe(1);
  });

  it("rotate-secret prints a new secret and bumps the secret version", async () => {
    const { client_id, client_secret } = await createPartner();
    const before = Date.now();
    const rotated = await cli("partners", "rotate-secret", client_id, "--json");
    const answer = JSON.parse(rotated.stdout);
    expect(answer.client_secret).toMatch(/^ols_/);
    expect(answer.client_secret).not.toBe(client_secret);
    // By default the old secret keeps working for 24 hours.
    const until = Date.parse(answer.previous_secret_valid_until);
    expect(until).toBeGreaterThanOrEqual(before + 24 * 3600_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    expect(await listed(client_id)).toMatchObject({
      secret_version: 2,
      previous_secret_valid_until: answer.previous_secret_valid_until,
    });
  });

  it("rotate-secret takes --grace DURATION or --immediately, and refuses anything else", async () => {
    const { client_id } = await createPartner();
    const before = Date.now();
    const graced = await cli("partners", "rotate-secret", client_id, "--grace", "90m", "--json");
    expect(graced.code).toBe(0);
    const until = Date.parse(JSON.parse(graced.stdout).previous_secret_valid_until);
    expect(until).toBeGreaterThanOrEqual(before + 90 * 60_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 90 * 60_000);

    const now = await cli("partners", "rotate-secret", client_id, "--immediately");
    expect(now.code).toBe(0);
    expect(now.stdout).toContain("The old secret and every token issued with it no longer work.");
    expect(await listed(client_id)).toMatchObject({
      secret_version: 3,
      previous_secret_valid_until: null,
    });

    for (const bad of [
      ["--grace", "soon"],
      ["--grace", "31d"],
      ["--grace", "1h", "--immediately"],
    ]) {
      const refused = await cli("partners", "rotate-secret", client_id, ...bad);
      expect(refused.code, bad.join(" ")).not.toBe(0);
      expect(refused.stderr, bad.join(" ")).toMatch(/--grace|grace period/);
    }
    // Nothing was rotated by the refused commands.
    expect((await listed(client_id))?.secret_version).toBe(3);
  });

  it("disable and enable change the status", async () => {
    const { client_id } = await createPartner();
    expect((await cli("partners", "disable", client_id)).code).toBe(0);
    expect((await listed(client_id))?.status).toBe("disabled");
    expect((await cli("partners", "enable", client_id)).code).toBe(0);
    expect((await listed(client_id))?.status).toBe("active");
  });

  it("require-signature-v2 and allow-signature-v1 set the partner's signature version", async () => {
    const { client_id } = await createPartner();
    expect((await listed(client_id))?.signature_version).toBe(1);
    const required = await cli("partners", "require-signature-v2", client_id, "--json");
    expect(required.code).toBe(0);
    expect(JSON.parse(required.stdout)).toEqual({ client_id, signature_version: 2 });
    expect((await listed(client_id))?.signature_version).toBe(2);
    expect((await cli("partners", "list")).stdout).toContain("signature v2 only");
    expect((await cli("partners", "allow-signature-v1", client_id)).code).toBe(0);
    expect((await listed(client_id))?.signature_version).toBe(1);
    const unknown = await cli("partners", "require-signature-v2", "olc_nobody");
    expect(unknown.code).toBe(1);
    expect((await cli("partners", "require-signature-v2")).code).toBe(2);
  });

  it("reports an unknown partner and an unknown command", async () => {
    const unknown = await cli("partners", "disable", "olc_nobody");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No partner with client_id 'olc_nobody'");
    expect((await cli("partners", "frobnicate")).code).toBe(2);
    expect((await cli("launch")).code).toBe(2);
  });

  it("list prints a readable table", async () => {
    const { client_id } = await createPartner();
    const list = await cli("partners", "list");
    expect(list.stdout).toContain(client_id);
    expect(list.stdout).toContain("2048 bits");
  });
});

describe("orderline-gateway serve --demo", () => {
  it("creates a demo partner whose scripts log in and create an order", async () => {
    const { dir: demoDir, cleanup: demoCleanup } = tempDir();
    const where = {
      // A free metrics port: a taken one stops serve (exit 2), and test files run in parallel.
      env: { GATEWAY_METRICS_LISTEN: "127.0.0.1:0" },
      cwd: demoDir,
    };
    const captured = capturingIo(where);
    const server = await serve(
      ["--port", "0", "--host", "127.0.0.1", "--demo", "--log-level", "warn"],
      captured.io,
    );
    try {
      const printed = captured.output();
      expect(printed).toContain("sh data/demo/create-order.sh");
      expect(printed).toContain("node data/demo/create-order.mjs");
      expect(statSync(join(demoDir, "data/demo/private.pem")).mode & 0o077).toBe(0);
      // Orders and personal data: the store, its WAL and SHM are the owner's alone.
      expect(statSync(join(demoDir, "data")).mode & 0o777).toBe(0o700);
      for (const file of ["gateway.db", "gateway.db-wal", "gateway.db-shm", "master.key"])
        expect(statSync(join(demoDir, "data", file)).mode & 0o777, file).toBe(0o600);
      const node = await exec("node", ["data/demo/create-order.mjs"], { cwd: demoDir });
      expect(node.stdout).toMatch(/^201 /);
      expect(node.stdout).toContain("Sales order created");
      const shell = await exec("sh", ["data/demo/create-order.sh"], { cwd: demoDir });
      expect(JSON.parse(shell.stdout).message).toBe("Sales order created");
    } finally {
      await server.close();
    }
    // A second start finds the partner and prints the same instructions without creating another.
    captured.clear();
    const again = await serve(
      ["--port", "0", "--host", "127.0.0.1", "--demo", "--log-level", "warn"],
      captured.io,
    );
    await again.close();
    expect(captured.output()).toContain("create-order.sh");
    const list = await runCaptured(["partners", "list", "--json"], where);
    expect(JSON.parse(list.stdout)).toHaveLength(1);
    expect(existsSync(join(demoDir, "data/gateway.db"))).toBe(true);
    demoCleanup();
  });

  it("names the console's address when it serves one, and only then", async () => {
    const { dir, cleanup } = tempDir();
    mkdirSync(join(dir, "console"));
    writeFileSync(join(dir, "console", "index.html"), "<!doctype html><title>Console</title>");
    const printed = async (consoleDir: string) => {
      const captured = capturingIo({
        env: { GATEWAY_CONSOLE_DIR: consoleDir, GATEWAY_METRICS_LISTEN: "127.0.0.1:0" },
        cwd: dir,
      });
      const server = await serve(["--port", "0", "--log-level", "warn"], captured.io);
      try {
        const page = await fetch(`${server.url}/console/`);
        return { text: captured.stdout(), url: server.url, consoleStatus: page.status };
      } finally {
        await server.close();
      }
    };
    try {
      const served = await printed(join(dir, "console"));
      expect(served.consoleStatus).toBe(200);
      expect(served.text).toContain(`console: ${served.url}/console/`);
      const off = await printed("off");
      expect(off.consoleStatus).toBe(404);
      expect(off.text).not.toContain("console:");
    } finally {
      cleanup();
    }
  });

  it("listens on 127.0.0.1 unless told otherwise", async () => {
    const { dir: hostDir, cleanup: hostCleanup } = tempDir();
    const { io } = capturingIo({ env: { GATEWAY_METRICS_LISTEN: "127.0.0.1:0" }, cwd: hostDir });
    const server = await serve(["--port", "0", "--log-level", "warn"], io);
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      await server.close();
      hostCleanup();
    }
  });
});

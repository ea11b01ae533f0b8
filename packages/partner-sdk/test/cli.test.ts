import { execFile } from "node:child_process";
import { createPublicKey, verify } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringToSignV2 } from "../src/index.js";
import {
  createPartner,
  order,
  type RunningGateway,
  runGateway,
  type TestPartner,
} from "./support/gateway.js";

const BIN = fileURLToPath(new URL("../bin/orderline-partner.js", import.meta.url));

let gateway: RunningGateway;
let partner: TestPartner;
let dir: string;
let keyFile: string;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a separate process (the gateway in this process keeps serving meanwhile). */
function cli(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return new Promise((resolve) => {
    execFile(
      "node",
      [BIN, ...args],
      {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? "",
          ORDERLINE_BASE_URL: gateway.url,
          ORDERLINE_CLIENT_ID: partner.clientId,
          ORDERLINE_CLIENT_SECRET: partner.clientSecret,
          ORDERLINE_PRIVATE_KEY_FILE: keyFile,
          ...env,
        },
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  gateway = await runGateway();
  partner = await createPartner(gateway.gw);
  dir = mkdtempSync(join(tmpdir(), "orderline-partner-cli-"));
  keyFile = join(dir, "partner.pem");
  writeFileSync(keyFile, partner.keys.privatePem);
});
afterAll(async () => {
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("orderline-partner", () => {
  it("keygen writes a 0600 private key and prints a public key the gateway registers", async () => {
    const result = await cli(["keygen", "--out", "new.pem", "--json"]);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(statSync(join(dir, "new.pem")).mode & 0o777).toBe(0o600);
    expect(out.public_key_pem).toContain("-----BEGIN PUBLIC KEY-----");
    expect(result.stdout).not.toContain("PRIVATE KEY");
    const registered = await gateway.gw.partners.create("Keygen Partner", out.public_key_pem);
    expect(registered.keyId).toMatch(/^key_/);
    const again = await cli(["keygen", "--out", "new.pem"]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("--force");
  });

  it("sign prints the string-to-sign and a signature that verifies with the public key", async () => {
    const result = await cli(["sign", "--timestamp", "1767225600", "--json"]);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.string_to_sign).toBe(`${partner.clientId}|1767225600`);
    const ok = verify(
      "sha256",
      Buffer.from(out.string_to_sign),
      createPublicKey(partner.keys.publicPem),
      Buffer.from(out.headers["x-signature"], "base64"),
    );
    expect(ok).toBe(true);
    const text = await cli(["sign", "--timestamp", "1767225600"]);
    expect(text.stdout).toContain(`"${partner.clientId}|1767225600"`);
    expect(text.stdout).toContain(`X-SIGNATURE: ${out.headers["x-signature"]}`);
  });

  it("sign covers method, path and body with --signature-version 2", async () => {
    writeFileSync(join(dir, "body.json"), '{"a":1}');
    const result = await cli([
      "sign",
      "--signature-version",
      "2",
      "--timestamp",
      "1767225600",
      "--method",
      "post",
      "--path",
      "/api/v1/sales-orders",
      "--body-file",
      "body.json",
      "--json",
    ]);
    const out = JSON.parse(result.stdout);
    expect(out.string_to_sign).toBe(
      stringToSignV2({
        clientId: partner.clientId,
        timestamp: "1767225600",
        method: "POST",
        target: "/api/v1/sales-orders",
        body: '{"a":1}',
      }),
    );
    expect(out.headers["x-signature-version"]).toBe("2");
  });

  it("login prints the token and its expiry, never the secret", async () => {
    const result = await cli(["login", "--json"]);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.token.split(".")).toHaveLength(3);
    expect(out.expired_at).toBeGreaterThan(Date.now() / 1000);
    expect(result.stdout + result.stderr).not.toContain(partner.clientSecret);
  });

  it("orders create, get and list run against the gateway", async () => {
    writeFileSync(join(dir, "order.json"), JSON.stringify(order({ purchase_order_no: "CLI-1" })));
    const created = await cli(["orders", "create", "--file", "order.json", "--json"]);
    expect(created.code).toBe(0);
    const createdOrder = JSON.parse(created.stdout);
    expect(createdOrder.purchase_order_no).toBe("CLI-1");
    const got = await cli(["orders", "get", createdOrder.id, "--json"]);
    expect(JSON.parse(got.stdout).id).toBe(createdOrder.id);
    const listed = await cli(["orders", "list", "--all", "--json"]);
    expect(JSON.parse(listed.stdout).map((o: { id: string }) => o.id)).toContain(createdOrder.id);
    const text = await cli(["orders", "list"]);
    expect(text.stdout).toContain(createdOrder.order_number);
  });

  it("exits 1 with the problem's code when the gateway refuses", async () => {
    writeFileSync(join(dir, "bad.json"), JSON.stringify(order({ products: [] })));
    const result = await cli(["orders", "create", "--file", "bad.json", "--json"]);
    expect(result.code).toBe(1);
    const out = JSON.parse(result.stdout);
    expect(out.error.code).toBe("validation_failed");
    expect(out.error.request_id).toMatch(/\S/);
    const text = await cli(["orders", "get", "missing-id"]);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("order_not_found");
  });

  it("exits 2 on usage and configuration mistakes, saying what is missing", async () => {
    const noKey = await cli(["login"], { ORDERLINE_PRIVATE_KEY_FILE: "" });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("ORDERLINE_PRIVATE_KEY_FILE");
    const badJson = await cli(["orders", "create", "--file", "missing.json", "--json"]);
    expect(badJson.code).toBe(2);
    expect(JSON.parse(badJson.stdout).error.code).toBe("usage");
    expect((await cli(["orders", "cancel", "x"])).code).toBe(2);
    expect((await cli(["frobnicate"])).code).toBe(2);
  });

  it("exits 3 when the gateway cannot be reached", async () => {
    const result = await cli(["login"], { ORDERLINE_BASE_URL: "http://127.0.0.1:9" });
    expect(result.code).toBe(3);
  });

  it("has --help for every command", async () => {
    for (const command of ["keygen", "sign", "login", "orders"]) {
      const result = await cli([command, "--help"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`orderline-partner ${command}`);
    }
    const top = await cli(["--help"]);
    expect(top.stdout).toContain("Exit codes");
    expect(readFileSync(BIN, "utf8")).toContain("dist/cli/main.js");
  });
});

/**
 * The partner examples (examples/partner/) run as a partner would run them, against the real
 * gateway, for a partner that requires signature version 2: each must create an order.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartnerClient } from "../src/index.js";
import {
  createPartner,
  type RunningGateway,
  runGateway,
  type TestPartner,
} from "./support/gateway.js";
import { runtime } from "./support/runtime.js";

const EXAMPLES = fileURLToPath(new URL("../../../examples/partner/", import.meta.url));

const hasJava = runtime("java", ["-version"], "apt-get install default-jdk-headless", true);
const hasPython = runtime("python3", ["--version"], "apt-get install python3", false);

let gateway: RunningGateway;
let partner: TestPartner;
let dir: string;
let keyFile: string;

beforeAll(async () => {
  gateway = await runGateway();
  partner = await createPartner(gateway.gw);
  await gateway.gw.partners.setSignatureVersion(partner.clientId, 2);
  dir = mkdtempSync(join(tmpdir(), "orderline-examples-"));
  keyFile = join(dir, "private.pem");
  writeFileSync(keyFile, partner.keys.privatePem, { mode: 0o600 });
  // Someone guesses this client_id's secret from the examples' own address (127.0.0.1) until
  // unsigned logins from it are locked for minutes: only a login signed with the key (as every
  // example signs it) still gets in.
  for (let i = 0; i < 12; i++) await unsignedLogin(`ols_guess_${i}`);
});

const unsignedLogin = (secret: string) =>
  fetch(`${gateway.url}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: partner.clientId, client_secret: secret }),
  });
afterAll(async () => {
  await gateway.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(command: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: EXAMPLES,
        timeout: 110_000,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? dir,
          ORDERLINE_BASE_URL: gateway.url,
          ORDERLINE_CLIENT_ID: partner.clientId,
          ORDERLINE_CLIENT_SECRET: partner.clientSecret,
          ORDERLINE_PRIVATE_KEY_FILE: keyFile,
        },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
          out: `${stdout}${stderr}`,
        }),
    );
  });
}

async function orderCount(): Promise<number> {
  const client = createPartnerClient({
    baseUrl: gateway.url,
    clientId: partner.clientId,
    clientSecret: partner.clientSecret,
    privateKey: partner.keys.privateKey,
    signatureVersion: 2,
  });
  let count = 0;
  for await (const _ of client.salesOrders.iterate({ pageSize: 100 })) count++;
  return count;
}

async function expectOrderCreated(command: string, args: string[]) {
  const before = await orderCount();
  const result = await run(command, args);
  expect(result.code, result.out).toBe(0);
  expect(result.out).toMatch(/SO-\d+/);
  expect(await orderCount()).toBe(before + 1);
}

describe("examples/partner", () => {
  it("run where an unsigned login with the right secret is locked out", async () => {
    const refused = await unsignedLogin(partner.clientSecret);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe("login_throttled");
  });

  it("create-order.sh (curl and openssl)", async () => {
    await expectOrderCreated("sh", ["create-order.sh"]);
  });

  it("create-order-node.mjs (node:crypto, no packages)", async () => {
    await expectOrderCreated("node", ["create-order-node.mjs"]);
  });

  it("create-order-sdk.mjs (the SDK)", async () => {
    await expectOrderCreated("node", ["create-order-sdk.mjs"]);
  });

  // The single-file launch compiles first: seconds on a busy machine.
  it.skipIf(!hasJava)(
    "CreateOrder.java (JDK only, single-file launch)",
    async () => {
      await expectOrderCreated("java", ["CreateOrder.java"]);
    },
    120_000,
  );

  it.skipIf(!hasPython)("create_order.py (standard library and openssl)", async () => {
    await expectOrderCreated("python3", ["create_order.py"]);
  });
});

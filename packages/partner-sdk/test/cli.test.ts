import { execFile } from "node:child_process";
import { createPublicKey, verify } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPartnerClient,
  type FieldError,
  PartnerApiError,
  type SalesOrderInput,
  signWebhook,
  stringToSignV2,
} from "../src/index.js";
import {
  createPartner,
  order,
  type RunningGateway,
  runGateway,
  type TestPartner,
} from "./support/gateway.js";
import { ACCEPTED_BODY, ACCEPTED_EVENT, webhookSecret } from "./support/webhook-event.js";

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
function cli(args: string[], env: Record<string, string> = {}, input = ""): Promise<Result> {
  return new Promise((resolve) => {
    const child = execFile(
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
    child.stdin?.end(input);
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
    // Version 2 (body covered) is the default for new integrations.
    const v2 = JSON.parse((await cli(["sign", "--timestamp", "1767225600", "--json"])).stdout);
    expect(v2.string_to_sign.startsWith(`v2\n${partner.clientId}\n1767225600\nGET\n`)).toBe(true);
    expect(v2.headers["x-signature-version"]).toBe("2");
    const v1 = ["--signature-version", "1"];
    const result = await cli(["sign", ...v1, "--timestamp", "1767225600", "--json"]);
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
    const text = await cli(["sign", ...v1, "--timestamp", "1767225600"]);
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
    // --json prints the API's envelope: the order, or the orders, under data.
    const createdOrder = JSON.parse(created.stdout).data;
    expect(createdOrder.purchase_order_no).toBe("CLI-1");
    const got = await cli(["orders", "get", createdOrder.id, "--json"]);
    expect(JSON.parse(got.stdout).data.id).toBe(createdOrder.id);
    const all = JSON.parse((await cli(["orders", "list", "--all", "--json"])).stdout);
    const page = JSON.parse((await cli(["orders", "list", "--json"])).stdout);
    expect(Object.keys(all).sort()).toEqual(Object.keys(page).sort());
    expect(all.next_cursor).toBeNull();
    expect(all.data.map((o: { id: string }) => o.id)).toContain(createdOrder.id);
    expect(page.data.map((o: { id: string }) => o.id)).toContain(createdOrder.id);
    const text = await cli(["orders", "list"]);
    expect(text.stdout).toContain(createdOrder.order_number);
  });

  it("orders cancel withdraws an order; list filters by status and purchase order", async () => {
    writeFileSync(join(dir, "cancel.json"), JSON.stringify(order({ purchase_order_no: "CLI-C" })));
    const created = JSON.parse(
      (await cli(["orders", "create", "--file", "cancel.json", "--json"])).stdout,
    ).data;
    const cancelled = await cli([
      "orders",
      "cancel",
      created.id,
      "--reason",
      "sent twice",
      "--json",
    ]);
    expect(cancelled.code).toBe(0);
    const out = JSON.parse(cancelled.stdout).data;
    expect(out.status).toBe("cancelled");
    expect(out.history.at(-1).reason).toBe("sent twice");
    const shown = await cli(["orders", "get", created.id]);
    expect(shown.stdout).toMatch(/received → cancelled {2}by \S+: sent twice/);
    const text = await cli(["orders", "list", "--status", "cancelled"]);
    expect(text.stdout).toContain(created.order_number);
    expect(text.stdout).toContain("cancelled");
    const byPo = await cli(["orders", "list", "--purchase-order-no", "CLI-C", "--all", "--json"]);
    expect(JSON.parse(byPo.stdout).data.map((o: { id: string }) => o.id)).toEqual([created.id]);
    const none = await cli(["orders", "list", "--status", "fulfilled", "--json"]);
    expect(JSON.parse(none.stdout).data).toEqual([]);

    const again = await cli(["orders", "cancel", created.id, "--reason", "again", "--json"]);
    expect(again.code).toBe(1);
    const refused = JSON.parse(again.stdout).error;
    expect(refused.code).toBe("order_transition_invalid");
    expect(refused.problem.current_status).toBe("cancelled");
    const noReason = await cli(["orders", "cancel", created.id]);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain("--reason");
    const badStatus = await cli(["orders", "list", "--status", "lost"]);
    expect(badStatus.code).toBe(1);
    expect(badStatus.stderr).toContain("validation_failed");
  });

  it("webhooks verify prints the event of a good delivery, from a file or stdin", async () => {
    const secret = webhookSecret();
    writeFileSync(join(dir, "event.json"), ACCEPTED_BODY);
    const header = signWebhook({ payload: ACCEPTED_BODY, secret });
    const env = { ORDERLINE_WEBHOOK_SECRET: secret };
    const fromFile = await cli(
      ["webhooks", "verify", "--header", header, "--file", "event.json", "--json"],
      env,
    );
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toEqual(ACCEPTED_EVENT);
    const fromStdin = await cli(
      ["webhooks", "verify", "--header", `Orderline-Signature: ${header}`, "--secret", secret],
      {},
      ACCEPTED_BODY,
    );
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(fromStdin.stdout).toContain(`Verified ${ACCEPTED_EVENT.id} (order.accepted`);
  });

  it("webhooks verify exits 1 with the reason for a tampered, old or unsigned delivery", async () => {
    const secret = webhookSecret();
    const env = { ORDERLINE_WEBHOOK_SECRET: secret };
    const header = signWebhook({ payload: ACCEPTED_BODY, secret });
    const tampered = await cli(
      ["webhooks", "verify", "--header", header, "--json"],
      env,
      ACCEPTED_BODY.replace("accepted", "rejected"),
    );
    expect(tampered.code).toBe(1);
    expect(JSON.parse(tampered.stdout).error.code).toBe("no_matching_signature");
    const old = signWebhook({
      payload: ACCEPTED_BODY,
      secret,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    const late = await cli(["webhooks", "verify", "--header", old], env, ACCEPTED_BODY);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain("timestamp_outside_tolerance");
    const tolerant = await cli(
      ["webhooks", "verify", "--header", old, "--tolerance", "900"],
      env,
      ACCEPTED_BODY,
    );
    expect(tolerant.code).toBe(0);
    const garbled = await cli(["webhooks", "verify", "--header", "v1=abc"], env, ACCEPTED_BODY);
    expect(garbled.code).toBe(1);
    expect(garbled.stderr).toContain("header_malformed");
    const noSecret = await cli(["webhooks", "verify", "--header", header], {}, ACCEPTED_BODY);
    expect(noSecret.code).toBe(2);
    expect(noSecret.stderr).toContain("ORDERLINE_WEBHOOK_SECRET");
  });

  it("webhooks sign prints a header that verifies, with one v1 per secret", async () => {
    const [current, previous] = [webhookSecret(), webhookSecret()];
    writeFileSync(join(dir, "secrets.txt"), `${current}\n${previous}\n`);
    const signed = await cli(
      ["webhooks", "sign", "--secret-file", "secrets.txt", "--timestamp", "1795000000"],
      {},
      ACCEPTED_BODY,
    );
    expect(signed.code).toBe(0);
    const header = signed.stdout.trim();
    expect(header).toBe(
      signWebhook({ payload: ACCEPTED_BODY, secrets: [current, previous], timestamp: 1795000000 }),
    );
    const verified = await cli(
      ["webhooks", "verify", "--header", header, "--secret", previous, "--tolerance", "999999999"],
      {},
      ACCEPTED_BODY,
    );
    expect(verified.code, verified.stderr).toBe(0);
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

  it("lists every refused field with the gateway's message, in the SDK's error and the CLI's output", async () => {
    const bad = {
      ...order({ customer_code: "", currency: "XAU", site_code: "x".repeat(65) }),
      products: [{ product_code: "SKU-1", quantity: 0 }],
    };
    const direct = await fetch(`${gateway.url}/api/v1/sales-orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(bad),
    });
    expect(direct.status).toBe(401); // unsigned: the fields are checked after authentication
    const sdk = createPartnerClient({
      baseUrl: gateway.url,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
      privateKey: partner.keys.privatePem,
    });
    const error = (await sdk.salesOrders
      .create(bad as SalesOrderInput)
      .catch((e: unknown) => e)) as PartnerApiError;
    expect(error).toBeInstanceOf(PartnerApiError);
    const api = error.problem.errors as FieldError[];
    expect(error.fieldErrors).toEqual(api);
    expect(api.map((e) => e.pointer)).toEqual([
      "/customer_code",
      "/site_code",
      "/products/0/quantity",
      "/currency",
    ]);
    for (const e of api) expect(error.message).toContain(`${e.pointer} ${e.message}`);
    expect(api.find((e) => e.pointer === "/currency")?.message).toContain("e.g. IDR, USD");

    writeFileSync(join(dir, "many.json"), JSON.stringify(bad));
    const text = await cli(["orders", "create", "--file", "many.json"]);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("(400 validation_failed): 4 fields are not valid");
    for (const e of api) expect(text.stderr).toContain(`  body ${e.pointer}: ${e.message}\n`);
    expect(text.stderr).not.toMatch(/and \d+ more/);
    const json = JSON.parse(
      (await cli(["orders", "create", "--file", "many.json", "--json"])).stdout,
    );
    expect(json.error.problem.errors).toEqual(api);
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
    for (const command of ["keygen", "sign", "login", "orders", "webhooks"]) {
      const result = await cli([command, "--help"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`orderline-partner ${command}`);
    }
    const top = await cli(["--help"]);
    expect(top.stdout).toContain("Exit codes");
    expect(readFileSync(BIN, "utf8")).toContain("dist/cli/main.js");
  });
});

/**
 * The webhook verification recipes (examples/partner/webhooks/) run as a receiver would run
 * them: each must accept a delivery signed as the contract says (signed here by the SDK's
 * signWebhook, itself checked against node:crypto in webhooks.test.ts) and refuse a tampered
 * body, an old timestamp and a signature made with another secret.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "../src/index.js";
import { runtime } from "./support/runtime.js";
import { ACCEPTED_BODY, ACCEPTED_EVENT, webhookSecret } from "./support/webhook-event.js";

const EXAMPLES = fileURLToPath(new URL("../../../examples/partner/webhooks/", import.meta.url));

const hasJava = runtime("javac", ["-version"], "apt-get install default-jdk-headless", true);
const hasPython = runtime("python3", ["--version"], "apt-get install python3", false);

const secret = webhookSecret();
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "orderline-webhook-examples-"));
  writeFileSync(join(dir, "event.json"), ACCEPTED_BODY);
  writeFileSync(
    join(dir, "tampered.json"),
    ACCEPTED_BODY.replace('"quantity":2', '"quantity":200'),
  );
  // Compiled once: a single-file launch compiles on every run, seconds each on a busy machine.
  if (hasJava) execFileSync("javac", ["-d", dir, join(EXAMPLES, "VerifyWebhook.java")]);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function run(
  command: string[],
  body: string,
  header: string,
): Promise<{ code: number; out: string }> {
  const [file = "", ...args] = command;
  return new Promise((resolve) => {
    execFile(
      file,
      [...args, join(dir, body), header],
      {
        cwd: EXAMPLES,
        timeout: 60_000,
        env: { PATH: process.env.PATH ?? "", ORDERLINE_WEBHOOK_SECRET: secret },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
          out: `${stdout}${stderr}`,
        }),
    );
  });
}

const now = () => Math.floor(Date.now() / 1000);

/** The four cases every recipe must get right. */
async function checkRecipe(command: string[]) {
  const good = signWebhook({ payload: ACCEPTED_BODY, secret });
  const accepted = await run(command, "event.json", good);
  expect(accepted.out).toContain(`verified ${ACCEPTED_EVENT.id}`);
  expect(accepted.code, accepted.out).toBe(0);

  // During a rotation the header has a v1 for the old secret too; either may come first.
  const rotating = signWebhook({ payload: ACCEPTED_BODY, secrets: [webhookSecret(), secret] });
  expect((await run(command, "event.json", rotating)).code).toBe(0);

  const tampered = await run(command, "tampered.json", good);
  expect(tampered.code, tampered.out).toBe(1);
  expect(tampered.out).toContain("rejected: no matching signature");

  const old = signWebhook({ payload: ACCEPTED_BODY, secret, timestamp: now() - 3600 });
  const late = await run(command, "event.json", old);
  expect(late.code, late.out).toBe(1);
  expect(late.out).toContain("rejected: timestamp outside the tolerance");

  const foreign = signWebhook({ payload: ACCEPTED_BODY, secret: webhookSecret() });
  const forged = await run(command, "event.json", foreign);
  expect(forged.code, forged.out).toBe(1);
  expect(forged.out).toContain("rejected: no matching signature");

  const garbled = await run(command, "event.json", "v1=deadbeef");
  expect(garbled.code).toBe(1);
  expect(garbled.out).toContain("rejected: header missing or malformed");
}

describe("examples/partner/webhooks", () => {
  it("verify-webhook.sh (sh and openssl)", async () => {
    await checkRecipe(["sh", "verify-webhook.sh"]);
  });

  it("verify-webhook.mjs (node:crypto, no packages)", async () => {
    await checkRecipe(["node", "verify-webhook.mjs"]);
  });

  it.skipIf(!hasPython)("verify_webhook.py (standard library)", async () => {
    await checkRecipe(["python3", "verify_webhook.py"]);
  });

  it.skipIf(!hasJava)(
    "VerifyWebhook.java (JDK only)",
    async () => {
      await checkRecipe(["java", "-cp", dir, "VerifyWebhook"]);
    },
    120_000,
  );

  it("verify-webhook.mjs --serve acknowledges good deliveries over HTTP and refuses the rest", async () => {
    const receiver: ChildProcess = spawn("node", ["verify-webhook.mjs", "--serve"], {
      cwd: EXAMPLES,
      env: { PATH: process.env.PATH ?? "", ORDERLINE_WEBHOOK_SECRET: secret, PORT: "0" },
    });
    const lines: string[] = [];
    // Resolves once the receiver has printed `count` lines (its log reaches us on its own pipe).
    const printed = (count: number) =>
      new Promise<string[]>((resolve, reject) => {
        const check = () => lines.length >= count && resolve(lines);
        receiver.once("exit", (code) => reject(new Error(`receiver exited with ${code}`)));
        receiver.stdout?.on("data", check);
        check();
      });
    receiver.stdout?.on("data", (chunk: Buffer) => {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
    });
    try {
      const [listening = ""] = await printed(1);
      const url = listening.replace("listening on ", "");
      const deliver = (body: string, header: string) =>
        fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "orderline-event-id": ACCEPTED_EVENT.id,
            "orderline-event-type": ACCEPTED_EVENT.type,
            "orderline-signature": header,
          },
          body,
        }).then((r) => r.status);
      const header = signWebhook({ payload: ACCEPTED_BODY, secret });
      expect(await deliver(ACCEPTED_BODY, header)).toBe(204);
      expect(await deliver(ACCEPTED_BODY, header)).toBe(204);
      expect(await deliver(ACCEPTED_BODY.replace("accepted", "rejected"), header)).toBe(400);
      const old = signWebhook({ payload: ACCEPTED_BODY, secret, timestamp: now() - 3600 });
      expect(await deliver(ACCEPTED_BODY, old)).toBe(400);
      expect((await printed(5)).slice(1)).toEqual([
        `verified ${ACCEPTED_EVENT.id} order.accepted`,
        `duplicate ${ACCEPTED_EVENT.id} order.accepted`,
        "rejected: no matching signature",
        "rejected: timestamp outside the tolerance",
      ]);
    } finally {
      receiver.kill();
    }
  });
});

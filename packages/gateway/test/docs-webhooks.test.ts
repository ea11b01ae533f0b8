/**
 * The served guides work without the repository: /docs's guide and /docs/webhooks name no
 * repository path and link only to pages this gateway serves; and each verification program on
 * the webhooks page (Node, Python, Java, shell + openssl), copied from the served page as a
 * partner would, accepts a real delivery of a running gateway and refuses a tampered one.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { login, order, signedHeaders, startGateway } from "./helpers.js";
import { type Received, Receiver } from "./support/receiver.js";
import { createTenant, TEST_USERS_CONFIG, tenantPartner, userToken } from "./support/tenants.js";

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are open-ended JSON.
type Json = any;

let gw: Awaited<ReturnType<typeof startGateway>>;
let base: string;
let receiver: Receiver;
let dir: string;
let secret: string;
let delivery: Received;

beforeAll(async () => {
  gw = await startGateway({
    config: {
      users: TEST_USERS_CONFIG,
      webhooks: { ...loadConfig({}).webhooks, allowPrivate: "loopback", pollMs: 25 },
    },
  });
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), "orderline-docs-webhooks-"));
  receiver = await new Receiver().start();
  const tenant = await createTenant(gw, "Docs Tenant");
  const partner = await tenantPartner(gw, tenant.id, "Docs Partner");
  const created = await fetch(`${base}/v1/tenant/partners/${partner.clientId}/webhook-endpoints`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${await userToken(gw, tenant.admin.email)}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ url: receiver.url, events: ["order.created"] }),
  });
  secret = ((await created.json()) as Json).data.secret;
  const token = await login(gw, partner);
  const placed = await fetch(`${base}/api/v1/sales-orders`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...signedHeaders(partner, token, String(Math.floor(Date.now() / 1000))),
    },
    body: JSON.stringify(order({ address: "1 Harbour Road\nSpringfield — Gate 2 ✓" })),
  });
  expect(placed.status).toBe(201);
  await receiver.until((got) => got.length >= 1);
  delivery = receiver.received[0] as Received;
  writeFileSync(join(dir, "body.json"), delivery.raw);
  writeFileSync(join(dir, "tampered.json"), Buffer.concat([delivery.raw, Buffer.from(" ")]));
}, 60_000);
afterAll(async () => {
  await receiver?.stop();
  await gw?.close();
  rmSync(dir, { recursive: true, force: true });
});

const getJson = async (path: string): Promise<Json> => (await fetch(`${base}${path}`)).json();

/** The code blocks of a Markdown text whose first line names the file, by that name. */
function programs(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of markdown.matchAll(/```\w+\n((?:\/\/|#) (\S+): [^\n]*\n[\s\S]*?)```/g))
    found.set(match[2] as string, match[1] as string);
  return found;
}

function installed(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => execFile(command, args, (error) => resolve(error === null)));
}

function runProgram(
  command: string[],
  body: string,
  header = delivery.headers["orderline-signature"] as string,
): Promise<{ code: number; out: string }> {
  const [file = "", ...args] = command;
  return new Promise((resolve) =>
    execFile(
      file,
      [...args, join(dir, body), header],
      {
        cwd: dir,
        timeout: 90_000,
        env: { PATH: process.env.PATH ?? "", ORDERLINE_WEBHOOK_SECRET: secret },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
          out: `${stdout}${stderr}`.trim(),
        }),
    ),
  );
}

describe("the served guides", () => {
  it("name no repository path and link only to pages this gateway serves", async () => {
    const partner = await getJson("/openapi/partner.json");
    const webhooks = await getJson("/openapi/webhooks.json");
    for (const text of [partner.info.description, webhooks.info.description] as string[]) {
      expect(text).not.toMatch(/\b(examples|packages|docs\/gateway)\//);
      expect(text).not.toMatch(/\]\((?!\/)/); // every Markdown link is a path on this gateway
      expect(text).not.toMatch(/workspace|repository's/i);
      for (const [, link] of text.matchAll(/\]\((\/[^)\s]*)\)/g)) {
        const response = await fetch(`${base}${link}`);
        // Read to the end: a page left unread holds its connection busy, and the gateway's
        // close waits for it (the file's afterAll hung for its whole timeout that way).
        await response.arrayBuffer();
        expect(response.status, link).toBe(200);
      }
    }
    expect(partner.info.description).toContain("(/docs/webhooks)");
    expect(Object.keys(webhooks.webhooks)).toContain("order.created");
    expect(webhooks.paths).toEqual({});
  });
});

describe("the webhooks page's verification programs, run on a real delivery", () => {
  const cases: [string, string, string[], [string, string[]]][] = [
    ["Node", "verify.mjs", ["node", "verify.mjs"], ["node", ["--version"]]],
    ["Python", "verify.py", ["python3", "verify.py"], ["python3", ["--version"]]],
    ["Java", "Verify.java", ["java", "Verify.java"], ["java", ["-version"]]],
    ["shell + openssl", "verify.sh", ["sh", "verify.sh"], ["openssl", ["version"]]],
  ];
  for (const [language, file, command, [probe, probeArgs]] of cases) {
    it(`${language}: accepts the delivery, refuses it tampered`, async () => {
      if (!(await installed(probe, probeArgs))) {
        if (process.env.CI) throw new Error(`${probe} is required in CI`);
        console.warn(`\n!!! ${probe} is not installed: SKIPPING the ${language} program.\n`);
        return;
      }
      const page = await getJson("/openapi/webhooks.json");
      const program = programs(page.info.description).get(file);
      expect(program, file).toBeDefined();
      writeFileSync(join(dir, file), program as string);
      expect(await runProgram(command, "body.json")).toEqual({ code: 0, out: "verified" });
      expect(await runProgram(command, "tampered.json")).toEqual({ code: 1, out: "refused" });
    });
  }

  it("Python: refuses junk headers instead of crashing", async () => {
    if (!(await installed("python3", ["--version"]))) {
      if (process.env.CI) throw new Error("python3 is required in CI");
      return;
    }
    const page = await getJson("/openapi/webhooks.json");
    writeFileSync(
      join(dir, "verify.py"),
      programs(page.info.description).get("verify.py") as string,
    );
    const now = Math.floor(Date.now() / 1000);
    for (const junk of [
      "",
      "garbage",
      "t=²³,v1=00",
      `t=${now},v1=é${"0".repeat(63)}`,
      `t=${now},v1`,
      "t=-5,v1=00",
      "=,=,,",
    ])
      expect({ junk, ...(await runProgram(["python3", "verify.py"], "body.json", junk)) }).toEqual({
        junk,
        code: 1,
        out: "refused",
      });
  }, 300_000); // seven python3 starts: a hang bound on a busy machine
});

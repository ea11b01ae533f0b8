/**
 * Every code sample of the served partner reference (/openapi/partner.json `x-codeSamples`),
 * taken from the document as a partner copies it and run as it is, against a real gateway over
 * a real socket: bash with curl and openssl, Node with the SDK, python3 with cryptography, and
 * `java Sample.java`. Each operation's sample must answer what the operation answers.
 */
import { execFile, spawn } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  login,
  order,
  signedHeaders,
  startGateway,
  type TestPartner,
  tempDir,
} from "./helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are open-ended JSON.
type Json = any;

const run = promisify(execFile);
const SDK = fileURLToPath(new URL("../../partner-sdk", import.meta.url));
const LANGUAGES = ["Shell", "JavaScript", "Python", "Java"] as const;
const FILE: Record<(typeof LANGUAGES)[number], string> = {
  Shell: "sample.sh",
  JavaScript: "sample.mjs",
  Python: "sample.py",
  Java: "Sample.java",
};
const COMMAND: Record<(typeof LANGUAGES)[number], string> = {
  Shell: "bash",
  JavaScript: process.execPath,
  Python: "python3",
  Java: "java",
};

let gw: Gateway & { dir: string };
let base: string;
let samples: { operationId: string; method: string; path: string; list: Json[] }[];
const work = tempDir();

beforeAll(async () => {
  gw = await startGateway({
    config: {
      // Every one of the 72 samples signs in from this machine's one address: the per-address
      // sign-in limit is not what is tested here.
      rateLimit: { windowSeconds: 60, ordersMax: 6000, loginMax: 1000 },
      // The shell sample's curl ends at the first write after its grep has the event.
      events: {
        heartbeatSeconds: 1,
        pollMs: 100,
        maxStreamSeconds: 3600,
        settleMs: 5000,
        recheckMs: 200,
      },
    },
  });
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
  const doc: Json = await (await fetch(`${base}/openapi/partner.json`)).json();
  samples = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({
      operationId: (op as Json).operationId,
      method,
      path,
      list: (op as Json)["x-codeSamples"] ?? [],
    })),
  );
  // The Node samples import the SDK by its package name, as a partner's project does.
  mkdirSync(join(work.dir, "node_modules", "@orderline"), { recursive: true });
  symlinkSync(SDK, join(work.dir, "node_modules", "@orderline", "partner-sdk"));
}, 300_000); // a hang bound: a gateway start took over 60 s on a busy shared machine
afterAll(async () => {
  await gw.close();
  work.cleanup();
});

async function signed(
  partner: TestPartner,
  method: "POST" | "DELETE",
  url: string,
  payload?: unknown,
): Promise<Json> {
  const token = await login(gw, partner);
  const headers = signedHeaders(partner, token, String(Math.floor(Date.now() / 1000)));
  const response = await gw.app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return response.body ? response.json() : undefined;
}

/** What a sample needs in its environment: a fresh order, endpoint and event of `partner`. */
async function fixtures(partner: TestPartner): Promise<Record<string, string>> {
  const created = await signed(partner, "POST", "/api/v1/sales-orders", order());
  const endpoint = await signed(partner, "POST", "/api/v1/webhook-endpoints", {
    url: "https://erp.acme.example/orderline/webhooks",
    events: ["*"],
  });
  const test = await signed(partner, "POST", `/api/v1/webhook-endpoints/${endpoint.data.id}/test`);
  return { ORDER_ID: created.data.id, ENDPOINT_ID: endpoint.data.id, EVENT_ID: test.data.event_id };
}

/** Runs one sample; for the event stream, makes an event once the sample holds the stream. */
async function runSample(
  language: (typeof LANGUAGES)[number],
  dir: string,
  env: Record<string, string>,
  partner: TestPartner,
  stream: boolean,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(COMMAND[language], [FILE[language]], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? work.dir, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => {
    stdout += c;
  });
  child.stderr.on("data", (c) => {
    stderr += c;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (stream) {
    const opened = gw.streams.open;
    for (;;) {
      const done = await Promise.race([exited.then(() => true), sleep(100).then(() => false)]);
      if (done || gw.streams.open > opened) break;
    }
    await signed(partner, "POST", "/api/v1/sales-orders", order());
  }
  return { code: await exited, stdout, stderr };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What each operation's sample prints when it worked. */
const EXPECTED: Record<string, (out: string, env: Record<string, string>) => void> = {
  login: (out) => expect(out).toMatch(/eyJ/),
  refreshToken: (out) => expect(out).toMatch(/token['"]?\s*[:=]\s*['"]?eyJ/),
  getTokenKeys: (out) => expect(out).toMatch(/kty/),
  createSalesOrder: (out) => expect(out).toMatch(/SO-\d{8}/),
  listSalesOrders: (out) => expect(out).toMatch(/SO-\d{8}/),
  getSalesOrder: (out) => expect(out).toMatch(/received/),
  cancelSalesOrder: (out) => expect(out).toMatch(/cancelled/),
  listWebhookEndpoints: (out, env) => expect(out).toContain(env.ENDPOINT_ID),
  createWebhookEndpoint: (out) => expect(out).toMatch(/whsec_/),
  getWebhookEndpoint: (out, env) => expect(out).toContain(env.ENDPOINT_ID),
  updateWebhookEndpoint: (out) => expect(out).toMatch(/enabled['"]?\s*[:=]\s*(false|False)/),
  deleteWebhookEndpoint: () => {},
  rotateWebhookSecret: (out) => expect(out).toMatch(/whsec_/),
  listWebhookDeliveries: (out) => expect(out).toMatch(/\[/),
  resendWebhookEvent: () => {},
  testWebhookEndpoint: (out) => expect(out).toMatch(/evt_/),
  listRefusedRequests: () => {},
  streamEvents: (out) => expect(out).toMatch(/order\.created/),
};

describe("the partner reference's code samples", () => {
  it("has shell, Node, Python and Java for every operation", () => {
    expect(samples.length).toBeGreaterThanOrEqual(18);
    for (const { operationId, list } of samples)
      expect({ operationId, langs: list.map((s: Json) => s.lang) }).toEqual({
        operationId,
        langs: [...LANGUAGES],
      });
    expect(Object.keys(EXPECTED).sort()).toEqual(samples.map((s) => s.operationId).sort());
  });

  // One partner per language: the samples of one language run one after another.
  it.each(LANGUAGES)(
    "every %s sample runs against the gateway and answers what its operation answers",
    async (language) => {
      const partner = await createPartner(gw, undefined, `Samples in ${language}`);
      const keyFile = join(work.dir, `${language}.pem`);
      writeFileSync(keyFile, partner.keys.privatePem, { mode: 0o600 });
      const failures: string[] = [];
      for (const { operationId, list } of samples) {
        const sample = list.find((s: Json) => s.lang === language);
        const dir = join(work.dir, language, operationId);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, FILE[language]), sample.source);
        const env: Record<string, string> = {
          ORDERLINE_BASE_URL: base,
          ORDERLINE_CLIENT_ID: partner.clientId,
          ORDERLINE_CLIENT_SECRET: partner.clientSecret,
          ORDERLINE_PRIVATE_KEY_FILE: keyFile,
          ...(await fixtures(partner)),
        };
        const result = await runSample(language, dir, env, partner, operationId === "streamEvents");
        try {
          expect(result.code).toBe(0);
          EXPECTED[operationId]?.(result.stdout, env);
        } catch {
          failures.push(
            `${language} ${operationId}: exit ${result.code}\n${result.stdout.slice(0, 600)}\n${result.stderr.slice(0, 1200)}`,
          );
        }
        // At most 16 endpoints a partner: each sample's goes again.
        await signed(partner, "DELETE", `/api/v1/webhook-endpoints/${env.ENDPOINT_ID}`);
      }
      expect(failures).toEqual([]);
    },
    900_000,
  );
});

// `run` stays for a quick check that the tools exist, so a missing one fails with its name.
it("finds bash, curl, openssl, jq, python3 with cryptography, and java 17+", async () => {
  await run("bash", ["-c", "command -v curl openssl jq"]);
  await run("python3", ["-c", "import cryptography"]);
  const { stderr } = await run("java", ["-version"]);
  expect(Number(/version "(\d+)/.exec(stderr)?.[1])).toBeGreaterThanOrEqual(17);
});

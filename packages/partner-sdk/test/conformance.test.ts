/**
 * One contract for the Node, Python and Java SDKs (conformance/cases.json): every case runs,
 * for every language, through that language's runner program against a real gateway, and must
 * give the results the case expects; what went over the wire (one Idempotency-Key on both
 * attempts of a retried create, Retry-After waited for, pages to the end, Last-Event-ID on the
 * reconnection) is checked at the proxies in front of the gateway.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartnerClient, type SalesOrderInput, signWebhook } from "../src/index.js";
import { CuttingStreamProxy } from "./support/cutting-stream-proxy.js";
import { type Fault, FaultProxy } from "./support/fault-proxy.js";
import {
  createPartner,
  order,
  type RunningGateway,
  rsaKeys,
  runGateway,
} from "./support/gateway.js";
import { run } from "./support/run.js";
import { runtime } from "./support/runtime.js";

const SDK = fileURLToPath(new URL("../", import.meta.url));
const PYTHON = fileURLToPath(new URL("../../partner-sdk-python/", import.meta.url));
const JAVA = fileURLToPath(new URL("../../partner-sdk-java/", import.meta.url));
const JUNIT =
  process.env.JUNIT_CONSOLE_JAR ?? "/usr/share/java/junit-platform-console-standalone.jar";

interface Case {
  name: string;
  checks: string;
  setup: string[];
  proxy_faults?: Fault[];
  steps: Record<string, unknown>[];
  expect: unknown[];
}
const CASES = (
  JSON.parse(readFileSync(join(SDK, "conformance/cases.json"), "utf8")) as { cases: Case[] }
).cases;

interface Language {
  name: string;
  available: boolean;
  /** Makes the runner runnable (a virtual environment, compiled classes). */
  prepare(): Promise<void>;
  runner(input: string): ReturnType<typeof run>;
}

const LANGUAGES: Language[] = [
  {
    name: "node",
    available: true,
    prepare: async () => {},
    runner: (input) => run(process.execPath, ["conformance/runners/node.mjs"], { cwd: SDK, input }),
  },
  {
    name: "python",
    available: runtime(
      "python3",
      ["-c", "import venv, ensurepip"],
      "apt-get install python3-venv",
      true,
    ),
    prepare: async () => {
      const made = await run("bash", ["scripts/build.sh", "venv"], { cwd: PYTHON });
      if (made.code !== 0) throw new Error(made.out);
    },
    runner: (input) =>
      run(".venv/bin/python", ["conformance/runner.py"], {
        cwd: PYTHON,
        input,
        env: { PYTHONPATH: join(PYTHON, "src") },
      }),
  },
  {
    name: "java",
    available: runtime("javac", ["-version"], "apt-get install default-jdk-headless junit5", true),
    prepare: async () => {
      const built = await run("bash", ["scripts/build.sh"], { cwd: JAVA });
      if (built.code !== 0) throw new Error(built.out);
    },
    runner: (input) =>
      run(
        "java",
        [
          "-cp",
          `build/test-classes:build/orderline-partner-0.1.0.jar:${JUNIT}`,
          "com.orderline.partner.ConformanceRunner",
        ],
        { cwd: JAVA, input },
      ),
  },
];

let gateway: RunningGateway;
let dir: string;

beforeAll(async () => {
  gateway = await runGateway();
  dir = mkdtempSync(join(tmpdir(), "orderline-conformance-"));
  // The runners of each language ready before any case (the builds are serialised by a lock).
  await Promise.all(LANGUAGES.filter((l) => l.available).map((l) => l.prepare()));
}, 300_000);
afterAll(async () => {
  // A stream the gateway still holds open can keep its close waiting; the file's results are in
  // by now, so the close gets a bound instead of failing the file (see the report of this file).
  await Promise.race([gateway?.close(), new Promise((resolve) => setTimeout(resolve, 20_000))]);
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Replaces every "$name" string in `value` with `values[name]`. */
function fill(value: unknown, values: Record<string, unknown>): unknown {
  if (typeof value === "string" && value.startsWith("$")) {
    const name = value.slice(1);
    if (!(name in values)) throw new Error(`cases.json names $${name}, which no setup gives`);
    return values[name];
  }
  if (Array.isArray(value)) return value.map((item) => fill(item, values));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, values)]));
  }
  return value;
}

/** Everything one case needs for one language, with the checks of what crossed the wire. */
async function prepared(testCase: Case, language: string) {
  const partner = await createPartner(gateway.gw);
  const keyFile = join(dir, `${testCase.name}-${language}.pem`);
  writeFileSync(keyFile, partner.keys.privatePem, { mode: 0o600 });
  const po = `${testCase.name}-${language}`.slice(0, 60);
  const direct = createPartnerClient({
    baseUrl: gateway.url,
    clientId: partner.clientId,
    clientSecret: partner.clientSecret,
    privateKey: partner.keys.privatePem,
  });
  const values: Record<string, unknown> = {
    order: order({ purchase_order_no: po }),
    purchase_order_no: po,
    idempotency_key: `conformance-${po}`,
  };
  const closers: (() => Promise<void>)[] = [];
  let baseUrl = gateway.url;
  let faultProxy: FaultProxy | undefined;
  let streamProxy: CuttingStreamProxy | undefined;

  for (const step of testCase.setup) {
    if (step === "proxy") {
      faultProxy = await new FaultProxy(gateway.url).start();
      faultProxy.faults = structuredClone(testCase.proxy_faults ?? []);
      baseUrl = faultProxy.url;
      closers.push(() => (faultProxy as FaultProxy).close());
    } else if (step === "wrong_size_key") {
      const file = join(dir, `${testCase.name}-${language}-wrong.pem`);
      writeFileSync(file, rsaKeys(1024).privatePem, { mode: 0o600 });
      values.wrong_key_file = file;
    } else if (step === "five_orders") {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const created = await direct.salesOrders.create(
          order({ purchase_order_no: `${po}-${i}` }) as unknown as SalesOrderInput,
        );
        ids.push(created.id);
      }
      values.order_ids_newest_first = ids.reverse();
    } else if (step === "signed_delivery") {
      const payload = JSON.stringify({ id: `evt_${language}`, type: "order.created", data: {} });
      values.payload = payload;
      values.secret = "whsec_conformance";
      values.header = signWebhook({ payload, secret: "whsec_conformance" });
      values.event_id = `evt_${language}`;
    } else if (step === "three_events") {
      values.later_events = [];
      const events = await threeEvents(direct, po);
      values.first_event_id = events[0]?.id;
      values.later_events = events.slice(1);
    } else if (step === "cutting_stream_proxy") {
      streamProxy = await new CuttingStreamProxy(gateway.url).start();
      baseUrl = streamProxy.url;
      closers.push(() => (streamProxy as CuttingStreamProxy).close());
    } else {
      throw new Error(`unknown setup ${step}`);
    }
  }
  const input = JSON.stringify({
    base_url: baseUrl,
    client_id: partner.clientId,
    client_secret: partner.clientSecret,
    private_key_file: keyFile,
    steps: fill(testCase.steps, values),
  });
  return {
    input,
    expected: fill(testCase.expect, values),
    values,
    faultProxy,
    streamProxy,
    direct,
    close: () => Promise.all(closers.map((c) => c())),
  };
}

/** Three order.created events of the partner, read off its stream as they happen. */
async function threeEvents(client: ReturnType<typeof createPartnerClient>, po: string) {
  const controller = new AbortController();
  const events: { id: string; type: string }[] = [];
  let opened!: () => void;
  const open = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const reading = (async () => {
    for await (const event of client.events.stream({
      signal: controller.signal,
      onConnection: ({ connected }) => connected && opened(),
    })) {
      events.push({ id: event.id, type: event.type });
      // Aborted while the stream is read, so its connection is cancelled (the gateway then
      // closes at the end of the file); a plain break left it open.
      if (events.length === 3) controller.abort();
    }
  })();
  await open;
  for (let i = 0; i < 3; i++) {
    await client.salesOrders.create(
      order({ purchase_order_no: `${po}-ev-${i}` }) as unknown as SalesOrderInput,
    );
  }
  await reading;
  controller.abort();
  return events;
}

/** What each case must also have shown at the proxies or in the gateway. */
const WIRE_CHECKS: Record<string, (p: Awaited<ReturnType<typeof prepared>>) => Promise<void>> = {
  async idempotent_retry({ faultProxy, values, direct }) {
    const posts = (faultProxy as FaultProxy).orderAttempts().filter((a) => a.method === "POST");
    expect(posts).toHaveLength(2);
    const [first, second] = posts.map((a) => a.headers);
    expect(first?.["idempotency-key"]).toBe(values.idempotency_key);
    expect(second?.["idempotency-key"]).toBe(values.idempotency_key);
    // Signed afresh: its own millisecond timestamp and signature, version 2 (body covered).
    expect(first?.["x-timestamp"]).toMatch(/^\d{13}$/);
    expect(second?.["x-timestamp"]).not.toBe(first?.["x-timestamp"]);
    expect(second?.["x-signature"]).not.toBe(first?.["x-signature"]);
    expect(second?.["x-signature-version"]).toBe("2");
    const page = await direct.salesOrders.list({
      purchaseOrderNo: values.purchase_order_no as string,
    });
    expect(page.data).toHaveLength(1);
  },
  async rate_limit_backoff({ faultProxy }) {
    const posts = (faultProxy as FaultProxy).orderAttempts().filter((a) => a.method === "POST");
    // First create: one 429 (an hour is not waited for); second: the 429 and its retry, at
    // least the Retry-After of 1 s apart (a lower bound a busy machine only lengthens).
    expect(posts).toHaveLength(3);
    const [, limited, retried] = posts;
    expect((retried?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(900);
  },
  async pagination_to_the_end({ faultProxy }) {
    const pages = (faultProxy as FaultProxy).orderAttempts().filter((a) => a.method === "GET");
    expect(pages).toHaveLength(3);
    expect(pages[0]?.url).not.toContain("cursor=");
    expect(pages.slice(1).every((p) => p.url.includes("cursor="))).toBe(true);
  },
  async stream_resume_last_event_id({ streamProxy, values }) {
    const later = values.later_events as { id: string }[];
    expect(streamProxy?.lastEventIds).toEqual([values.first_event_id, later[0]?.id]);
  },
};

describe.each(LANGUAGES)("the $name SDK", (language) => {
  describe.skipIf(!language.available).each(CASES)("$name", (testCase) => {
    it(testCase.checks, async () => {
      const setup = await prepared(testCase, language.name);
      try {
        const result = await language.runner(setup.input);
        expect(result.code, result.out).toBe(0);
        const results = JSON.parse(result.stdout) as unknown[];
        expect(results).toHaveLength(testCase.steps.length);
        expect(results).toMatchObject(setup.expected as unknown[]);
        await WIRE_CHECKS[testCase.name]?.(setup);
      } finally {
        await setup.close();
      }
    }, 120_000);
  });
});

/**
 * The alert rules and the Grafana dashboard shipped in packages/gateway/observability/: the rules
 * pass their promtool unit tests, every metric either names exists in a real scrape, and a real
 * Prometheus scrapes a real gateway and answers a query about it.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { order, rsaKeys, tempDir } from "./helpers.js";
import {
  cli,
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  type ProcessPartner,
  type RunningGateway,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { freshDatabaseUrl } from "./support/stores.js";

const ASSETS = fileURLToPath(new URL("../observability/", import.meta.url));

/** Whether a command is on PATH; in CI its absence fails the test instead of skipping it. */
function available(command: string): boolean {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    if (process.env.CI) throw new Error(`${command} is required in CI (.ci/run installs it)`);
    console.warn(
      `\n*** SKIPPED: ${command} is not installed (apt-get install prometheus); these tests run in CI ***\n`,
    );
    return false;
  }
}
const hasPromtool = available("promtool");
const hasPrometheus = available("prometheus");

/** Metric names in a PromQL expression: ours, the process's and Prometheus's `up`. */
function metricNames(expression: string): string[] {
  return [
    ...expression.matchAll(/\b(orderline_[a-z0-9_]+|process_[a-z0-9_]+|nodejs_[a-z0-9_]+)\b/g),
  ].map((m) => m[1] as string);
}

/** Families announced by `# TYPE` lines, with a histogram's _bucket, _sum and _count series. */
function exposedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name as string);
    if (type === "histogram" || type === "summary")
      for (const suffix of ["_bucket", "_sum", "_count"]) names.add(`${name}${suffix}`);
  }
  return names;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let gateway: RunningGateway;
let metricsUrl: string;
let partner: ProcessPartner;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const env: ProcessEnv = { databaseUrl: await freshDatabaseUrl("sqlite", dir), dataDir: dir };
  await cli(env, ["migrate"]);
  partner = await createPartnerWithCli(env, rsaKeys());
  gateway = await startProcess(env);
  cleanups.push(async () => {
    gateway.child.kill("SIGTERM");
    await gateway.exited;
  });
  const listening = gateway
    .stdout()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event?: string; metrics_url?: string })
    .find((line) => line.event === "listening");
  metricsUrl = listening?.metrics_url ?? "";
  expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
}, 60_000);

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("alert rules (observability/alerts.yml)", () => {
  it.skipIf(!hasPromtool)("are valid and pass their promtool unit tests", () => {
    const checked = execFileSync("promtool", ["check", "rules", "alerts.yml"], {
      cwd: ASSETS,
      encoding: "utf8",
    });
    expect(checked).toContain("SUCCESS: 8 rules found");
    const tested = execFileSync("promtool", ["test", "rules", "alerts.test.yml"], {
      cwd: ASSETS,
      encoding: "utf8",
    });
    expect(tested).toContain("SUCCESS");
  });

  it("use only metrics the gateway exposes", async () => {
    const exposed = exposedNames(await (await fetch(metricsUrl)).text());
    const rules = readFileSync(join(ASSETS, "alerts.yml"), "utf8");
    const expressions = [...rules.matchAll(/expr: ([^\n]+(?:\n {10,}[^\n]+)*)/g)].map(
      (m) => m[1] as string,
    );
    expect(expressions).toHaveLength(8);
    const used = expressions.flatMap(metricNames);
    expect(used.length).toBeGreaterThan(8);
    for (const name of used) expect(exposed, name).toContain(name);
  });
});

describe("Grafana dashboard (observability/dashboard.json)", () => {
  it("queries only metrics a real /metrics scrape has", async () => {
    const dashboard = JSON.parse(readFileSync(join(ASSETS, "dashboard.json"), "utf8")) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    const exposed = exposedNames(await (await fetch(metricsUrl)).text());
    let checked = 0;
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets) {
        const names = metricNames(expr);
        // `up` is Prometheus's own; every other expression names one of ours.
        if (!/\bup\{/.test(expr)) expect(names.length, expr).toBeGreaterThan(0);
        for (const name of names) {
          expect(exposed, `${panel.title}: ${name}`).toContain(name);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(15);
  });
});

describe("a real Prometheus scraping the gateway", () => {
  let prometheus: ChildProcess | undefined;
  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((r) => prometheus?.once("exit", r));
      prometheus.kill("SIGTERM");
      await exited;
    }
  });

  it.skipIf(!hasPrometheus)(
    "scrapes /metrics, loads the rules, and answers a query about the orders created",
    async () => {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      const port = await freePort();
      const target = new URL(metricsUrl);
      writeFileSync(
        join(dir, "prometheus.yml"),
        [
          "global:",
          "  scrape_interval: 1s",
          "  evaluation_interval: 1s",
          "rule_files:",
          `  - ${join(ASSETS, "alerts.yml")}`,
          "scrape_configs:",
          "  - job_name: orderline-gateway",
          `    metrics_path: ${target.pathname}`,
          "    static_configs:",
          `      - targets: ["${target.host}"]`,
          "",
        ].join("\n"),
      );
      prometheus = spawn(
        "prometheus",
        [
          `--config.file=${join(dir, "prometheus.yml")}`,
          `--storage.tsdb.path=${join(dir, "data")}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: "ignore" },
      );
      const api = `http://127.0.0.1:${port}/api/v1`;
      const query = async (promql: string): Promise<number | undefined> => {
        try {
          const response = await fetch(`${api}/query?query=${encodeURIComponent(promql)}`);
          const body = (await response.json()) as {
            data?: { result: { value: [number, string] }[] };
          };
          const value = body.data?.result[0]?.value[1];
          return value === undefined ? undefined : Number(value);
        } catch {
          return undefined; // not listening yet
        }
      };
      const until = async (promql: string, wanted: number) => {
        const deadline = Date.now() + 45_000;
        let last: number | undefined;
        while (Date.now() < deadline) {
          last = await query(promql);
          if (last === wanted) return;
          await new Promise((r) => setTimeout(r, 250));
        }
        throw new Error(`${promql} stayed ${last}, wanted ${wanted}`);
      };

      await until('up{job="orderline-gateway"}', 1);
      const token = await loginOver(gateway.url, partner);
      const created = await fetch(`${gateway.url}/api/v1/sales-orders`, {
        method: "POST",
        headers: signedOver(partner, token),
        body: JSON.stringify(order({ purchase_order_no: "PO-PROM-1" })),
      });
      expect(created.status).toBe(201);
      await until('orderline_orders_created_total{job="orderline-gateway"}', 1);
      await until('orderline_logins_total{kind="partner",outcome="success"}', 1);

      const rules = (await (await fetch(`${api}/rules`)).json()) as {
        data: { groups: { rules: { name: string; health: string }[] }[] };
      };
      const loaded = rules.data.groups.flatMap((g) => g.rules);
      expect(loaded.map((r) => r.name)).toContain("OrderlineWebhookOutboxLag");
      expect(loaded).toHaveLength(8);
      // Each rule evaluated against the real series without error.
      await new Promise((r) => setTimeout(r, 1500));
      const again = (await (await fetch(`${api}/rules`)).json()) as typeof rules;
      for (const rule of again.data.groups.flatMap((g) => g.rules))
        expect(rule.health, rule.name).toBe("ok");
    },
    90_000,
  );
});

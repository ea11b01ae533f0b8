/**
 * A rolling restart behind the HAProxy configuration docs/deploy.md ships loses no request: two
 * built gateway processes on one PostgreSQL database, a real HAProxy in front, partners creating
 * signed orders without pause while each instance in turn gets SIGTERM and starts again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { order, rsaKeys, tempDir } from "./helpers.js";
import {
  documentedHaproxyConfig,
  freePort,
  haveHaproxy,
  pointedAt,
  startHaproxy,
} from "./support/haproxy.js";
import {
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  type RunningGateway,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const onPostgres = storeKinds.includes("postgres");

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  succeeded: number;
  failed: number;
  /** Status (or error) of each failed request. */
  failures: string[];
  /** Each request's time through HAProxy, in ms: for the figures, not asserted. */
  latencies: number[];
}

const percentileOf = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

/**
 * Two instances behind HAProxy (`haproxyConfig`), four partners' worth of continuous signed
 * creates through it, and a rolling restart: SIGTERM one, start it again, then the other.
 */
async function rollingRestart(haproxyConfig: string, readySeconds: number): Promise<Outcome> {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const env: ProcessEnv = {
    databaseUrl: await freshDatabaseUrl("postgres", dir),
    dataDir: dir,
    extra: { GATEWAY_DRAIN_READY_SECONDS: String(readySeconds), GATEWAY_DRAIN_SECONDS: "2" },
  };
  const ports = [await freePort(), await freePort()];
  const lbPort = await freePort();
  const instances: RunningGateway[] = [];
  for (const port of ports) instances.push(await startProcess(env, port));
  cleanups.push(() => {
    for (const gw of instances) gw.child.kill("SIGKILL");
  });
  await startHaproxy(pointedAt(haproxyConfig, lbPort, ports), dir, lbPort, cleanups);
  const lb = `http://127.0.0.1:${lbPort}`;
  const partner = await createPartnerWithCli(env, rsaKeys());
  const token = await loginOver(lb, partner);

  const outcome: Outcome = { succeeded: 0, failed: 0, failures: [], latencies: [] };
  let running = true;
  const worker = async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${lb}/api/v1/sales-orders`, {
          method: "POST",
          headers: signedOver(partner, token),
          body: JSON.stringify(order()),
        });
        await response.arrayBuffer();
        outcome.latencies.push(performance.now() - started);
        if (response.status === 201) outcome.succeeded++;
        else {
          outcome.failed++;
          outcome.failures.push(String(response.status));
        }
      } catch (error) {
        outcome.failed++;
        outcome.failures.push((error as Error).message);
      }
    }
  };
  const workers = Array.from({ length: 4 }, worker);
  await sleep(1000);
  for (const [i, port] of ports.entries()) {
    const old = instances[i] as RunningGateway;
    old.child.kill("SIGTERM");
    expect(await old.exited).toBe(0);
    instances[i] = await startProcess(env, port);
    // HAProxy puts it back after `rise` (2) good checks a second apart.
    await sleep(3500);
  }
  await sleep(1000);
  running = false;
  await Promise.all(workers);
  return outcome;
}

describe.runIf(onPostgres && (haveHaproxy || process.env.CI))(
  "a rolling restart behind HAProxy",
  () => {
    it("loses no request with the documented configuration", async () => {
      // 3 s not ready: longer than HAProxy's inter 1s × fall 2 plus a check.
      const outcome = await rollingRestart(documentedHaproxyConfig(), 3);
      const { latencies } = outcome;
      console.log(
        `rolling restart: ${outcome.succeeded} created, p50 ${percentileOf(latencies, 50).toFixed(0)} ms, ` +
          `p99 ${percentileOf(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms`,
      );
      expect(outcome.failures).toEqual([]);
      expect(outcome.succeeded).toBeGreaterThan(50);
    }, 120_000);

    // Figures for docs/benchmarks.md: ROLLING_RESTART_COMPARE=1 npx vitest run …
    it.runIf(process.env.ROLLING_RESTART_COMPARE)(
      "compares without the not-ready phase and without retries",
      async () => {
        const noRetry = documentedHaproxyConfig().replace(/^\s*retry-on .*$/m, "");
        for (const [name, config, ready] of [
          ["documented, not-ready 3 s", documentedHaproxyConfig(), 3],
          ["documented, no not-ready phase", documentedHaproxyConfig(), 0],
          ["no retry-on, not-ready 3 s", noRetry, 3],
          ["no retry-on, no not-ready phase", noRetry, 0],
        ] as const) {
          const { succeeded, failed, failures, latencies } = await rollingRestart(config, ready);
          console.log(
            `${name}: ${succeeded} succeeded, ${failed} failed ${failures.join(",")}, ` +
              `p99 ${percentileOf(latencies, 99).toFixed(0)} ms`,
          );
          for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
        }
      },
      600_000,
    );
  },
);

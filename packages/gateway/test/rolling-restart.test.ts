/**
 * A rolling restart behind the HAProxy configuration docs/deploy.md ships loses no request: two
 * built gateway processes on one PostgreSQL database, a real HAProxy in front, partners creating
 * signed orders without pause while each instance in turn gets SIGTERM and starts again.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { order, rsaKeys, tempDir } from "./helpers.js";
import {
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  type RunningGateway,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const haveHaproxy = spawnSync("haproxy", ["-v"]).status === 0;
const onPostgres = storeKinds.includes("postgres");
const DEPLOY_MD = new URL("../../../docs/deploy.md", import.meta.url);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The HAProxy configuration of docs/deploy.md, pointed at this test's ports. */
function documentedHaproxyConfig(): string {
  const match = /```haproxy\n([\s\S]*?)```/.exec(readFileSync(DEPLOY_MD, "utf8"));
  if (!match?.[1]) throw new Error("docs/deploy.md has no haproxy block");
  return match[1];
}

function pointedAt(config: string, lbPort: number, ports: number[]): string {
  return config
    .replace(/bind :\d+/, `bind 127.0.0.1:${lbPort}`)
    .replace(/(server gw1 )\S+/, `$1127.0.0.1:${ports[0]}`)
    .replace(/(server gw2 )\S+/, `$1127.0.0.1:${ports[1]}`);
}

async function startHaproxy(config: string, dir: string, lbPort: number): Promise<ChildProcess> {
  const file = join(dir, "haproxy.cfg");
  writeFileSync(file, config);
  const child = spawn("haproxy", ["-f", file, "-db"], { stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  cleanups.push(async () => {
    child.kill("SIGKILL");
    await exited;
  });
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${lbPort}/ready`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return child;
    await sleep(100);
  }
  throw new Error("HAProxy did not come up");
}

interface Outcome {
  succeeded: number;
  failed: number;
  /** Status (or error) of each failed request. */
  failures: string[];
}

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
  await startHaproxy(pointedAt(haproxyConfig, lbPort, ports), dir, lbPort);
  const lb = `http://127.0.0.1:${lbPort}`;
  const partner = await createPartnerWithCli(env, rsaKeys());
  const token = await loginOver(lb, partner);

  const outcome: Outcome = { succeeded: 0, failed: 0, failures: [] };
  let running = true;
  const worker = async () => {
    while (running) {
      try {
        const response = await fetch(`${lb}/api/v1/sales-orders`, {
          method: "POST",
          headers: signedOver(partner, token),
          body: JSON.stringify(order()),
        });
        await response.arrayBuffer();
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
          const { succeeded, failed, failures } = await rollingRestart(config, ready);
          console.log(`${name}: ${succeeded} succeeded, ${failed} failed ${failures.join(",")}`);
          for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
        }
      },
      600_000,
    );
  },
);

/**
 * HAProxy in front of built gateway processes, with the configuration docs/deploy.md ships:
 * what rolling-restart and crash-retry run their instances behind.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export const haveHaproxy = spawnSync("haproxy", ["-v"]).status === 0;

const DEPLOY_MD = new URL("../../../../docs/deploy.md", import.meta.url);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The HAProxy configuration of docs/deploy.md. */
export function documentedHaproxyConfig(): string {
  const match = /```haproxy\n([\s\S]*?)```/.exec(readFileSync(DEPLOY_MD, "utf8"));
  if (!match?.[1]) throw new Error("docs/deploy.md has no haproxy block");
  return match[1];
}

/** `config` listening on `lbPort`, its two servers on `ports`. */
export function pointedAt(config: string, lbPort: number, ports: number[]): string {
  return config
    .replace(/bind :\d+/, `bind 127.0.0.1:${lbPort}`)
    .replace(/(server gw1 )\S+/, `$1127.0.0.1:${ports[0]}`)
    .replace(/(server gw2 )\S+/, `$1127.0.0.1:${ports[1]}`);
}

/**
 * Starts HAProxy with `config` (written into `dir`) and resolves once `/ready` answers through
 * it; the stop it pushes onto `cleanups` kills it.
 */
export async function startHaproxy(
  config: string,
  dir: string,
  lbPort: number,
  cleanups: (() => unknown)[],
): Promise<ChildProcess> {
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

/**
 * Load that is not the gateway's own, for the tests of who gets through it: a sign-in flood
 * from many source addresses, and busy loops that take the cores.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { setPriority } from "node:os";
import { fileURLToPath } from "node:url";

const FLOOD_WORKER = fileURLToPath(new URL("../../bench/flood-worker.mjs", import.meta.url));

interface FloodPlan {
  /** Gateways the flood's addresses take turns at. */
  urls: string[];
  seconds: number;
  addresses: number;
  /** The first three octets of the flood's addresses, such as "127.0.3". */
  prefix: string;
  /** What each address sends in turn; "{n}" and "{i}" in body strings: address and attempt. */
  attempts: { path: string; body: Record<string, string> }[];
}

/**
 * A flood from `plan.addresses` addresses, each sending its attempts in turn, one at a time,
 * for `plan.seconds` or until `stop` resolves, from a process of its own at nice 10
 * (bench/flood-worker.mjs): the attacker's CPU is not the gateway's. Resolves to the count of
 * each status, all attempts together. `onKnown` is called once every address is known to the
 * gateway as flooding (refused for its password once or answered three times): until then a
 * flood's first contact looks like anyone's.
 */
export function floodFrom(
  plan: FloodPlan,
  stop?: Promise<unknown>,
  onKnown?: () => void,
): Promise<Record<number, number>> {
  const child = spawn(process.execPath, [FLOOD_WORKER, JSON.stringify(plan)], {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  child.on("message", (message) => {
    if (message === "known") onKnown?.();
  });
  if (child.pid !== undefined) setPriority(child.pid, 10);
  void stop?.then(() => child.kill("SIGTERM"));
  let out = "";
  child.stdout?.on("data", (chunk) => {
    out += chunk;
  });
  return new Promise((resolve) =>
    child.once("exit", () => {
      const statuses: Record<number, number> = {};
      for (const [key, n] of Object.entries(JSON.parse(out || "{}") as Record<string, number>)) {
        const status = Number(key.split(" ")[1]);
        statuses[status] = (statuses[status] ?? 0) + n;
      }
      resolve(statuses);
    }),
  );
}

/**
 * `count` processes spinning at normal priority, as other work on a busy machine does (on a
 * 2-core machine, 2 take both cores). Returns the function that ends them.
 */
export function busyLoops(count = 2): () => Promise<void> {
  const loops: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }),
  );
  return async () => {
    await Promise.all(
      loops.map((loop) => {
        if (loop.exitCode !== null || loop.signalCode !== null) return undefined;
        const exited = new Promise((resolve) => loop.once("exit", resolve));
        loop.kill("SIGKILL");
        return exited;
      }),
    );
  };
}

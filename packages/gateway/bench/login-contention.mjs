// node bench/login-contention.mjs [--seconds 60 --warm-up 10 --addresses 200 --victims 10 --store sqlite]
//
// Does a correct sign-in get through a wrong-password flood when the machine's cores are busy
// with work that is not the gateway's? The built gateway (`orderline-gateway serve`, shipped
// defaults, scrypt N = 2^17) runs in a child process. `--addresses` flood addresses
// (127.0.2.x in the first phase, 127.0.3.x in the second; flood-worker.mjs in a process of its own at nice 10) send wrong passwords,
// each one at a time, for the victim's email and for unknown emails, alternately. After
// `--warm-up` seconds (the flood's first contact: until each of its addresses has failed once or
// been refused three times, its checks look like anybody's), `--victims` correct sign-ins for
// the victim's email are made one after another, 0.5 s apart, each from an address never seen
// before (127.0.5.x): the case the fair queue has no history for. Two phases: the flood alone, then the flood while
// two busy loops (`node -e 'for(;;){}'` at nice 0) take both cores of a 2-core machine.
// Prints, per phase, the victims' successes, p50 and p95 (ms), each sign-in's time, and how the
// flood was answered; a victim made after the flood ended is flagged.
// Run `npm run build -w @orderline/gateway` first.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { onServer, spawnServer } from "./common.mjs";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "60" },
    "warm-up": { type: "string", default: "10" },
    addresses: { type: "string", default: "200" },
    victims: { type: "string", default: "10" },
    store: { type: "string", default: "sqlite" },
  },
});
const seconds = Number(values.seconds);
const addresses = Number(values.addresses);
const victims = Number(values.victims);
const here = new URL(".", import.meta.url).pathname;
const cli = join(here, "../dist/cli/main.js");
const MASTER_KEY = "f3".repeat(32);
const PASSWORD = "benchmark password 123";
const EMAIL = "victim@contention.example";
const ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const WARM_UP_MS = Number(values["warm-up"]) * 1000;

const quantile = (list, q) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};

/** Runs the admin CLI to completion (stdin: `input`); resolves to its stdout. */
function admin(env, args, input) {
  const child = spawn("node", [cli, ...args], { env, stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  child.stdin.end(input ?? "");
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(" ")} exited ${code}`)),
    ),
  );
}

/** POSTs JSON from `localAddress` on a new connection; resolves to [status, ms, code]. */
function post(url, path, body, localAddress) {
  const payload = JSON.stringify(body);
  const agent = new Agent({ keepAlive: false, localAddress });
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      new URL(path, url),
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          const code = res.statusCode === 200 ? "" : (JSON.parse(text || "{}").code ?? "");
          resolve([res.statusCode, performance.now() - started, code]);
        });
      },
    );
    req.on("error", (error) => resolve([0, performance.now() - started, error.code]));
    req.end(payload);
  });
}

/** The flood (flood-worker.mjs) at nice 10 for `seconds`; resolves to its answers' counts. */
function flood(url, prefix) {
  const plan = {
    urls: [url],
    seconds,
    addresses,
    prefix,
    attempts: [
      { path: "/v1/auth/login", body: { email: EMAIL, password: "wrong password {n} {i}" } },
      {
        path: "/v1/auth/login",
        body: { email: "nobody-{n}-{i}@flood.example", password: "wrong password {i}" },
      },
    ],
  };
  const child = spawn(process.execPath, [join(here, "flood-worker.mjs"), JSON.stringify(plan)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    setPriority(child.pid, 10);
  } catch {}
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  return new Promise((resolve) => child.once("exit", () => resolve(JSON.parse(out || "{}"))));
}

/** Two processes spinning at normal priority, as other work on the machine would. */
function busyLoops() {
  const loops = [0, 1].map(() => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
  return () =>
    Promise.all(
      loops.map((loop) => {
        const exited = new Promise((resolve) => loop.once("exit", resolve));
        loop.kill("SIGKILL");
        return exited;
      }),
    );
}

async function phase(url, round, busy) {
  const stopBusy = busy ? busyLoops() : undefined;
  try {
    let flooding = true;
    const flooded = flood(url, `127.0.${2 + round}`).finally(() => {
      flooding = false;
    });
    await new Promise((r) => setTimeout(r, WARM_UP_MS));
    const got = [];
    for (let i = 0; i < victims; i++) {
      const from = `127.0.5.${round * 100 + i + 1}`;
      got.push(await post(url, "/v1/auth/login", { email: EMAIL, password: PASSWORD }, from));
      if (!flooding) console.error(`victim ${i + 1} ended after the flood: raise --seconds`);
      await new Promise((r) => setTimeout(r, 500));
    }
    return { got, statuses: await flooded };
  } finally {
    await stopBusy?.();
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "orderline-contention-bench-"));
  const dbName = `contention_bench_${process.pid}`;
  let databaseUrl = `sqlite:${join(dir, "gateway.db")}`;
  if (values.store === "postgres") {
    await onServer(ADMIN_URL, (c) => c.query(`CREATE DATABASE ${dbName}`));
    databaseUrl = `postgres://postgres@127.0.0.1:5432/${dbName}`;
  }
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    GATEWAY_DATA_DIR: dir,
    GATEWAY_MASTER_KEY: MASTER_KEY,
    GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
    GATEWAY_DRAIN_READY_SECONDS: "0",
    GATEWAY_DRAIN_SECONDS: "0",
    REDIS_URL: "",
  };
  const server = await spawnServer(cli, env);
  try {
    const tenant = JSON.parse(await admin(env, ["tenants", "create", "--name", "Bench", "--json"]));
    const args = ["users", "create", "--tenant", tenant.tenant_id, "--email", EMAIL];
    await admin(env, [...args, "--role", "member"], `${PASSWORD}\n`);
    console.log(
      `${addresses} flood addresses for ${seconds} s (${values.store}); ${victims} correct sign-ins, each from a new address, after ${WARM_UP_MS / 1000} s`,
    );
    console.log(
      "| busy loops | victims ok | p50 ms | p95 ms | each sign-in, ms | refused | flood answers |",
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- |");
    for (const [round, busy] of [
      [0, false],
      [1, true],
    ]) {
      const { got, statuses } = await phase(server.url, round, busy);
      const ms = got.map(([, t]) => t);
      const refused = got.filter(([s]) => s !== 200).map(([s, , code]) => `${s} ${code}`);
      const answers = Object.entries(statuses)
        .map(([k, n]) => `${n}× ${k.split(" ")[1]}`)
        .join(", ");
      console.log(
        `| ${busy ? "2" : "0"} | ${got.length - refused.length}/${got.length} | ${quantile(ms, 0.5).toFixed(0)} | ${quantile(ms, 0.95).toFixed(0)} | ${ms.map((t) => t.toFixed(0)).join(" ")} | ${refused.join(", ") || "–"} | ${answers} |`,
      );
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((r) => server.child.once("exit", r));
    if (values.store === "postgres")
      await onServer(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

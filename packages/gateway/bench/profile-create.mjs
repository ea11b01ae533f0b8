// node bench/profile-create.mjs [--seconds 10 --connections 64 --keep DIR --cli OTHER/dist/cli/main.js]
//
// Where the CPU of a signed create goes: the built gateway's `serve` under `--cpu-prof` (every
// thread writes its own profile: the HTTP thread and the SQLite writer), driven by driver.mjs
// like bench/peer.mjs, then each profile's samples charged to a stage by the innermost frame
// that names one (STAGES, first match from the leaf up). Prints µs of CPU per created order by
// thread and stage; the sampled time is scaled to the process's measured CPU (/proc), so the
// stages add up to what the process spent.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { benchStore, drive, spawnListening } from "./common.mjs";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    keep: { type: "string" },
    // Another build's CLI, so two builds can be measured in turns in one session.
    cli: { type: "string" },
    // Without the profiler: only each thread's CPU (the profiler itself costs about a fifth).
    "threads-only": { type: "boolean", default: false },
  },
});

/**
 * Stages by the frames that do their work, tested leaf first. A frame matches when its function
 * name or script path contains the pattern.
 */
const STAGES = [
  ["SQLite statements (writer)", ["order-writer", "nonce-writer", "sqliteTransaction"]],
  ["SQLite writer thread hand-off", ["writer-thread", "structuredClone", "postMessage"]],
  ["thread hand-off (HTTP side)", ["sqlite-store", "group-commit", "MessagePort", "worker"]],
  // node:crypto's verify lives in internal/crypto/sig; a bare "verify" would also match the
  // authenticator's #verifySigned and the token's verifyAccess.
  ["RSA signature check", ["request-signature", "internal/crypto/sig"]],
  ["token (JWT)", ["jose", "security/tokens", "security/jws", "token-partner"]],
  ["authenticator (own code)", ["authenticate"]],
  ["replay nonce", ["replay-guard"]],
  ["idempotency key", ["idempotency"]],
  ["schema validation (ajv)", ["ajv", "validate", "compile-once", "validation"]],
  ["request log", ["request-log"]],
  ["metrics", ["prom-client", "metrics"]],
  ["tracing hooks", ["opentelemetry", "tracing", "store-probe"]],
  ["order domain", ["domain/orders", "order-routes"]],
  ["response serialisation", ["fast-json-stringify", "serialize", "reply"]],
  ["Fastify routing and hooks", ["fastify", "find-my-way", "avvio", "hooks"]],
  ["JSON parse", ["JSON.parse", "parse", "content-type-parser", "secure-json-parse"]],
  [
    "HTTP parse and socket I/O",
    ["_http", "http_parser", "net", "stream", "writev", "writeGeneric"],
  ],
  ["garbage collection", ["(garbage collector)"]],
  ["idle", ["(idle)", "(program)"]],
];

const here = new URL(".", import.meta.url).pathname;
const cli = values.cli ?? join(here, "../dist/cli/main.js");
const dir = mkdtempSync(join(tmpdir(), "orderline-profile-"));
const profiles = values.keep ?? join(dir, "profiles");
mkdirSync(profiles, { recursive: true });

/** CPU time (user + system, µs) of a process or thread so far, from /proc (Linux). */
function cpuMicros(pid, tid) {
  const path = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
  const fields = readFileSync(path, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
/** CPU so far of each of the process's threads, by thread id. */
const threadCpu = (pid) =>
  new Map(readdirSync(`/proc/${pid}/task`).map((tid) => [tid, cpuMicros(pid, tid)]));
const countOrders = () => {
  const db = new Database(join(dir, "gateway.db"), { readonly: true });
  try {
    return db.prepare("SELECT count(*) AS n FROM sales_orders").get().n;
  } finally {
    db.close();
  }
};

const { env, credentials } = benchStore(cli, dir);
const profiler = values["threads-only"]
  ? []
  : ["--cpu-prof", `--cpu-prof-dir=${profiles}`, "--cpu-prof-interval=200"];
const server = await spawnListening(
  [...profiler, cli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "warn"],
  env,
  "server",
);
let cpu = 0;
let created = 0;
let perThread = [];
try {
  // A short warm-up outside the measurement (JIT, statement caches, the writer's first pages).
  drive({
    url: server.url,
    credentials,
    key: join(dir, "private.pem"),
    connections: 8,
    seconds: 2,
    env,
  });
  const [cpuBefore, before] = [cpuMicros(server.child.pid), countOrders()];
  const threadsBefore = threadCpu(server.child.pid);
  drive({
    url: server.url,
    credentials,
    key: join(dir, "private.pem"),
    connections: Number(values.connections),
    seconds: Number(values.seconds),
    tag: "p",
    env,
  });
  cpu = cpuMicros(server.child.pid) - cpuBefore;
  created = countOrders() - before;
  const pid = String(server.child.pid);
  perThread = [...threadCpu(server.child.pid)]
    .map(([tid, us]) => ({ main: tid === pid, us: us - (threadsBefore.get(tid) ?? 0) }))
    .filter((t) => t.us > 0)
    .sort((a, b) => Number(b.main) - Number(a.main) || b.us - a.us);
} finally {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}

/** Self time per stage of one .cpuprofile, µs (the warm-up included: shares, not totals). */
function stagesOf(file) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOfNode = new Map();
  const stageOf = (id) => {
    if (stageOfNode.has(id)) return stageOfNode.get(id);
    let stage = "other";
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url } = byId.get(at).callFrame;
      const found = STAGES.find(([, patterns]) =>
        patterns.some((p) => functionName.includes(p) || url.includes(p)),
      );
      if (found) {
        stage = found[0];
        break;
      }
    }
    stageOfNode.set(id, stage);
    return stage;
  };
  const totals = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const stage = stageOf(profile.samples[i]);
    totals.set(stage, (totals.get(stage) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0));
  }
  return totals;
}

console.log(
  `${created} orders in ${values.seconds} s (${(created / Number(values.seconds)).toFixed(0)}/s), ${(cpu / created).toFixed(0)} µs CPU per order (process, /proc), load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
console.log(
  `by thread (/proc, µs per order): ${perThread
    .map(
      (t, i) =>
        `${t.main ? "HTTP (main)" : i === 1 ? "next busiest (the SQLite writer)" : "other"} ${(t.us / created).toFixed(0)}`,
    )
    .join(", ")}`,
);
if (values["threads-only"]) {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
const threads = readdirSync(profiles)
  .filter((f) => f.endsWith(".cpuprofile"))
  .map((f) => ({ file: f, stages: stagesOf(join(profiles, f)) }));
// Busy time only: idle samples are time the thread waited, not CPU.
const busy = (stages) =>
  [...stages].filter(([s]) => s !== "idle").reduce((sum, [, us]) => sum + us, 0);
const allBusy = threads.reduce((sum, t) => sum + busy(t.stages), 0);
const scale = cpu / allBusy / created;
for (const thread of threads.sort((a, b) => busy(b.stages) - busy(a.stages))) {
  console.log(`\n${thread.file}: ${(busy(thread.stages) * scale).toFixed(0)} µs per order`);
  for (const [stage, us] of [...thread.stages].sort((a, b) => b[1] - a[1]))
    if (stage !== "idle" && us * scale >= 1)
      console.log(`  ${stage.padEnd(34)} ${(us * scale).toFixed(1).padStart(7)} µs`);
}
if (!values.keep) rmSync(dir, { recursive: true, force: true });
else console.log(`\nprofiles kept in ${profiles} (open in Chrome DevTools or speedscope)`);

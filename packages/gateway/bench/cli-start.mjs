/**
 * How long the built admin CLI takes from process start to exit (`--help`, `partners list` on an
 * SQLite store) and `serve` from process start to listening, as operators run them: N runs
 * each, median and spread of wall seconds (CPU: pair two builds with farm-bench --vs).
 *
 *   node bench/cli-start.mjs [--runs 15] [--cli dist/cli/main.js]
 *
 * `--cli` takes another build's main.js, to compare two builds in one run (docs/benchmarks.md).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "15" },
    cli: {
      type: "string",
      default: fileURLToPath(new URL("../dist/cli/main.js", import.meta.url)),
    },
  },
});
const runs = Number(values.runs);
const dir = mkdtempSync(join(tmpdir(), "cli-start-"));
const db = `sqlite:${join(dir, "gateway.db")}`;
const env = {
  ...process.env,
  GATEWAY_DATA_DIR: dir,
  GATEWAY_MASTER_KEY: "",
  REDIS_URL: "",
  GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
  GATEWAY_DRAIN_READY_SECONDS: "0",
  GATEWAY_DRAIN_SECONDS: "0",
};

/** One process of `args`; ends it with SIGTERM once stdout shows `until`, if given. */
function timed(args, until) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [values.cli, ...args], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let ready;
    child.stdout.on("data", (chunk) => {
      if (until && ready === undefined && String(chunk).includes(until)) {
        ready = process.hrtime.bigint();
        child.kill("SIGTERM");
      }
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code, signal) => {
      const ended = ready ?? process.hrtime.bigint();
      if (!until && code !== 0)
        return reject(new Error(`${args.join(" ")}: exit ${code} ${stderr}`));
      if (until && ready === undefined)
        return reject(new Error(`${args.join(" ")}: ${signal ?? code} ${stderr}`));
      resolve(Number(ended - started) / 1e9);
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const row = (name, xs) =>
  `| ${name} | ${Math.min(...xs).toFixed(3)} | ${median(xs).toFixed(3)} | ${Math.max(...xs).toFixed(3)} |`;

try {
  await timed(["migrate", "--db", db]);
  const cases = [
    ["`--help`", ["--help"]],
    ["`partners list`", ["partners", "list", "--db", db]],
    ["`serve` until it listens", ["serve", "--port", "0", "--db", db], "listening"],
  ];
  console.log(`${values.cli}, ${runs} runs each, wall seconds\n`);
  console.log("| command | min | median | max |\n| --- | --- | --- | --- |");
  for (const [name, args, until] of cases) {
    const xs = [];
    await timed(args, until);
    for (let i = 0; i < runs; i++) xs.push(await timed(args, until));
    console.log(row(name, xs));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// Timing helpers shared by the diagrams benchmark scripts.
import { spawnSync } from "node:child_process";

/** Median, p95 and run count of a list of durations in ms. */
export function summarize(name, samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { name, median: at(0.5), p95: at(0.95), runs: samples.length };
}

/** Durations (ms) of `runs` calls of fn (sync or async), after up to 20 warm-up calls. */
export async function timeInProcess(fn, runs) {
  for (let i = 0; i < Math.min(20, runs); i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

/** Durations (ms) of `runs` fresh `node ARGS` processes; an exit code outside `ok` throws. */
export function timeProcess(args, runs, ok = [0]) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { encoding: "utf8" });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (!ok.includes(result.status ?? -1)) {
      throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
    }
  }
  return samples;
}

// Loaded into a bench server with `node --import` (bench/pg-instances.mjs sets it): counts the
// round trips this process makes to PostgreSQL (queries, by kind) and Redis (commands), and
// writes them with its CPU time to $BENCH_COUNT_DIR/<pid>.json on SIGUSR2, so the bench can
// say what each created order cost in round trips and CPU — figures machine load does not move.
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";

const dir = process.env.BENCH_COUNT_DIR;
const counts = { pg: 0, pgBegin: 0, pgOrderBatches: 0, redis: 0 };
// BENCH_COUNT_TEXTS=1: also count each statement's opening words (what the round trips are).
const texts = process.env.BENCH_COUNT_TEXTS ? {} : undefined;

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(config, ...rest) {
  counts.pg++;
  const text = typeof config === "string" ? config : config?.text;
  if (text === "BEGIN") counts.pgBegin++;
  if (texts && text) texts[text.slice(0, 70)] = (texts[text.slice(0, 70)] ?? 0) + 1;
  if (typeof config === "object" && config?.name?.startsWith("orderline_insert_orders"))
    counts.pgOrderBatches++;
  return query.call(this, config, ...rest);
};

const sendCommand = Redis.prototype.sendCommand;
Redis.prototype.sendCommand = function countedCommand(...args) {
  counts.redis++;
  return sendCommand.apply(this, args);
};

if (dir) {
  const write = () => {
    const cpu = process.cpuUsage();
    try {
      writeFileSync(
        join(dir, `${process.pid}.json`),
        JSON.stringify({ ...counts, cpuMs: (cpu.user + cpu.system) / 1000, texts }),
      );
    } catch {
      // The bench removed its directory while this server was stopping.
    }
  };
  // On request only (the bench sends SIGUSR2 before it reads): a write every 200 ms cost
  // each server more CPU than some of the differences measured.
  process.on("SIGUSR2", write);
  process.on("exit", write);
  write();
}

// BENCH_CPU_PROF_DIR: a V8 CPU profile of the whole life of this server, written as it exits
// (--cpu-prof cannot go through NODE_OPTIONS).
const profDir = process.env.BENCH_CPU_PROF_DIR;
if (profDir) {
  mkdirSync(profDir, { recursive: true });
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  process.on("exit", () => {
    session.post("Profiler.stop", (error, result) => {
      if (!error)
        writeFileSync(join(profDir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}

// node bench/builds-at-once.mjs A/dist/cli/main.js B/dist/cli/main.js [--rounds 6 --seconds 6]
//
// Two builds of the gateway served at the same time, each on its own SQLite file and driven by
// its own bench/driver.mjs (32 connections each), round after round. Whatever else the machine
// does then slows both alike, so the ratio of their CPU per created order (server process, every
// thread, /proc) holds steadier than two runs one after the other; for a change of a few per
// cent. The absolute figures are above a lone run's (four busy processes on the cores).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";
import Database from "better-sqlite3";
import { benchStore, median, spawnServer } from "./common.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "6" },
    seconds: { type: "string", default: "6" },
  },
});
if (positionals.length !== 2) throw new Error("name two built CLIs (dist/cli/main.js)");
const run = promisify(execFile);
const here = new URL(".", import.meta.url).pathname;
const seconds = Number(values.seconds);

/** CPU time (user + system, µs) of a process so far, from /proc (Linux). */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function serve(cli) {
  const dir = mkdtempSync(join(tmpdir(), "orderline-builds-"));
  const { env, credentials } = benchStore(cli, dir);
  const server = await spawnServer(cli, env);
  const orders = () => {
    const db = new Database(join(dir, "gateway.db"), { readonly: true });
    try {
      return db.prepare("SELECT count(*) AS n FROM sales_orders").get().n;
    } finally {
      db.close();
    }
  };
  const drive = (secs, connections, tag) =>
    run(
      "node",
      [
        join(here, "driver.mjs"),
        ...["--url", server.url, "--client-id", credentials.client_id],
        ...["--client-secret", credentials.client_secret, "--key", join(dir, "private.pem")],
        ...["--connections", String(connections), "--seconds", String(secs), "--tag", tag],
      ],
      { env },
    );
  const stop = async () => {
    const exited = new Promise((resolve) => server.child.once("exit", resolve));
    server.child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  return { pid: server.child.pid, orders, drive, stop };
}

const [a, b] = [await serve(positionals[0]), await serve(positionals[1])];
try {
  await Promise.all([a.drive(2, 8, "w"), b.drive(2, 8, "w")]);
  const ratios = [];
  const perOrder = { a: [], b: [] };
  for (let round = 1; round <= Number(values.rounds); round++) {
    const start = [a, b].map((s) => ({ cpu: cpuMicros(s.pid), orders: s.orders() }));
    await Promise.all([a.drive(seconds, 32, `r${round}`), b.drive(seconds, 32, `r${round}`)]);
    const [ua, ub] = [a, b].map((s, i) => {
      const created = s.orders() - start[i].orders;
      return { us: (cpuMicros(s.pid) - start[i].cpu) / created, rate: created / seconds };
    });
    perOrder.a.push(ua.us);
    perOrder.b.push(ub.us);
    ratios.push(ub.us / ua.us);
    console.log(
      `round ${round}: A ${ua.us.toFixed(0)} µs/order (${ua.rate.toFixed(0)}/s), B ${ub.us.toFixed(0)} µs/order (${ub.rate.toFixed(0)}/s), B/A ${(ub.us / ua.us).toFixed(3)}`,
    );
  }
  console.log(
    `medians: A ${median(perOrder.a).toFixed(0)} µs/order, B ${median(perOrder.b).toFixed(0)} µs/order, B/A ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`,
  );
} finally {
  await Promise.all([a.stop(), b.stop()]);
}

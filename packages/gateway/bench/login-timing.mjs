// node bench/login-timing.mjs [--rounds 30]   (after `npm run build -w @orderline/gateway`)
//
// Tenant user sign-in at the shipped scrypt cost (N = 2^17): median and p90 latency of
// POST /v1/auth/login for an unknown email, a wrong password and the right password, measured
// in turn, round-robin, in one process over app.inject (no network). The first two must cost
// about the same, so that timing does not tell which emails have accounts. The clock jumps two
// hours after each attempt, so the failed-login lock never engages.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createGateway, createLogger, loadConfig } from "../dist/index.js";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "30" } } });
const rounds = Number(values.rounds);
const dir = mkdtempSync(join(tmpdir(), "orderline-login-bench-"));
let offset = 0;
const gw = await createGateway({
  config: loadConfig(
    // Every attempt comes from one address: the per-address login limit would refuse them.
    { GATEWAY_MASTER_KEY: undefined, GATEWAY_RATE_LIMIT_LOGINS: "0" },
    { databaseUrl: `sqlite:${join(dir, "gateway.db")}`, dataDir: dir },
  ),
  now: () => Date.now() + offset,
  logger: createLogger("silent"),
});
const PASSWORD = "benchmark password 123";
const tenant = await gw.tenants.create("Bench");
await gw.users.create({
  tenantId: tenant.tenant_id,
  email: "user@bench.example",
  role: "member",
  password: PASSWORD,
});

const cases = {
  "unknown email": (i) => ({ email: `nobody${i}@bench.example`, password: PASSWORD }),
  "wrong password": (i) => ({ email: "user@bench.example", password: `wrong ${i}` }),
  "right password": () => ({ email: "user@bench.example", password: PASSWORD }),
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < rounds; i++) {
  for (const [name, body] of Object.entries(cases)) {
    const start = process.hrtime.bigint();
    const response = await gw.app.inject({
      method: "POST",
      url: "/v1/auth/login",
      payload: body(i),
    });
    times[name].push(Number(process.hrtime.bigint() - start) / 1e6);
    const expected = name === "right password" ? 200 : 401;
    if (response.statusCode !== expected) throw new Error(`${name}: ${response.statusCode}`);
    offset += 2 * 60 * 60 * 1000;
  }
}
await gw.close();
rmSync(dir, { recursive: true, force: true });

const quantile = (list, q) => [...list].sort((a, b) => a - b)[Math.floor(q * (list.length - 1))];
console.log(`| case | median ms | p90 ms |  (${rounds} rounds)`);
console.log("| --- | --- | --- |");
for (const [name, list] of Object.entries(times)) {
  console.log(
    `| ${name} | ${quantile(list, 0.5).toFixed(1)} | ${quantile(list, 0.9).toFixed(1)} |`,
  );
}

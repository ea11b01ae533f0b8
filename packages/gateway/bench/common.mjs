// What the gateway's bench scripts share: starting the built server, driving it with
// driver.mjs, a PostgreSQL admin connection, the partner's key pair, medians.
import { execFileSync, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

export { redisAnswers } from "./redis-answers.mjs";

const here = new URL(".", import.meta.url).pathname;

export function median(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** A partner's RSA-2048 key pair (PEM), also written to `dir` as public.pem and private.pem. */
export function partnerKeys(dir) {
  const keys = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  writeFileSync(join(dir, "public.pem"), keys.publicKey);
  writeFileSync(join(dir, "private.pem"), keys.privateKey);
  return keys;
}

/**
 * A SQLite store in `dir` migrated by the built CLI `cli`, with one partner (keys in `dir`), and
 * the environment that serves it for a create benchmark: no rate limit to hit, metrics on a free
 * port, no Redis. Returns that environment and the partner's credentials.
 */
export function benchStore(cli, dir) {
  partnerKeys(dir);
  const env = {
    ...process.env,
    GATEWAY_MASTER_KEY: "be".repeat(32),
    GATEWAY_DATA_DIR: dir,
    DATABASE_URL: `sqlite:${join(dir, "gateway.db")}`,
    GATEWAY_RATE_LIMIT_ORDERS: "1000000000",
    GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
    REDIS_URL: "",
  };
  const credentials = migrateWithPartner(cli, env, dir);
  return { env, credentials };
}

/**
 * Migrates the store `env` names with the built CLI `cli`, then creates the bench partner with
 * the public key in `dir` (partnerKeys); returns its credentials (client_id, client_secret).
 */
export function migrateWithPartner(cli, env, dir) {
  // Only migrate (and serve) create a store; partners create needs one.
  execFileSync("node", [cli, "migrate"], { env, stdio: "ignore" });
  return JSON.parse(
    execFileSync(
      "node",
      [
        cli,
        "partners",
        "create",
        "--name",
        "Bench",
        "--public-key",
        join(dir, "public.pem"),
        "--json",
      ],
      { env, encoding: "utf8" },
    ),
  );
}

/** Runs `work` with a client connected to the PostgreSQL server `url`. */
export async function onServer(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `orderline-gateway serve` (the CLI at `cli`) on a free port; resolves once it listens. */
export function spawnServer(cli, env) {
  return spawnListening(
    [cli, "serve", "--port", "0", "--host", "127.0.0.1", "--log-level", "warn"],
    env,
    "server",
  );
}

/** `node ...args`; resolves with the child and its URL once it prints "listening on URL". */
export function spawnListening(args, env, name) {
  const child = spawn("node", args, { env, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.on("exit", (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

/** Signed order creation against `url` by driver.mjs in its own process; its JSON result. */
export function drive({ url, credentials, key, connections, seconds, tag = "r", env }) {
  const out = execFileSync(
    "node",
    [
      join(here, "driver.mjs"),
      "--url",
      url,
      "--client-id",
      credentials.client_id,
      "--client-secret",
      credentials.client_secret,
      "--key",
      key,
      "--connections",
      String(connections),
      "--seconds",
      String(seconds),
      "--tag",
      tag,
    ],
    { encoding: "utf8", env },
  );
  return JSON.parse(out.trim().split("\n").at(-1));
}

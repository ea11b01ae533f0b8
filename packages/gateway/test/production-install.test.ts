/**
 * The production install of docs/deploy.md, as an operator makes it: the gateway and the console
 * packed with npm pack (docs/deploy/pack.sh), installed with production dependencies only into
 * an empty folder outside the repository (docs/deploy/install.sh), then `migrate` and `serve`
 * from that folder, and a partner signs in and creates an order over HTTP. The systemd unit that
 * runs this install is checked with `systemd-analyze verify`.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync, sign } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { order } from "./helpers.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field by the assertions
const read = (response: Response): Promise<any> => response.json();

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DEPLOY = join(ROOT, "docs/deploy");
const work = mkdtempSync(join(tmpdir(), "orderline-install-"));
const prefix = join(work, "opt-orderline");
const command = join(prefix, "node_modules/.bin/orderline-gateway");

/**
 * How this machine reaches the npm registry (a proxy, or a TLS-inspecting one's CA: without it
 * npm retries a refused certificate for minutes, silently), as a server's own setup would.
 */
const NETWORK_SETTINGS = [
  "NODE_EXTRA_CA_CERTS",
  "HTTPS_PROXY",
  "HTTP_PROXY",
  "NO_PROXY",
  "https_proxy",
  "http_proxy",
  "no_proxy",
];
const network = Object.fromEntries(
  NETWORK_SETTINGS.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : [])),
);

/** An environment with nothing of the checkout: the Node running the tests, then the system. */
const baseEnv = {
  ...network,
  PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
  HOME: process.env.HOME ?? work,
  TMPDIR: work,
  npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? work, ".npm"),
};

/**
 * better-sqlite3's install downloads its prebuilt binary from GitHub, which these machines cannot
 * reach; it then compiles SQLite from source, which took 11 minutes beside the rest of the suite.
 * The install is given the binary the repository's install already built for this Node, in the
 * documented form (docs/deploy.md, "Installing"): what an operator's server downloads or is given.
 */
function suppliedPrebuilds(): string {
  const dir = join(work, "prebuilds");
  const source = join(ROOT, "node_modules/better-sqlite3");
  const { version } = JSON.parse(readFileSync(join(source, "package.json"), "utf8"));
  const staging = join(work, "prebuild-staging");
  mkdirSync(join(staging, "build/Release"), { recursive: true });
  copyFileSync(
    join(source, "build/Release/better_sqlite3.node"),
    join(staging, "build/Release/better_sqlite3.node"),
  );
  mkdirSync(dir, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-linux-${process.arch}.tar.gz`;
  execFileSync("tar", ["-C", staging, "-czf", join(dir, name), "build"]);
  return dir;
}

let installWarnings = "";

beforeAll(() => {
  const packed = join(work, "release");
  execFileSync("sh", [join(DEPLOY, "pack.sh"), packed], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 300_000,
  });
  const tarballs = readdirSync(packed).map((file) => join(packed, file));
  // No stdin (npm may wait on it), and bounded: a synchronous call is beyond the hook's timeout.
  const install = spawnSync("sh", [join(DEPLOY, "install.sh"), prefix, ...tarballs], {
    cwd: work,
    env: { ...baseEnv, npm_config_better_sqlite3_local_prebuilds: suppliedPrebuilds() },
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    timeout: 480_000,
  });
  installWarnings = install.stderr;
  if (install.status !== 0)
    throw new Error(`install.sh failed (${install.status}): ${install.stderr}`);
}, 600_000);

function gatewayEnv(databaseUrl: string, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...baseEnv,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_METRICS_LISTEN: "127.0.0.1:0",
    GATEWAY_DRAIN_READY_SECONDS: "0",
    GATEWAY_DRAIN_SECONDS: "0",
  };
}

describe("the production install", () => {
  it("holds the packed packages and their production dependencies, none of the repository", () => {
    for (const name of ["@orderline/gateway", "@orderline/console"]) {
      const installed = join(prefix, "node_modules", name);
      expect(lstatSync(installed).isSymbolicLink(), name).toBe(false);
    }
    expect(existsSync(join(prefix, "node_modules/@orderline/console/dist/index.html"))).toBe(true);
    expect(existsSync(join(prefix, "node_modules/@orderline/gateway/CHANGELOG.md"))).toBe(true);
    for (const devOnly of [
      "vitest",
      "typescript",
      "playwright-core",
      "vite",
      "react",
      "@biomejs/biome",
    ])
      expect(existsSync(join(prefix, "node_modules", devOnly)), devOnly).toBe(false);
    expect(existsSync(join(prefix, "node_modules/better-sqlite3"))).toBe(true);
    // Every installed package supports the Node versions the gateway declares (Node 20 here).
    expect(installWarnings).not.toContain("EBADENGINE");
  });

  describe.each(storeKinds)("on %s", (kind) => {
    it("migrates, serves, and a partner signs in and creates an order over HTTP", async () => {
      const dataDir = mkdtempSync(join(work, `data-${kind}-`));
      const env = gatewayEnv(await freshDatabaseUrl(kind, dataDir), dataDir);
      const cli = (args: string[], input?: string) =>
        execFileSync(command, args, { cwd: dataDir, env, input, encoding: "utf8" });

      expect(JSON.parse(cli(["migrate", "--json"]))).toMatchObject({ store: kind });
      const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      writeFileSync(
        join(dataDir, "partner.pub"),
        publicKey.export({ type: "spki", format: "pem" }),
      );
      const tenant = JSON.parse(cli(["tenants", "create", "--name", "Install Foods", "--json"]));
      const partner = JSON.parse(
        cli(["partners", "create", "--name", "Acme", "--public-key", "partner.pub", "--json"]),
      );

      const child = spawn(command, ["serve", "--port", "0"], {
        cwd: dataDir,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      const base = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk) => {
          out += chunk;
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match?.[1]) resolve(match[1]);
        });
        child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      try {
        expect((await fetch(`${base}/ready`)).status).toBe(200);
        // The console comes from the installed @orderline/console package.
        const consolePage = await fetch(`${base}/console/`);
        expect(consolePage.status).toBe(200);
        expect(await consolePage.text()).toContain("<div id=");

        const login = await fetch(`${base}/api/v1/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            client_id: partner.client_id,
            client_secret: partner.client_secret,
          }),
        });
        expect(login.status).toBe(200);
        const { token } = await read(login);
        const timestamp = String(Math.floor(Date.now() / 1000));
        const created = await fetch(`${base}/api/v1/sales-orders`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${token}`,
            "x-client-id": partner.client_id,
            "x-timestamp": timestamp,
            "x-signature": sign(
              "sha256",
              Buffer.from(`${partner.client_id}|${timestamp}`),
              privateKey,
            ).toString("base64"),
          },
          body: JSON.stringify(order({ purchase_order_no: "PO-INSTALL-1" })),
        });
        expect(created.status, await created.clone().text()).toBe(201);
        expect((await read(created)).data).toMatchObject({
          order_number: "SO-00000001",
          status: "received",
        });
        expect(tenant.tenant_id ?? tenant.id).toMatch(/^tnt_/);
      } finally {
        child.kill("SIGTERM");
      }
      // SIGTERM, what systemd and Docker send: the gateway stops on its own, exit code 0.
      expect(await exited).toBe(0);
    }, 240_000);
  });
});

const systemdAnalyze = spawnSync("systemd-analyze", ["--version"]).status === 0;

describe("the systemd unit", () => {
  it.skipIf(!systemdAnalyze && !process.env.CI)(
    "passes systemd-analyze verify on the tested install (apt package systemd)",
    () => {
      // The unit as shipped, pointed at this test's install instead of /opt/orderline.
      const unit = readFileSync(join(DEPLOY, "orderline-gateway.service"), "utf8").replaceAll(
        "/opt/orderline",
        prefix,
      );
      for (const hardening of [
        "DynamicUser=yes",
        "ProtectSystem=strict",
        "StateDirectory=orderline",
        "NoNewPrivileges=yes",
        "Restart=on-failure",
        "KillSignal=SIGTERM",
        "TimeoutStopSec=30s",
      ])
        expect(unit).toContain(hardening);
      const file = join(work, "orderline-gateway.service");
      writeFileSync(file, unit);
      const verified = spawnSync("systemd-analyze", ["verify", file], { encoding: "utf8" });
      expect(verified.stderr).toBe("");
      expect(verified.status).toBe(0);
    },
  );
});

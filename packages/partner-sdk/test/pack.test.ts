/**
 * The package as a partner gets it: `npm pack` (which builds it afresh), its file list checked,
 * installed from the tarball into an empty project outside the repository, and the README's
 * first example run there, unchanged, against a gateway process (`orderline-gateway serve`);
 * the installed command's --help works too.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cli,
  createPartnerWithCli,
  type ProcessEnv,
  type ProcessPartner,
  type RunningGateway,
  startProcess,
} from "../../gateway/test/support/processes.js";
import { rsaKeys } from "./support/gateway.js";

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const REPOSITORY = fileURLToPath(new URL("../../..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8"));
const readme = readFileSync(join(PACKAGE, "README.md"), "utf8");

let gateway: RunningGateway;
let partner: ProcessPartner;
let privatePem: string;
let project: string;
let files: string[];

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "orderline-sdk-consumer-"));
  // Outside the repository, so nothing resolves through the workspace's node_modules.
  if (!relative(REPOSITORY, project).startsWith("..")) throw new Error(`${project} is inside`);
  const packed = await run("npm", ["pack", "--json", "--pack-destination", project], {
    cwd: PACKAGE,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  if (info === undefined) throw new Error("npm pack made no tarball");
  files = info.files.map((f) => f.path).sort();
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "partner-app", private: true, type: "module" }),
  );
  // The SDK has no dependencies: the tarball alone installs, without the registry.
  await run(
    "npm",
    ["install", `./${info.filename}`, "--offline", "--no-audit", "--no-fund", "--ignore-scripts"],
    { cwd: project },
  );
  // The gateway as operators run it: its own process, a partner made with its admin CLI's run().
  const data = join(project, "gateway-data");
  mkdirSync(data);
  const env: ProcessEnv = { databaseUrl: `sqlite:${join(data, "gateway.db")}`, dataDir: data };
  const keys = rsaKeys();
  privatePem = keys.privatePem;
  await cli(env, ["migrate"]);
  partner = await createPartnerWithCli(env, keys, "Packed SDK Partner");
  gateway = await startProcess(env);
  writeFileSync(join(project, "partner.pem"), privatePem, { mode: 0o600 });
}, 180_000);
afterAll(async () => {
  gateway?.child.kill("SIGTERM");
  await gateway?.exited;
  rmSync(project, { recursive: true, force: true });
});

describe("the published package", () => {
  it("holds what a partner needs and nothing else", () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.license).toBe("Apache-2.0");
    expect(manifest.engines.node).toMatch(/^>=20/);
    expect(manifest.exports["."]).toEqual({
      types: "./dist/index.d.ts",
      default: "./dist/index.js",
    });
    const outside = files.filter(
      (f) =>
        ![
          "package.json",
          "README.md",
          "CHANGELOG.md",
          "LICENSE",
          "bin/orderline-partner.js",
        ].includes(f) && !/^dist\/.+\.(js|d\.ts|js\.map)$/.test(f),
    );
    expect(outside).toEqual([]);
    for (const needed of ["dist/index.js", "dist/index.d.ts", "dist/cli/main.js"])
      expect(files).toContain(needed);
    expect(files.some((f) => f.startsWith("src/") || f.startsWith("test/"))).toBe(false);
    expect(readFileSync(join(PACKAGE, "LICENSE"), "utf8")).toBe(
      readFileSync(join(REPOSITORY, "LICENSE"), "utf8"),
    );
    expect(readFileSync(join(PACKAGE, "CHANGELOG.md"), "utf8")).toContain(`## ${manifest.version}`);
  });

  it("ships source maps that carry their sources (src/ is not shipped)", () => {
    const installed = join(project, "node_modules", "@orderline", "partner-sdk");
    const maps = files.filter((f) => f.endsWith(".js.map"));
    expect(maps.length).toBeGreaterThan(0);
    for (const file of maps) {
      const map = JSON.parse(readFileSync(join(installed, file), "utf8"));
      expect(map.sourcesContent?.length, file).toBe(map.sources.length);
      expect(map.sourcesContent.every((s: unknown) => typeof s === "string" && s.length > 0)).toBe(
        true,
      );
    }
  });

  it("has a README that starts with the install line and an example that runs as written", async () => {
    const body = readme.split("\n").filter((line) => !line.startsWith("# "));
    expect(body.find((line) => line.trim() !== "" && !line.startsWith("```"))).toBe(
      "npm install @orderline/partner-sdk",
    );
    expect(readme).not.toMatch(/workspace root/i);
    expect(readme).not.toMatch(/\]\(\.\.\//);
    const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example?.split("\n").filter((line) => line.trim() !== "").length).toBeLessThanOrEqual(
      12,
    );
    writeFileSync(join(project, "order.mjs"), example as string);
    const result = await run("node", ["order.mjs"], {
      cwd: project,
      env: {
        PATH: process.env.PATH ?? "",
        ORDERLINE_BASE_URL: gateway.url,
        ORDERLINE_CLIENT_ID: partner.clientId,
        ORDERLINE_CLIENT_SECRET: partner.clientSecret,
        ORDERLINE_PRIVATE_KEY_FILE: "partner.pem",
      },
    });
    expect(result.stdout.trim()).toMatch(/^SO-\d{8} received$/);
  });

  it("installs the orderline-partner command, whose --help works", async () => {
    const result = await run(
      join(project, "node_modules", ".bin", "orderline-partner"),
      ["--help"],
      {
        cwd: project,
      },
    );
    expect(result.stdout).toContain("Usage: orderline-partner <command>");
    const types = readFileSync(
      join(project, "node_modules", "@orderline", "partner-sdk", "dist", "index.d.ts"),
      "utf8",
    );
    expect(types).toContain("createPartnerClient");
  });
});

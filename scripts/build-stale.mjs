#!/usr/bin/env node
// `npm start` runs this before serving: it rebuilds only the workspaces whose inputs changed
// since their last build, so a start with nothing changed skips every compiler and bundler
// (seconds saved on each start), while a fresh clone or an edited source still gets built.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

// In dependency order; `after` names the workspaces whose build output this one consumes.
export const WORKSPACES = [
  { name: "@orderline/i18n", dir: "packages/i18n", inputs: ["src", "locales"], after: [] },
  {
    name: "@orderline/diagrams",
    dir: "packages/diagrams",
    inputs: ["src", "schema", "scripts"],
    after: [],
  },
  { name: "@orderline/gateway", dir: "packages/gateway", inputs: ["src", "scripts"], after: [] },
  { name: "@orderline/partner-sdk", dir: "packages/partner-sdk", inputs: ["src"], after: [] },
  {
    name: "@orderline/console",
    dir: "apps/console",
    inputs: [
      "src",
      "locales",
      "public",
      "scripts",
      "index.html",
      "vite.config.ts",
      "../../examples/diagrams",
    ],
    // The gateway: its contract (@orderline/gateway/contract, from dist) is in the bundle.
    after: ["@orderline/i18n", "@orderline/diagrams", "@orderline/gateway"],
  },
];
const ALWAYS = ["package.json", "tsconfig.json", "tsconfig.build.json"];
const STAMP = "dist/.build-stamp";

/** The newest modification time under `path` (0 when it does not exist). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry === "dist") continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/**
 * The workspaces of `root` whose build is older than one of their inputs, or that consume the
 * output of one that is (its `after`), in build order.
 */
export function staleWorkspaces(root, workspaces = WORKSPACES) {
  const stale = new Set();
  for (const ws of workspaces) {
    const dir = join(root, ws.dir);
    const stamp = join(dir, STAMP);
    const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
    const changed = Math.max(...[...ws.inputs, ...ALWAYS].map((input) => newest(join(dir, input))));
    if (built <= changed || ws.after.some((dep) => stale.has(dep))) stale.add(ws.name);
  }
  return workspaces.filter((ws) => stale.has(ws.name));
}

function main() {
  // `--stamp`: everything was just built (the install's `prepare`); record that, build nothing.
  if (process.argv.includes("--stamp")) {
    for (const ws of WORKSPACES)
      writeFileSync(join(root, ws.dir, STAMP), `${new Date().toISOString()}\n`);
    return;
  }
  for (const ws of staleWorkspaces(root)) {
    // A build is a production build whoever asks for it: under the test runner NODE_ENV is
    // "test", and vite would keep it and bundle React's development build into the console.
    const run = spawnSync("npm", ["run", "build", "-w", ws.name], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: "production" },
    });
    if (run.status !== 0) process.exit(run.status ?? 1);
    writeFileSync(join(root, ws.dir, STAMP), `${new Date().toISOString()}\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();

// Mermaid's CLI (mmdc) as a yardstick for the diagrams benchmark, never a dependency of the
// package: installed on first use into node_modules/.cache/orderline-bench/mmdc at the
// repository root (Puppeteer's own browser download skipped), and run against Debian's
// chromium. Import `renderWithMermaid` / `mermaidProcessArgs`, or run it as a whole process:
//
//   node bench/mermaid.mjs --install          install mmdc into the cache (once)
//   node bench/mermaid.mjs IN.mmd OUT.svg     render one Mermaid file, as `mmdc -i IN -o OUT`
//
// The second form is what a cold-process timing measures: one fresh process per render.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findChromium } from "../../../scripts/test-chromium.mjs";

// Mermaid CLI 12 needs Node 22; the repository runs on Node 20.
const MMDC_VERSION = "11";
const CHROMIUM = process.env.PUPPETEER_EXECUTABLE_PATH ?? findChromium() ?? "/usr/bin/chromium";
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const CACHE = join(ROOT, "node_modules/.cache/orderline-bench/mmdc");
const CLI_JS = join(CACHE, "node_modules/@mermaid-js/mermaid-cli/src/cli.js");
const PUPPETEER_CONFIG = join(CACHE, "puppeteer.json");

const ENV = {
  ...process.env,
  PUPPETEER_SKIP_DOWNLOAD: "1",
  PUPPETEER_EXECUTABLE_PATH: CHROMIUM,
};

/** A description id as a Mermaid node id (Mermaid ids take no hyphens). */
export const mermaidId = (id) => id.replaceAll("-", "_");
/** Text for a quoted Mermaid label, which cannot hold a double quote. */
export const mermaidQuoted = (text) => text.replaceAll('"', "'");
/** The family's `direction` values as Mermaid's. */
export const MERMAID_DIRECTION = { right: "LR", down: "TB", left: "RL", up: "BT" };

/** Installs mmdc into the cache folder unless it is there; returns the cache folder. */
export function ensureMermaid() {
  if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM}`);
  if (!existsSync(CLI_JS)) {
    mkdirSync(CACHE, { recursive: true });
    // Its own package.json, so npm installs here and not into the workspace above it.
    writeFileSync(join(CACHE, "package.json"), '{ "private": true }\n');
    const npm = spawnSync(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--prefix",
        CACHE,
        `@mermaid-js/mermaid-cli@${MMDC_VERSION}`,
      ],
      { cwd: CACHE, env: ENV, encoding: "utf8" },
    );
    if (npm.status !== 0) throw new Error(`installing mmdc failed:\n${npm.stdout}${npm.stderr}`);
  }
  writeFileSync(
    PUPPETEER_CONFIG,
    `${JSON.stringify(
      {
        executablePath: CHROMIUM,
        args: [
          "--no-sandbox",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      },
      null,
      2,
    )}\n`,
  );
  return CACHE;
}

/** The `node` arguments of one mmdc render, for timing it as a fresh process. */
function mermaidProcessArgs(inFile, outFile) {
  return [CLI_JS, "-q", "-p", PUPPETEER_CONFIG, "-i", inFile, "-o", outFile];
}

/**
 * Renders Mermaid text to `outFile` (SVG, PNG or PDF by its extension) with mmdc in a fresh
 * process; returns the process's wall time in ms. Throws with mmdc's output when it fails.
 */
export function renderWithMermaid(mermaidText, outFile) {
  ensureMermaid();
  const dir = mkdtempSync(join(tmpdir(), "orderline-mmdc-"));
  try {
    const inFile = join(dir, "in.mmd");
    writeFileSync(inFile, mermaidText);
    const start = process.hrtime.bigint();
    const run = spawnSync(process.execPath, mermaidProcessArgs(inFile, resolve(outFile)), {
      env: ENV,
      encoding: "utf8",
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (run.status !== 0)
      throw new Error(`mmdc failed (${run.status}):\n${run.stdout}${run.stderr}`);
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `runs` wall times (ms) of rendering Mermaid text to `outFile`, each in a fresh mmdc process. */
export function timeMermaid(mermaidText, outFile, runs) {
  return Array.from({ length: runs }, () => renderWithMermaid(mermaidText, outFile));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [first, second] = process.argv.slice(2);
  if (first === "--install") {
    console.log(ensureMermaid());
  } else if (first && second) {
    ensureMermaid();
    const run = spawnSync(process.execPath, mermaidProcessArgs(resolve(first), resolve(second)), {
      env: ENV,
      stdio: "inherit",
    });
    process.exit(run.status ?? 1);
  } else {
    console.error("usage: node bench/mermaid.mjs --install | IN.mmd OUT.svg");
    process.exit(2);
  }
}

// Budget of the console's first load: JavaScript gzipped (≤ 150 kB) and first contentful paint
// (< 1 s) against the local gateway, as the median of several cold loads in chromium.
// Run: npm run bench -w @orderline/console (builds first). Prints a table; exit 1 over budget.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { createGateway, createLogger, loadConfig } from "@orderline/gateway";
import { chromium } from "playwright-core";
import { findChromium } from "../../../scripts/test-chromium.mjs";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const RUNS = 9;
const BUDGET = { jsGzipKb: 150, fcpMs: 1000 };

// Every script the page loads before it can paint: the entry and its preloaded chunks.
const html = readFileSync(join(DIST, "index.html"), "utf8");
const scripts = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.js)"/g)].map(
  (m) => m[1],
);
const jsGzip = scripts.reduce(
  (sum, file) => sum + gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length,
  0,
);

const dir = mkdtempSync(join(tmpdir(), "orderline-console-bench-"));
const gw = await createGateway({
  config: loadConfig(
    {},
    { databaseUrl: `sqlite:${join(dir, "gateway.db")}`, dataDir: dir, consoleDir: DIST },
  ),
  logger: createLogger("silent"),
});
const base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
const browser = await chromium.launch({
  executablePath: findChromium(),
  args: [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
const fcps = [];
try {
  for (let i = 0; i < RUNS; i++) {
    // A new context each time: an empty cache, as a first visit.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/console/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    // The paint entry can be recorded a moment after the heading is in the DOM: wait for it
    // (buffered, so one already recorded counts) rather than read a missing one as NaN.
    fcps.push(
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            new PerformanceObserver((list, observer) => {
              const entry = list.getEntriesByName("first-contentful-paint")[0];
              if (entry) {
                observer.disconnect();
                resolve(entry.startTime);
              }
            }).observe({ type: "paint", buffered: true });
          }),
      ),
    );
    await context.close();
  }
} finally {
  await browser.close();
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
}
const sorted = [...fcps].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
const rows = [
  ["JS on first load, gzipped", `${(jsGzip / 1024).toFixed(1)} kB`, `≤ ${BUDGET.jsGzipKb} kB`],
  [`First contentful paint, median of ${RUNS}`, `${median.toFixed(0)} ms`, `< ${BUDGET.fcpMs} ms`],
  [
    "First contentful paint, min / max",
    `${sorted[0].toFixed(0)} / ${sorted.at(-1).toFixed(0)} ms`,
    "",
  ],
];
for (const row of rows) console.log(row.join(" | "));
if (jsGzip / 1024 > BUDGET.jsGzipKb || !(median < BUDGET.fcpMs)) {
  console.error("over budget");
  process.exitCode = 1;
}

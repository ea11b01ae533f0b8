import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumOrSkip, launchChromium } from "../../../scripts/test-chromium.mjs";
import type { Problem } from "../src/core/validate/problem.js";
import { exportDiagram } from "../src/export/index.js";
import { EXAMPLES_DIR } from "./support/cases.js";
import { runCli } from "./support/cli.js";

const CHROMIUM = chromiumOrSkip("the sequence HTML page in headless Chromium");

const EXAMPLE = join(EXAMPLES_DIR, "partner-order-sequence.json");
const dir = mkdtempSync(join(tmpdir(), "sequence-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => runCli(args, dir);

describe("orderline-diagrams on a sequence description", () => {
  it("validate: a valid sequence passes", async () => {
    const r = await run(["validate", EXAMPLE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${EXAMPLE}: valid`);
  });

  it("validate: a broken sequence gets every problem with line, column, path and rule", async () => {
    const d = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    d.steps[0].to = "gatway";
    d.steps[3].lable = "typo";
    const file = join(dir, "broken.json");
    writeFileSync(file, JSON.stringify(d, null, 2));
    const r = await run(["validate", "--format", "json", file]);
    expect(r.code).toBe(1);
    const problems = JSON.parse(r.stdout) as Problem[];
    expect(problems.map((p) => [p.rule, p.path, p.suggestion])).toEqual([
      ["ref/participant", "/steps/0/to", 'did you mean "gateway"?'],
      ["schema/additionalProperties", "/steps/3/lable", 'did you mean "label"?'],
    ]);
    const lines = readFileSync(file, "utf8").split("\n");
    for (const p of problems) expect(lines[p.line - 1]?.length).toBeGreaterThanOrEqual(p.column);
  });

  it("render: writes the SVG, and nothing for a broken file", async () => {
    const out = join(dir, "seq.svg");
    const r = await run(["render", EXAMPLE, "-o", out]);
    expect(r.code).toBe(0);
    const svg = readFileSync(out, "utf8");
    expect(svg).toContain('class="edge message message-call"');
    expect(svg.match(/class="edge message /g)).toHaveLength(12);
    const bad = await run(["render", join(dir, "broken.json"), "-o", join(dir, "bad.svg")]);
    expect(bad.code).toBe(1);
    expect(() => readFileSync(join(dir, "bad.svg"))).toThrow();
  });

  it("render: the HTML page carries the messages in order as its trace", async () => {
    const html = (await exportDiagram(JSON.parse(readFileSync(EXAMPLE, "utf8")), "html")) as string;
    expect(html).toContain("Play messages");
    const data = JSON.parse(
      /<script type="application\/json" id="diagram-data">(.*?)<\/script>/s.exec(html)?.[1] ?? "{}",
    );
    const ids = (data.trace as { kind: string; id: string }[]).map((s) => `${s.kind}:${s.id}`);
    expect(ids.slice(0, 4)).toEqual(["edge:login", "edge:token", "edge:_m3", "edge:create"]);
    expect(ids).toHaveLength(12);
  });
});

describe.skipIf(CHROMIUM === undefined)("the sequence HTML page in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(CHROMIUM as string);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it("plays every message in order, then steps through the views", async () => {
    const d = JSON.parse(readFileSync(join(EXAMPLES_DIR, "token-refresh-sequence.json"), "utf8"));
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    d.meta.animation = "none";
    // The page's timers and animation frames on a fake clock, run forward below: the trace
    // plays in the same order, without waiting its ~18 s of real time.
    await page.clock.install();
    await page.setContent((await exportDiagram(d, "html")) as string);
    // Record the order in which messages light up and the player's states, then press play.
    await page.evaluate(`(() => {
      const order = (window.litOrder = []);
      const states = (window.traceStates = []);
      new MutationObserver((records) => {
        for (const r of records) {
          const state = r.attributeName === "data-trace" && r.target.dataset.trace;
          if (state && states.at(-1) !== state) states.push(state);
          const id = r.target.getAttribute("data-id");
          const c = r.target.classList;
          if (c.contains("message") && c.contains("lit") && !order.includes(id)) order.push(id);
        }
      }).observe(document, { attributes: true, attributeFilter: ["class", "data-trace"], subtree: true });
    })()`);
    await page.click("#trace");
    await page.clock.runFor(60_000);
    expect(await page.evaluate("window.traceStates")).toEqual(["playing", "done", "stopped"]);
    const order = await page.evaluate("window.litOrder");
    expect(order).toEqual([
      "order",
      "expired",
      "refresh",
      "mark",
      "_m5",
      "renewed",
      "_m7",
      "_m8",
      "_m9",
      "_m10",
      "again",
      "reused",
    ]);
    await page.click('[data-view="1"]');
    expect(await page.locator("#caption").textContent()).toContain("refreshed once");
    expect(await page.locator('g.message[data-id="mark"]').getAttribute("class")).toContain("lit");
    expect(await page.locator('g.message[data-id="order"]').getAttribute("class")).toContain("dim");
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});

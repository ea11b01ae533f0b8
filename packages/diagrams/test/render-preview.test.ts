import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumOrSkip, launchChromium } from "../../../scripts/test-chromium.mjs";
import { renderHtml } from "../src/export/html.js";
import { exportDiagram } from "../src/export/index.js";
import { type PreviewServer, startPreview } from "../src/preview/server.js";
import { layoutDiagram } from "../src/types/workflow/layout/index.js";
import { EXAMPLES_DIR, PACKAGE_DIR } from "./support/cases.js";

const CHROMIUM = chromiumOrSkip("preview in headless Chromium");

const EXAMPLE = join(EXAMPLES_DIR, "partner-order-flow.json");
describe.skipIf(CHROMIUM === undefined)("preview in headless Chromium", () => {
  let browser: Browser;
  let server: PreviewServer;
  let file: string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "render-preview-"));
    file = join(dir, "flow.json");
    copyFileSync(EXAMPLE, file);
    server = await startPreview({ file, port: 0 });
    browser = await launchChromium(CHROMIUM as string);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows the diagram, then the problems after a broken save, then the diagram after a fix", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    const title = page.locator("#stage svg title");
    await expect
      .poll(() => title.textContent(), { timeout: 10_000 })
      .toBe("Partner order integration");
    expect(await page.locator("#stage svg g.node").count()).toBe(10);
    expect(await page.locator("#problems").isHidden()).toBe(true);

    // A broken save: an unknown property and a column out of range.
    const broken = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    broken.nodes[1].colum = 2;
    broken.nodes[2].col = 7;
    writeFileSync(file, JSON.stringify(broken, null, 2));
    const problems = page.locator("#problems");
    await expect.poll(() => problems.isVisible(), { timeout: 10_000 }).toBe(true);
    const text = (await problems.textContent()) ?? "";
    expect(text).toMatch(/flow\.json:\d+:\d+ +\/nodes\/1/);
    expect(text).toMatch(/\/nodes\/2\/col/);
    // No stale picture next to the problems.
    expect(await page.locator("#stage svg").count()).toBe(0);
    expect(await page.locator("#status").textContent()).toMatch(/problem/);

    // A fixed save, written the way many editors do: a new file renamed over the old one.
    const fixed = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    fixed.meta.title = "Partner order integration, fixed";
    const temp = `${file}.tmp`;
    writeFileSync(temp, JSON.stringify(fixed, null, 2));
    renameSync(temp, file);
    await expect
      .poll(() => title.textContent(), { timeout: 10_000 })
      .toBe("Partner order integration, fixed");
    expect(await problems.isHidden()).toBe(true);
    await page.close();
  }, 60_000);
  /**
   * Runs the page's fake clock (installed before its content) until the trace has played to its
   * end: the same steps and frames as in real time, without waiting seconds for them.
   */
  const playUntilDone = async (page: Page): Promise<void> => {
    for (let ms = 0; ms <= 60_000; ms += 250) {
      if ((await page.locator("body").getAttribute("data-trace")) === "done") return;
      await page.clock.runFor(250);
    }
    throw new Error("the trace did not finish within a minute of its own time");
  };

  it("the HTML export plays the trace, steps through the views and opens cards", async () => {
    const diagram = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    const html = (await exportDiagram(diagram, "html")) as string;
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.clock.install();
    await page.setContent(html);
    // Autoplay: the trace walks mainPath to the end.
    await playUntilDone(page);
    // A guided view lights its nodes and dims the rest.
    await page.click('[data-view="1"]');
    expect(await page.locator("#caption").textContent()).toContain("Sign every request");
    expect(await page.locator('g.node[data-id="verify"]').getAttribute("class")).toContain("lit");
    expect(await page.locator('g.node[data-id="store"]').getAttribute("class")).toContain("dim");
    await page.click("#next");
    expect(await page.locator("#caption").textContent()).toContain("Create the order once");
    // A node with a card opens it.
    await page.click('g.node[data-id="create_order"]');
    expect(await page.locator("#card").isVisible()).toBe(true);
    expect(await page.locator("#card h2").textContent()).toBe("Create order");
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("plays a type's own trace: an edge step lights the edge and its ends", async () => {
    const diagram = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    diagram.meta.animation = "none";
    const svg = (await exportDiagram(diagram, "svg")) as string;
    const [first, second] = layoutDiagram(diagram).edges;
    // Edge steps only, in an order that is not mainPath: the way a sequence plays messages.
    const html = renderHtml(diagram.meta, svg, {
      trace: [
        { kind: "edge", id: String(second?.id) },
        { kind: "edge", id: String(first?.id) },
      ],
      traceLabel: "Play messages",
    });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.clock.install();
    await page.setContent(html);
    expect(await page.locator("#trace").textContent()).toBe("▶ Play messages");
    expect(await page.locator("body").getAttribute("data-trace")).toBeNull();
    // Clicked and read in one turn of the page's event loop, so no frame has played yet.
    const selectors = JSON.stringify([
      `g.edge[data-id="${second?.id}"]`,
      `g.node[data-id="${second?.edge.from}"]`,
      'g.node[data-id="store"]',
    ]);
    const lit = (await page.evaluate(
      `(() => { document.getElementById("trace").click(); return ${selectors}.map((s) => document.querySelector(s).getAttribute("class")); })()`,
    )) as string[];
    expect(lit[0]).toContain("lit");
    expect(lit[1]).toContain("lit");
    expect(lit[2]).toContain("dim");
    await playUntilDone(page);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe("orderline-diagrams preview as a process", () => {
  it("prints its URL, serves the current state and stops cleanly on SIGINT", async () => {
    const dir = mkdtempSync(join(tmpdir(), "render-preview-cli-"));
    const file = join(dir, "flow.json");
    copyFileSync(EXAMPLE, file);
    const child = spawn(
      process.execPath,
      [join(PACKAGE_DIR, "dist/cli/main.js"), "preview", file, "--port", "0"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const m = /(http:\/\/\S+\/)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`preview exited with ${code}`)));
    });
    const state = (await (await fetch(`${url}state`)).json()) as { ok: boolean; svg: string };
    expect(state.ok).toBe(true);
    expect(state.svg).toContain("<svg ");
    const page = await (await fetch(url)).text();
    expect(page).toContain("new EventSource('/events')");
    const exit = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    child.kill("SIGINT");
    expect(await exit).toBe(0);
  }, 30_000);
});

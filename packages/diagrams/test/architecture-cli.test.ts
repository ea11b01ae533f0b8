import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { startPreview } from "../src/preview/server.js";
import { EXAMPLES_DIR } from "./support/cases.js";
import { runCli } from "./support/cli.js";

// Views through every output of the CLI: --view for SVG and PNG, one PDF page per view, one
// HTML step per view; and init, validate and errors for the architecture type.
const SLOW = 120_000;
const EXAMPLE = join(EXAMPLES_DIR, "orderline-architecture.json");

const run = runCli;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "architecture-cli-"));
});

describe("orderline-diagrams with architecture views", () => {
  it(
    "--view picks the view SVG draws; the first without it",
    async () => {
      expect((await run(["render", EXAMPLE, "-o", "first.svg"], dir)).code).toBe(0);
      expect((await run(["render", EXAMPLE, "--view", "gateway", "-o", "g.svg"], dir)).code).toBe(
        0,
      );
      const first = readFileSync(join(dir, "first.svg"), "utf8");
      const gateway = readFileSync(join(dir, "g.svg"), "utf8");
      expect(first).toContain('data-view="context"');
      expect(first).not.toContain('data-id="gateway-1"');
      expect(gateway).toContain('data-view="gateway"');
      expect(gateway).toContain('data-id="gateway-1"');
    },
    SLOW,
  );

  it(
    "an unknown view is a usage error naming the views, and nothing is written",
    async () => {
      const r = await run(["render", EXAMPLE, "--view", "gatway", "-o", "x.svg"], dir);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        'has no view "gatway"; its views are context, containers, gateway, all',
      );
      expect(existsSync(join(dir, "x.svg"))).toBe(false);
    },
    SLOW,
  );

  it(
    "a PDF has one page per view, each its own size",
    async () => {
      expect((await run(["render", EXAMPLE, "-o", "all.pdf"], dir)).code).toBe(0);
      const pdf = readFileSync(join(dir, "all.pdf"), "latin1");
      const pages = pdf.match(/\/Type \/Page\b/g) ?? [];
      expect(pages).toHaveLength(4);
      const boxes = new Set(pdf.match(/\/MediaBox \[[^\]]+\]/g));
      expect(boxes.size).toBeGreaterThan(1);
      expect((await run(["render", EXAMPLE, "--view", "context", "-o", "one.pdf"], dir)).code).toBe(
        0,
      );
      const one = readFileSync(join(dir, "one.pdf"), "latin1");
      expect(one.match(/\/Type \/Page\b/g) ?? []).toHaveLength(1);
    },
    SLOW,
  );

  it(
    "the HTML page has a step per view, one shown, each drawing with its own ids",
    async () => {
      expect((await run(["render", EXAMPLE, "-o", "page.html"], dir)).code).toBe(0);
      const html = readFileSync(join(dir, "page.html"), "utf8");
      expect(html.match(/data-drawing-button=/g) ?? []).toHaveLength(4);
      expect(html.match(/<figure data-drawing="[^"]+"( hidden)?>/g)).toEqual([
        '<figure data-drawing="context">',
        '<figure data-drawing="containers" hidden>',
        '<figure data-drawing="gateway" hidden>',
        '<figure data-drawing="all" hidden>',
      ]);
      const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
      expect(new Set(ids).size).toBe(ids.length);
      // Cards come from the element descriptions of every view.
      expect(html).toContain("Request counters shared by the instances");
    },
    SLOW,
  );

  it(
    "init writes a starter that validates and renders",
    async () => {
      expect((await run(["init", "--type", "architecture", "a.json"], dir)).code).toBe(0);
      const v = await run(["validate", "a.json"], dir);
      expect(v.code).toBe(0);
      expect(
        (await run(["render", "a.json", "--view", "containers", "-o", "a.png"], dir)).code,
      ).toBe(0);
      expect(readFileSync(join(dir, "a.png")).subarray(1, 4).toString()).toBe("PNG");
    },
    SLOW,
  );

  it(
    "validate reports every problem at once with positions and suggestions",
    async () => {
      const source = readFileSync(EXAMPLE, "utf8")
        .replace('"to": "postgres"', '"to": "postgress"')
        .replace('"expand": ["orderline"]', '"expand": ["ordreline"]');
      const { writeFileSync } = await import("node:fs");
      writeFileSync(join(dir, "bad.json"), source);
      const r = await run(["validate", "bad.json"], dir);
      expect(r.code).toBe(1);
      expect(r.stderr + r.stdout).toMatch(
        /bad\.json:\d+:\d+ .*did you mean "postgres"\?\)\s+\[ref\/element\]/,
      );
      expect(r.stderr + r.stdout).toMatch(
        /bad\.json:\d+:\d+ .*did you mean "orderline"\?\)\s+\[ref\/boundary\]/,
      );
    },
    SLOW,
  );

  it(
    "preview shows the view asked for, and says so when there is no such view",
    async () => {
      const server = await startPreview({ file: EXAMPLE, port: 0, view: "gateway" });
      try {
        const state = server.state();
        expect(state.ok && state.svg.includes('data-view="gateway"')).toBe(true);
      } finally {
        await server.close();
      }
      const wrong = await startPreview({ file: EXAMPLE, port: 0, view: "gatway" });
      try {
        const state = wrong.state();
        expect(state.ok).toBe(false);
        expect(state.ok ? "" : state.problems).toContain('no view "gatway"');
      } finally {
        await wrong.close();
      }
    },
    SLOW,
  );
});

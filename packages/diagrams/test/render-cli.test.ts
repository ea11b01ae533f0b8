import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { PRESET_NAMES } from "../src/cli/preset.js";
import { VISUAL_PRESETS } from "../src/types/workflow/model.js";
import { renderSvg } from "../src/types/workflow/render.js";
import { EXAMPLES_DIR, PACKAGE_DIR } from "./support/cases.js";
import { runCli } from "./support/cli.js";

const EXAMPLE = join(EXAMPLES_DIR, "partner-order-flow.json");

const run = runCli;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "render-cli-"));
});

const pngWidth = (file: string) => readFileSync(file).readUInt32BE(16);

describe("orderline-diagrams render", () => {
  it("writes the format the -o extension names", async () => {
    for (const ext of ["svg", "png", "pdf", "html"]) {
      const r = await run(["render", EXAMPLE, "-o", `out.${ext}`], dir);
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(join(dir, `out.${ext}`))).toBe(true);
    }
    const svg = readFileSync(join(dir, "out.svg"), "utf8");
    const diagram = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    expect(svg).toBe(renderSvg(diagram));
    expect(readFileSync(join(dir, "out.png")).subarray(1, 4).toString()).toBe("PNG");
    expect(readFileSync(join(dir, "out.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
    expect(readFileSync(join(dir, "out.html"), "utf8")).toContain("<!doctype html>");
  });

  it("--preset overrides meta.visual_preset, --scale scales the PNG, --format sets the format", async () => {
    expect((await run(["render", EXAMPLE, "-o", "a.svg", "--preset", "blueprint"], dir)).code).toBe(
      0,
    );
    expect(readFileSync(join(dir, "a.svg"), "utf8")).toContain('data-preset="blueprint"');
    await run(["render", EXAMPLE, "-o", "one.png"], dir);
    await run(["render", EXAMPLE, "-o", "two.png", "--scale", "2"], dir);
    expect(pngWidth(join(dir, "two.png"))).toBe(pngWidth(join(dir, "one.png")) * 2);
    expect((await run(["render", EXAMPLE, "-o", "diagram.out", "--format", "pdf"], dir)).code).toBe(
      0,
    );
    expect(readFileSync(join(dir, "diagram.out")).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("several files go into the -o directory as <name>.<format>", async () => {
    const other = join(dir, "second.json");
    writeFileSync(other, readFileSync(EXAMPLE));
    const r = await run(["render", EXAMPLE, other, "-o", "out", "--format", "png"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(dir, "out")).sort()).toEqual(["partner-order-flow.png", "second.png"]);
  });

  it("-o ending in / is a directory even for one file", async () => {
    const r = await run(["render", EXAMPLE, "-o", "pics/", "--format", "pdf"], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(dir, "pics"))).toEqual(["partner-order-flow.pdf"]);
  });

  it("without -o, writes meta.output beside the description, else <name>.svg beside it", async () => {
    const withOutput = join(dir, "flow.json");
    const diagram = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    diagram.meta.output = "pictures/flow-picture.svg";
    writeFileSync(withOutput, JSON.stringify(diagram));
    const plain = join(dir, "plain.json");
    delete diagram.meta.output;
    writeFileSync(plain, JSON.stringify(diagram));
    expect((await run(["render", "flow.json", "plain.json"], dir)).code).toBe(0);
    expect(existsSync(join(dir, "pictures/flow-picture.svg"))).toBe(true);
    expect(existsSync(join(dir, "plain.svg"))).toBe(true);
  });

  it("an invalid description prints its problems, exits 1 and writes nothing at all", async () => {
    const bad = join(dir, "bad.json");
    const diagram = JSON.parse(readFileSync(EXAMPLE, "utf8"));
    diagram.nodes[0].col = 9;
    diagram.edges[0].colour = "red";
    writeFileSync(bad, JSON.stringify(diagram, null, 2));
    const r = await run(["render", EXAMPLE, "bad.json", "-o", "out"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad\.json:\d+:\d+ +\/nodes\/0\/col/);
    expect(r.stderr).toMatch(/\/edges\/0/);
    expect(r.stderr).toContain("nothing written");
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("usage errors exit 2 and write nothing", async () => {
    const cases = [
      ["render"],
      ["render", EXAMPLE, "-o", "x.gif"],
      ["render", EXAMPLE, "-o", "x.svg", "--preset", "neon"],
      ["render", EXAMPLE, "-o", "x.svg", "--scale", "2"],
      ["render", EXAMPLE, "-o", "x.png", "--scale", "-1"],
      ["render", EXAMPLE, "-o", "x.svg", "--format", "png"],
      ["render", EXAMPLE, "--bogus"],
      ["render", "missing.json", "-o", "x.svg"],
    ];
    for (const args of cases) {
      const r = await run(args, dir);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/render: /);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it("accepts exactly the format's presets", () => {
    expect([...PRESET_NAMES]).toEqual([...VISUAL_PRESETS]);
  });

  it("-o - writes SVG to standard output", async () => {
    const r = await run(["render", EXAMPLE, "-o", "-"], dir);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith("<svg ")).toBe(true);
  });

  it("--help explains the options and the multi-file naming", async () => {
    const r = await run(["render", "--help"], dir);
    expect(r.code).toBe(0);
    for (const word of [
      "--preset",
      "--scale",
      "--format",
      "<name>.<format>",
      "meta.output",
      "Exit status",
    ]) {
      expect(r.stdout).toContain(word);
    }
  });

  it("reads a description from standard input with -", async () => {
    const out = join(dir, "piped.svg");
    const child = execFile(process.execPath, [
      join(PACKAGE_DIR, "dist/cli/main.js"),
      "render",
      "-",
      "-o",
      out,
    ]);
    child.stdin?.end(readFileSync(EXAMPLE));
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(renderSvg(JSON.parse(readFileSync(EXAMPLE, "utf8"))));
    expect((await run(["render", "-"], dir)).code).toBe(2);
  });

  it("runs as a real process from the built bin", async () => {
    const out = join(dir, "bin.svg");
    const { stderr } = await promisify(execFile)(process.execPath, [
      join(PACKAGE_DIR, "dist/cli/main.js"),
      "render",
      EXAMPLE,
      "-o",
      out,
    ]);
    expect(stderr).toContain("bin.svg");
    expect(readFileSync(out, "utf8")).toBe(renderSvg(JSON.parse(readFileSync(EXAMPLE, "utf8"))));
  });
});

import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { starterText } from "../src/cli/commands/init.js";
import type { Problem } from "../src/core/validate/problem.js";
import { TYPE_NAMES } from "../src/types/index.js";
import { type as workflow } from "../src/types/workflow/index.js";
import { runCli } from "./support/cli.js";
import { baseDiagram } from "./validate-base.js";
import { set } from "./validate-pointer.js";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(PACKAGE, "dist/cli/main.js");
const EXAMPLE = fileURLToPath(
  new URL("../../../examples/diagrams/partner-order-flow.json", import.meta.url),
);
const SCHEMA = join(PACKAGE, "schema/workflow.schema.json");
const COMBINED = join(PACKAGE, "schema/diagram.schema.json");

const dir = mkdtempSync(join(tmpdir(), "diagrams-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const valid = join(dir, "valid.json");
writeFileSync(valid, JSON.stringify(baseDiagram(), null, 2));
const invalid = join(dir, "invalid.json");
const broken = baseDiagram();
set(broken, "/nodes/0/col", 6);
set(broken, "/edges/0/rol", "main");
writeFileSync(invalid, JSON.stringify(broken, null, 2));

const run = (args: string[], cwd = dir) => runCli(args, cwd);

function runProcess(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: "utf8",
    ...(input === undefined ? {} : { input }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("orderline-diagrams validate (in-process)", () => {
  it("exits 0 for a valid file and says so", async () => {
    const r = await run(["validate", "valid.json"]);
    expect(r).toEqual({ code: 0, stdout: "valid.json: valid\n", stderr: "" });
  });

  it("exits 1 and prints each problem as file:line:col  path  message", async () => {
    const r = await run(["validate", "invalid.json"]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^invalid\.json:\d+:\d+ {2}\/nodes\/0\/col {2}must be at most 5, found 6: a workflow has at most 6 columns, numbered 0 to 5 {2}\[schema\/maximum\]$/,
    );
    expect(lines[1]).toMatch(
      /^invalid\.json:\d+:\d+ {2}\/edges\/0\/rol {2}unknown property "rol".*\(did you mean "role"\?\)/,
    );
    expect(lines[2]).toBe("2 problems in 1 of 1 file");
  });

  it("prints a JSON array of problems with --format json", async () => {
    const r = await run(["validate", "--format", "json", "valid.json", "invalid.json"]);
    expect(r.code).toBe(1);
    const problems = JSON.parse(r.stdout) as Problem[];
    expect(problems.map((p) => [p.file, p.rule, p.path])).toEqual([
      ["invalid.json", "schema/maximum", "/nodes/0/col"],
      ["invalid.json", "schema/additionalProperties", "/edges/0/rol"],
    ]);
    expect(problems[0]?.line).toBeGreaterThan(1);
  });

  it("checks every file and sums up", async () => {
    const r = await run(["validate", "valid.json", "invalid.json", EXAMPLE]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("valid.json: valid\n");
    expect(r.stdout).toContain(`${EXAMPLE}: valid\n`);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe("2 problems in 1 of 3 files");
  });

  it("exits 2 for a file that cannot be read, after checking the others", async () => {
    const r = await run(["validate", "valid.json", "missing.json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("orderline-diagrams validate: cannot read missing.json: no such file\n");
    expect(r.stdout).toContain("valid.json: valid\n");
  });

  it("checks the .json files directly in a directory, in name order", async () => {
    const sub = mkdtempSync(join(dir, "dir-"));
    writeFileSync(join(sub, "b.json"), JSON.stringify(broken, null, 2));
    writeFileSync(join(sub, "a.json"), JSON.stringify(baseDiagram()));
    writeFileSync(join(sub, "notes.txt"), "not a description");
    const r = await run(["validate", sub]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`${join(sub, "a.json")}: valid`);
    expect(lines[1]).toMatch(new RegExp(`^${join(sub, "b.json")}:\\d+:\\d+ `));
    expect(lines.at(-1)).toBe("2 problems in 1 of 2 files");
  });

  it("exits 2 for a directory without .json files", async () => {
    const empty = mkdtempSync(join(dir, "empty-"));
    const r = await run(["validate", empty, "valid.json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`orderline-diagrams validate: no .json files in directory ${empty}\n`);
    expect(r.stdout).toContain("valid.json: valid\n");
  });

  it.each([
    [["validate"], "name at least one FILE"],
    [["validate", "--lenient", "valid.json"], "Unknown option '--lenient'"],
    [["validate", "--format", "xml", "valid.json"], "--format must be text or json"],
    [["validate", "valid.json", "--format"], "argument missing"],
  ])("exits 2 on a usage error: %j", async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe("");
  });

  it("explains itself with --help", async () => {
    const r = await run(["validate", "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: orderline-diagrams validate FILE...");
    expect(r.stdout).toContain("2  usage error");
  });
});

describe("orderline-diagrams schema and init (in-process)", () => {
  it("prints the shipped combined schema, or one type's with --type", async () => {
    const r = await run(["schema"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(COMBINED, "utf8"));
    expect(JSON.parse(r.stdout).$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const one = await run(["schema", "--type", "workflow"]);
    expect(one).toEqual({ code: 0, stdout: readFileSync(SCHEMA, "utf8"), stderr: "" });
  });

  it("writes the schema with -o", async () => {
    const r = await run(["schema", "-t", "workflow", "-o", "schema.json"]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "schema.json"), "utf8")).toBe(readFileSync(SCHEMA, "utf8"));
  });

  it.each(["schema", "init"])(
    "%s --type with an unknown type is a usage error naming the known types",
    async (name) => {
      const r = await run([name, "--type", "workflw"]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(
        `unknown diagram type "workflw"; known types: ${TYPE_NAMES.join(", ")} (did you mean "workflow"?)`,
      );
    },
  );

  it("refuses arguments it does not take", async () => {
    expect((await run(["schema", "extra"])).code).toBe(2);
    expect((await run(["schema", "--pretty"])).code).toBe(2);
  });

  it("init writes a starter that validates, and next time refuses to overwrite it", async () => {
    const first = await run(["init", "starter.json"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("wrote starter.json");
    expect(readFileSync(join(dir, "starter.json"), "utf8")).toBe(starterText(workflow.starter));
    expect((await run(["validate", "starter.json"])).code).toBe(0);

    writeFileSync(join(dir, "starter.json"), "mine");
    const second = await run(["init", "starter.json"]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("starter.json already exists; use --force");
    expect(readFileSync(join(dir, "starter.json"), "utf8")).toBe("mine");

    const forced = await run(["init", "starter.json", "--force"]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "starter.json"), "utf8"))).toEqual(workflow.starter);
  });

  it("init defaults to workflow.json and prints with -", async () => {
    const sub = mkdtempSync(join(dir, "init-"));
    expect((await run(["init"], sub)).code).toBe(0);
    expect(readFileSync(join(sub, "workflow.json"), "utf8")).toBe(starterText(workflow.starter));
    const printed = await run(["init", "-"]);
    expect(printed).toEqual({ code: 0, stdout: starterText(workflow.starter), stderr: "" });
    const typed = await run(["init", "--type", "workflow", "-"]);
    expect(typed).toEqual(printed);
  });

  it("init into a missing directory is a usage error that writes nothing", async () => {
    const r = await run(["init", "no/such/dir/x.json"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot write no/such/dir/x.json");
  });

  it("a command without arguments, or an unknown one, is a usage error", async () => {
    expect((await run([])).code).toBe(2);
    const unknown = await run(["valdate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'valdate'");
  });

  it.each(["schema", "init"])("%s --help", async (name) => {
    const r = await run([name, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: orderline-diagrams ${name}`);
  });
});

describe("the built CLI as a real process", () => {
  it("is executable, so npx orderline-diagrams runs it on a fresh clone", () => {
    expect(statSync(BIN).mode & 0o111).toBe(0o111);
    expect(readFileSync(BIN, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  it("validates a valid file: exit 0", () => {
    const r = runProcess(["validate", "valid.json", EXAMPLE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("valid.json: valid\n");
  });

  it("reports problems: exit 1, same output as in-process", async () => {
    const r = runProcess(["validate", "invalid.json"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe((await run(["validate", "invalid.json"])).stdout);
  });

  it("reads standard input with -", () => {
    const r = runProcess(["validate", "--format", "json", "-"], '{"schema_version": 2,');
    expect(r.code).toBe(1);
    const [problem] = JSON.parse(r.stdout) as Problem[];
    expect(problem).toMatchObject({ file: "<stdin>", rule: "json/syntax", line: 1 });
  });

  it("usage errors exit 2", () => {
    expect(runProcess(["validate"]).code).toBe(2);
    expect(runProcess(["validate", "missing.json"]).code).toBe(2);
    expect(runProcess(["nonsense"]).code).toBe(2);
  });

  it("schema prints the shipped file; init output validates", () => {
    expect(runProcess(["schema"]).stdout).toBe(readFileSync(COMBINED, "utf8"));
    expect(runProcess(["schema", "--type", "workflow"]).stdout).toBe(readFileSync(SCHEMA, "utf8"));
    const starter = runProcess(["init", "-"]).stdout;
    expect(runProcess(["validate", "-"], starter).code).toBe(0);
  });
});

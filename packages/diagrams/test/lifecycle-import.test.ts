import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import { importTables } from "../src/types/lifecycle/import-table.js";
import { type } from "../src/types/lifecycle/index.js";
import { validateAs } from "../src/validate/as-type.js";
import { PACKAGE_DIR } from "./support/cases.js";
import { runCli } from "./support/cli.js";

// Specification-style fixtures (test/testdata/specs): the form the product specifications use
// (field tables, then a state table under "States and transitions"), written for these tests so
// the repository alone is enough to run them.
const SPECS = join(PACKAGE_DIR, "test/testdata/specs");
const spec = (name: string) => join(SPECS, name);

const run = runCli;

const valid = (d: unknown) => validateAs(type, JSON.stringify(d, null, 2)).problems;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "import-table-"));
});

describe("import-table on specification-style state tables", () => {
  it("a table among field tables: one state per name, one transition per row", () => {
    const result = importTables(readFileSync(spec("parcel-locker.md"), "utf8"));
    expect(result.ok).toBe(true);
    const [table] = result.tables;
    if (!table) throw new Error("no table");
    expect(result.tables).toHaveLength(1);
    expect(table.line).toBe(36);
    const d = table.diagram;
    expect(d.meta.title).toBe("Compartment lifecycle");
    expect(d.states.map((s) => s.id)).toEqual([
      "initial",
      "compartment-free",
      "compartment-reserved",
      "parcel-waiting",
    ]);
    expect(d.transitions).toEqual([
      { from: "initial", to: "compartment-free" },
      {
        from: "compartment-free",
        to: "compartment-reserved",
        event: "reserve",
        guard: "size matches the parcel",
        action: "a pickup code is generated",
      },
      {
        from: "compartment-reserved",
        to: "parcel-waiting",
        event: "door closed with parcel",
        guard: "weight sensor reads a parcel",
        action: "the recipient is sent the pickup code",
      },
      {
        from: "parcel-waiting",
        to: "compartment-free",
        event: "code entered",
        guard: "code matches and has not expired",
        action: "the door opens; the code is deleted and cannot be used twice",
      },
    ]);
    expect(valid(d)).toEqual([]);
  });

  it("a parenthesis is a detail, 'any' and 'none' mean none", () => {
    const result = importTables(readFileSync(spec("theme-switch.md"), "utf8"));
    const d = result.tables[0]?.diagram;
    if (!d) throw new Error("no table");
    expect(d.states).toContainEqual({
      id: "awaiting-confirm",
      label: "awaiting confirm",
      sublabel: "dark colours shown",
    });
    expect(d.states).toHaveLength(4);
    // Row 1: Condition "any" is no guard. Row 3: Also happens "none" is no action.
    expect(d.transitions[1]).not.toHaveProperty("guard");
    expect(d.transitions[3]).toEqual({
      from: "awaiting-confirm",
      to: "dark-theme-shown",
      event: "confirm resolves",
      guard: "accepted",
    });
    expect(valid(d)).toEqual([]);
  });

  it("a specification without a state table imports nothing", () => {
    expect(importTables(readFileSync(spec("no-state-table.md"), "utf8"))).toEqual({
      ok: true,
      tables: [],
    });
  });

  it("the CLI prints the description importTables makes, nothing more", async () => {
    for (const name of ["parcel-locker.md", "theme-switch.md"]) {
      const r = await run(["import-table", spec(name)], dir);
      expect(r.code, r.stderr).toBe(0);
      const [table] = importTables(readFileSync(spec(name), "utf8")).tables;
      expect(JSON.parse(r.stdout)).toEqual(table?.diagram);
    }
  });
});

const TABLE = (rows: string[]) =>
  [
    "# Spec",
    "",
    "Door:",
    "",
    "| State | Moved by | Condition | Next state | Also happens |",
    "|---|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");

describe("import-table refuses malformed tables with their line", () => {
  it("a row with the wrong number of cells", () => {
    const r = importTables(TABLE(["| closed | push | — | open | — |", "| open | pull | open |"]));
    expect(r).toMatchObject({
      ok: false,
      errors: [{ line: 8, message: "row has 3 cells; the table's header (line 5) has 5" }],
    });
  });

  it("a missing delimiter row, a missing column, an empty state cell", () => {
    const md = [
      "| State | Moved by | Condition | Next state | Also happens |",
      "| closed | push | — | open | — |",
      "",
      "| State | Moved by | Next state | Also happens |",
      "|---|---|---|---|",
      "",
      "| State | Moved by | Condition | Next state | Also happens |",
      "|---|---|---|---|---|",
      "| closed | push | - |  | - |",
    ].join("\n");
    const r = importTables(md);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.line)).toEqual([2, 4, 9]);
    expect(r.errors[1]?.message).toContain('missing "Condition"');
    expect(r.errors[2]?.message).toContain('"Next state" cell is empty');
  });

  it("the CLI prints file:line: message, writes nothing and exits 1", async () => {
    writeFileSync(join(dir, "bad.md"), TABLE(["| closed | push |"]));
    const r = await run(["import-table", "bad.md", "-o", "out.json"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("bad.md:7: row has 2 cells; the table's header (line 5) has 5\n");
    expect(existsSync(join(dir, "out.json"))).toBe(false);
  });

  it("no state table is exit 1; an unreadable file or a bad --table is a usage error", async () => {
    writeFileSync(join(dir, "none.md"), "| a | b |\n|---|---|\n| 1 | 2 |\n");
    expect((await run(["import-table", "none.md"], dir)).code).toBe(1);
    expect((await run(["import-table", "missing.md"], dir)).code).toBe(2);
    writeFileSync(join(dir, "door.md"), TABLE(["| closed | push | — | open | — |"]));
    expect((await run(["import-table", "door.md", "--table", "0"], dir)).code).toBe(2);
    expect((await run(["import-table", "door.md", "--table", "2"], dir)).code).toBe(2);
  });
});

describe("import-table with several tables in one file", () => {
  const two = `${TABLE(["| closed | push | — | open | — |"])}\nWindow:\n\n${TABLE([
    "| shut | tilt | handle up | tilted | air flows |",
  ])
    .split("\n")
    .slice(4)
    .join("\n")}`;

  it("-o OUT.json writes one valid description per table, OUT-1.json, OUT-2.json", async () => {
    writeFileSync(join(dir, "two.md"), two);
    const r = await run(["import-table", "two.md", "-o", "out.json"], dir);
    expect(r.code, r.stderr).toBe(0);
    const first = JSON.parse(readFileSync(join(dir, "out-1.json"), "utf8"));
    const second = JSON.parse(readFileSync(join(dir, "out-2.json"), "utf8"));
    expect(first.meta.title).toBe("Door");
    expect(second.meta.title).toBe("Window");
    expect(second.transitions[1]).toEqual({
      from: "shut",
      to: "tilted",
      event: "tilt",
      guard: "handle up",
      action: "air flows",
    });
    expect(valid(first)).toEqual([]);
    expect(valid(second)).toEqual([]);
  });

  it("--table N picks one; neither -o nor --table is a usage error listing the tables", async () => {
    writeFileSync(join(dir, "two.md"), two);
    const picked = await run(["import-table", "two.md", "--table", "2"], dir);
    expect(picked.code, picked.stderr).toBe(0);
    expect(JSON.parse(picked.stdout).meta.title).toBe("Window");
    const neither = await run(["import-table", "two.md"], dir);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('1: line 5, "Door"');
    expect(neither.stderr).toContain('2: line 11, "Window"');
  });
});

describe("the installed command", () => {
  it("imports a specification's table and validates the result, as separate processes", async () => {
    const bin = join(PACKAGE_DIR, "bin/orderline-diagrams.js");
    const exec = promisify(execFile);
    const out = join(dir, "token.json");
    await exec(process.execPath, [bin, "import-table", spec("parcel-locker.md"), "-o", out]);
    const { stdout } = await exec(process.execPath, [bin, "validate", out]);
    expect(stdout).toBe(`${out}: valid\n`);
  });
});

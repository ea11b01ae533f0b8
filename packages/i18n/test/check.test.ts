// @vitest-environment node
import { execFile } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { checkLocaleTree, runCheck } from "../src/check/index.js";

const testdata = fileURLToPath(new URL("./testdata/check/", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const tree = (name: string) => join(testdata, name, "locales");
const strip = <T extends { file: string }>(problems: T[]) =>
  problems.map(({ file, ...rest }) => ({ file: file.slice(testdata.length), ...rest }));

describe("checkLocaleTree", () => {
  it("accepts consistent languages, including different plural forms per language", async () => {
    expect(await checkLocaleTree(tree("consistent"))).toEqual([]);
  });

  it("reports keys missing in a language", async () => {
    expect(strip(await checkLocaleTree(tree("missing-key")))).toEqual([
      {
        kind: "missing-key",
        file: "missing-key/locales/de/shop.json",
        language: "de",
        namespace: "shop",
        key: "cart.empty",
        reference: "en",
      },
      {
        kind: "missing-key",
        file: "missing-key/locales/de/shop.json",
        language: "de",
        namespace: "shop",
        key: "checkout",
        reference: "en",
      },
    ]);
  });

  it("reports extra keys, and every key of a namespace the reference language lacks", async () => {
    expect(strip(await checkLocaleTree(tree("extra-key")))).toEqual([
      {
        kind: "extra-key",
        file: "extra-key/locales/de/shop.json",
        language: "de",
        namespace: "shop",
        key: "cart.titel",
        reference: "en",
      },
      {
        kind: "extra-key",
        file: "extra-key/locales/de/legacy.json",
        language: "de",
        namespace: "legacy",
        key: "old",
        reference: "en",
      },
    ]);
  });

  it("reports placeholders that differ, ignoring format arguments", async () => {
    expect(strip(await checkLocaleTree(tree("placeholders")))).toEqual([
      {
        kind: "placeholder-mismatch",
        file: "placeholders/locales/de/shop.json",
        language: "de",
        namespace: "shop",
        key: "greeting",
        reference: "en",
        expected: ["name"],
        actual: ["nmae"],
      },
      {
        kind: "placeholder-mismatch",
        file: "placeholders/locales/de/shop.json",
        language: "de",
        namespace: "shop",
        key: "total",
        reference: "en",
        expected: ["amount", "count"],
        actual: ["amount"],
      },
    ]);
  });

  it("reports a namespace file missing in a language", async () => {
    expect(strip(await checkLocaleTree(tree("missing-namespace")))).toEqual([
      {
        kind: "missing-namespace",
        file: "missing-namespace/locales/de/billing.json",
        language: "de",
        namespace: "billing",
        reference: "en",
      },
    ]);
  });

  it("reports files that are not JSON and values that are not strings", async () => {
    const problems = strip(await checkLocaleTree(tree("invalid")));
    expect(problems).toEqual([
      {
        kind: "invalid-file",
        file: "invalid/locales/de/shop.json",
        message: expect.stringMatching(/^not valid JSON/),
      },
      {
        kind: "invalid-file",
        file: "invalid/locales/en/shop.json",
        message: '"cart.size" must be a string or an object of strings',
      },
      {
        kind: "missing-namespace",
        file: "invalid/locales/de/shop.json",
        language: "de",
        namespace: "shop",
        reference: "en",
      },
    ]);
  });

  it("compares against another reference language when asked", async () => {
    const problems = await checkLocaleTree(tree("missing-key"), { reference: "de" });
    expect(problems.map((p) => p.kind)).toEqual(["extra-key", "extra-key"]);
  });
});

describe("runCheck (the CLI)", () => {
  it("finds every locales folder under a path and prints one line per problem", async () => {
    const result = await runCheck(["app"], testdata);
    expect(result.trees.map((t) => t.slice(testdata.length))).toEqual([
      "app/src/features/billing/locales",
      "app/src/features/booking/locales",
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.output).toEqual([
      'app/src/features/billing/locales/de/billing.json: missing key "due" (present in "en")',
      "1 problem(s) in 2 locales folder(s)",
    ]);
  });

  it("formats each kind of problem", async () => {
    const result = await runCheck(["placeholders", "extra-key", "missing-namespace"], testdata);
    expect(result.output).toEqual([
      'placeholders/locales/de/shop.json: "greeting" uses placeholders {{nmae}}, "en" uses {{name}}',
      'placeholders/locales/de/shop.json: "total" uses placeholders {{amount}}, "en" uses {{amount}}, {{count}}',
      'extra-key/locales/de/shop.json: extra key "cart.titel" (not in "en")',
      'extra-key/locales/de/legacy.json: extra key "old" (not in "en")',
      'missing-namespace/locales/de/billing.json: missing file; namespace "billing" exists in "en"',
      "5 problem(s) in 3 locales folder(s)",
    ]);
  });

  it("skips node_modules, dist and testdata folders", async () => {
    const dir = await mkdtemp(join(tmpdir(), "orderline-i18n-check-"));
    try {
      await cp(tree("missing-key"), join(dir, "node_modules", "lib", "locales"), {
        recursive: true,
      });
      await cp(tree("missing-key"), join(dir, "testdata", "locales"), { recursive: true });
      await cp(tree("consistent"), join(dir, "src", "locales"), { recursive: true });
      const result = await runCheck(["."], dir);
      expect(result.trees).toEqual([join(dir, "src", "locales")]);
      expect(result.exitCode).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("exits 2 on bad usage, a missing path, or no locales folder at all", async () => {
    expect((await runCheck([], testdata)).exitCode).toBe(2);
    expect((await runCheck(["--bogus", "app"], testdata)).output[0]).toBe("unknown option --bogus");
    expect((await runCheck(["does-not-exist"], testdata)).exitCode).toBe(2);
    const none = await runCheck(["app/src/features/booking/locales/en"], testdata);
    expect(none).toMatchObject({ exitCode: 2, output: ["no locales folders found"] });
  });

  it("prints usage, options and exit codes with --help, and exits 0", async () => {
    const help = await runCheck(["--help"], testdata);
    expect(help.exitCode).toBe(0);
    expect(help.output[0]).toMatch(/^usage: orderline-i18n-check/);
    expect(help.output.join("\n")).toMatch(/--reference LNG[\s\S]*--json[\s\S]*Exit code: 0/);
  });

  it("prints JSON with --json", async () => {
    const result = await runCheck(["--json", "missing-key"], testdata);
    const parsed = JSON.parse(result.output[0] as string);
    expect(parsed.problems).toHaveLength(2);
  });
});

describe("the orderline-i18n-check command (built by npm install)", () => {
  const cli = (...args: string[]) =>
    promisify(execFile)(process.execPath, [join(packageDir, "dist", "check", "main.js"), ...args], {
      cwd: packageDir,
    });

  it("passes on the package's own dictionaries, as npm run i18n:check runs it", async () => {
    const { stdout } = await cli("locales", "examples");
    expect(stdout.trim()).toBe("0 problem(s) in 2 locales folder(s)");
  });

  it("exits non-zero and names the problem on a broken tree", async () => {
    const failure = await cli(tree("missing-key")).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toMatch(/missing key "cart\.empty" \(present in "en"\)/);
  });
});

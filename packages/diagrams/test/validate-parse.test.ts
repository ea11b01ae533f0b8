import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { locate, parseWithLocations } from "../src/core/validate/parse.js";

const EXAMPLES = new URL("../../../examples/diagrams/", import.meta.url);

function parsed(text: string) {
  const result = parseWithLocations(text);
  if (!result.ok) throw new Error(result.problems[0]?.message);
  return result;
}

/** A deterministic pseudo-random JSON value (xorshift), to compare with JSON.parse. */
function randomValue(seed: { n: number }, depth = 0): unknown {
  seed.n ^= seed.n << 13;
  seed.n ^= seed.n >>> 17;
  seed.n ^= seed.n << 5;
  const r = (seed.n >>> 0) % (depth > 3 ? 5 : 7);
  const strings = [
    "",
    "a",
    'q"uote',
    "back\\slash",
    "tab\there",
    "ünï©ødé 🚀",
    "line\nbreak",
    "\u0001",
  ];
  switch (r) {
    case 0:
      return null;
    case 1:
      return (seed.n & 1) === 0;
    case 2:
      return [0, -0.5, 1e21, 123456789, -1.25e-7, 3][(seed.n >>> 3) % 6];
    case 3:
    case 4:
      return strings[(seed.n >>> 3) % strings.length];
    case 5:
      return Array.from({ length: (seed.n >>> 4) % 4 }, () => randomValue(seed, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: (seed.n >>> 4) % 4 }, (_, i) => [
          `k${i}${strings[i % 3]}`,
          randomValue(seed, depth + 1),
        ]),
      );
  }
}

describe("the position-keeping JSON parser", () => {
  it.each(readdirSync(EXAMPLES).filter((f) => f.endsWith(".json")))(
    "reads %s as JSON.parse does",
    (file) => {
      const text = readFileSync(fileURLToPath(new URL(file, EXAMPLES)), "utf8");
      expect(parsed(text).value).toEqual(JSON.parse(text));
    },
  );

  it("agrees with JSON.parse on 500 generated values, compact and indented", () => {
    const seed = { n: 2463534242 };
    for (let i = 0; i < 500; i++) {
      const value = randomValue(seed);
      for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
        expect(parsed(text).value).toEqual(JSON.parse(text));
      }
    }
  });

  it("keeps the position of every value and key", () => {
    const text = '{\n  "a": [10, {"b": "x"}],\n\t"c": null\n}';
    const p = parsed(text);
    expect(locate(p, "/a/1/b")).toEqual({ line: 2, column: 19 });
    expect(locate(p, "/a/1/b", "key")).toEqual({ line: 2, column: 14 });
    expect(locate(p, "/c", "key")).toEqual({ line: 3, column: 2 });
    expect(locate(p, "/a/0")).toEqual({ line: 2, column: 9 });
    // A path that does not exist falls back to its nearest existing ancestor.
    expect(locate(p, "/a/1/zz")).toEqual({ line: 2, column: 13 });
  });

  it.each([
    ["01", 1, 2, /after the end/],
    ["1.", 1, 2, /after the end/],
    [".5", 1, 1, /expected a value/],
    ["+1", 1, 1, /expected a value/],
    ["[1 2]", 1, 4, /expected "," or "]"/],
    ['{"a" 1}', 1, 6, /expected ":"/],
    ['{"a": 1,}', 1, 9, /trailing comma/],
    ["[1,]", 1, 4, /trailing comma/],
    ['"abc', 1, 1, /unterminated string/],
    ['"a\\x"', 1, 3, /invalid escape/],
    ['"a\tb"', 1, 3, /control character U\+0009 in string/],
    ["tru", 1, 1, /expected a value/],
    ["NaN", 1, 1, /expected a value/],
    ["{a: 1}", 1, 2, /property name in double quotes/],
    ["\n\n  }", 3, 3, /expected a value, found "}"/],
    ["", 1, 1, /end of input/],
  ])("refuses %j at line %i column %i", (text, line, column, message) => {
    const result = parseWithLocations(text);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      { line, column, path: "", rule: "json/syntax", message: expect.stringMatching(message) },
    ]);
  });

  it("refuses hostile nesting without exhausting the stack", () => {
    const result = parseWithLocations("[".repeat(100_000));
    expect(result.problems[0]).toMatchObject({
      rule: "json/syntax",
      message: expect.stringMatching(/nesting deeper than 256/),
    });
  });

  it("counts Windows line endings as one line break", () => {
    const result = parseWithLocations('{\r\n  "a": 1,\r\n  "b": x\r\n}');
    expect(result.problems[0]).toMatchObject({ line: 3, column: 8 });
  });

  it("counts columns after a byte order mark as in the file", () => {
    const p = parsed('\ufeff{"a": 1}');
    expect(locate(p, "/a")).toEqual({ line: 1, column: 8 });
  });
});

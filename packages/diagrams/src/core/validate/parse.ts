import { childPointer, pointerTokens } from "./pointer.js";
import type { Problem } from "./problem.js";

/**
 * A strict JSON (RFC 8259) parser that records where every value, and every member's key,
 * starts in the text, by JSON Pointer. Hand-written rather than taken from a package because
 * it is on the CLI's cold path: the JSON AST packages tried (@humanwhocodes/momoa,
 * jsonc-parser) cost 25–35 ms to import and up to 20 ms to parse a small file cold, this one
 * costs neither. Values are built as JSON.parse would build them, except that a duplicate key
 * is reported instead of silently keeping the last value.
 */

/** 1-based line and column. */
export interface Position {
  line: number;
  column: number;
}

/**
 * Offsets (UTF-16 code units) of a value and, for an object member, of its key; for an object
 * or array also of its members or items. A tree beside the value rather than a map keyed by
 * pointer, so parsing builds no pointer strings; `locate` walks it for the few problems.
 */
interface Located {
  value: number;
  key?: number;
  children?: Map<string, Located> | Located[];
}

export interface ParsedSource {
  value: unknown;
  locations: Located;
  /** Offset at which each line starts. */
  lineStarts: number[];
}

type ParseResult =
  | ({ ok: true; problems: Problem[] } & ParsedSource)
  | { ok: false; problems: Problem[] };

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

function positionAt(lineStarts: number[], offset: number): Position {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - (lineStarts[low] ?? 0) + 1 };
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// A well-formed string body: no raw control characters, only JSON escapes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids raw control characters in strings; this range is how they are refused.
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*/y;

function describeChar(text: string, offset: number): string {
  if (offset >= text.length) return "end of input";
  const ch = text[offset] as string;
  const code = ch.charCodeAt(0);
  return code < 0x20 ? `control character U+${code.toString(16).padStart(4, "0")}` : `"${ch}"`;
}

/** Far deeper than any description; keeps hostile input from exhausting the stack. */
const MAX_DEPTH = 256;

interface State {
  text: string;
  at: number;
  depth: number;
  duplicates: { path: string; offset: number; name: string }[];
}

function skipWhitespace(s: State): void {
  const { text } = s;
  let i = s.at;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else break;
  }
  s.at = i;
}

function parseString(s: State): string {
  const start = s.at; // at the opening quote
  STRING_BODY.lastIndex = start + 1;
  STRING_BODY.exec(s.text);
  const end = STRING_BODY.lastIndex;
  if (s.text[end] !== '"') {
    if (end >= s.text.length) throw new JsonSyntaxError("unterminated string", start);
    const what = s.text[end] === "\\" ? "invalid escape sequence" : describeChar(s.text, end);
    throw new JsonSyntaxError(`${what} in string`, end);
  }
  s.at = end + 1;
  const body = s.text.slice(start + 1, end);
  return body.includes("\\") ? (JSON.parse(`"${body}"`) as string) : body;
}

/**
 * Parses the value at the current position into `into.value`, recording its offsets in `into`.
 * `path` is a function so that the pointer string is built only for a duplicate key.
 */
function expectValue(s: State, into: Located, path: () => string): unknown {
  skipWhitespace(s);
  const { text } = s;
  const start = s.at;
  into.value = start;
  const ch = text[start];
  if ((ch === "{" || ch === "[") && ++s.depth > MAX_DEPTH) {
    throw new JsonSyntaxError(`nesting deeper than ${MAX_DEPTH} levels`, start);
  }
  switch (ch) {
    case "{": {
      const object = parseObject(s, into, path);
      s.depth--;
      return object;
    }
    case "[": {
      const array = parseArray(s, into, path);
      s.depth--;
      return array;
    }
    case '"':
      return parseString(s);
    case "t":
    case "f":
    case "n": {
      for (const [word, value] of [
        ["true", true],
        ["false", false],
        ["null", null],
      ] as const) {
        if (text.startsWith(word, start)) {
          s.at = start + word.length;
          return value;
        }
      }
      break;
    }
    default: {
      NUMBER.lastIndex = start;
      if (NUMBER.test(text)) {
        s.at = NUMBER.lastIndex;
        return Number(text.slice(start, s.at));
      }
    }
  }
  throw new JsonSyntaxError(`expected a value, found ${describeChar(text, start)}`, start);
}

function parseObject(s: State, located: Located, path: () => string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const members = new Map<string, Located>();
  located.children = members;
  s.at++; // {
  skipWhitespace(s);
  if (s.text[s.at] === "}") {
    s.at++;
    return result;
  }
  for (;;) {
    skipWhitespace(s);
    const keyAt = s.at;
    if (s.text[keyAt] !== '"') {
      const trailing = s.text[keyAt] === "}" ? " (a trailing comma is not allowed)" : "";
      throw new JsonSyntaxError(
        `expected a property name in double quotes, found ${describeChar(s.text, keyAt)}${trailing}`,
        keyAt,
      );
    }
    const name = parseString(s);
    skipWhitespace(s);
    if (s.text[s.at] !== ":") {
      throw new JsonSyntaxError(
        `expected ":" after property name, found ${describeChar(s.text, s.at)}`,
        s.at,
      );
    }
    s.at++;
    const childPath = () => childPointer(path(), name);
    if (members.has(name)) s.duplicates.push({ path: childPath(), offset: keyAt, name });
    const member: Located = { value: keyAt, key: keyAt };
    members.set(name, member);
    const value = expectValue(s, member, childPath);
    if (name === "__proto__") {
      // An own data property, so that a key named "__proto__" stays plain data.
      Object.defineProperty(result, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      result[name] = value;
    }
    skipWhitespace(s);
    const next = s.text[s.at];
    s.at++;
    if (next === "}") return result;
    if (next !== ",") {
      throw new JsonSyntaxError(
        `expected "," or "}" after a property, found ${describeChar(s.text, s.at - 1)}`,
        s.at - 1,
      );
    }
  }
}

function parseArray(s: State, located: Located, path: () => string): unknown[] {
  const result: unknown[] = [];
  const items: Located[] = [];
  located.children = items;
  s.at++; // [
  skipWhitespace(s);
  if (s.text[s.at] === "]") {
    s.at++;
    return result;
  }
  for (;;) {
    skipWhitespace(s);
    if (s.text[s.at] === "]") {
      throw new JsonSyntaxError(
        'expected a value, found "]" (a trailing comma is not allowed)',
        s.at,
      );
    }
    const index = result.length;
    const item: Located = { value: s.at };
    items.push(item);
    result.push(expectValue(s, item, () => childPointer(path(), index)));
    skipWhitespace(s);
    const next = s.text[s.at];
    s.at++;
    if (next === "]") return result;
    if (next !== ",") {
      throw new JsonSyntaxError(
        `expected "," or "]" after an item, found ${describeChar(s.text, s.at - 1)}`,
        s.at - 1,
      );
    }
  }
}

/**
 * Parses a description's text. A syntax error gives one `json/syntax` problem at the offending
 * character; duplicate keys give `json/duplicate-key` problems alongside the value.
 */
export function parseWithLocations(source: string, file?: string): ParseResult {
  // A byte order mark is not JSON but editors write one; skip it, keeping columns right.
  const text = source.charCodeAt(0) === 0xfeff ? ` ${source.slice(1)}` : source;
  const lineStarts = lineStartsOf(text);
  const where = (offset: number) => ({
    ...(file === undefined ? {} : { file }),
    ...positionAt(lineStarts, offset),
  });
  const state: State = { text, at: 0, depth: 0, duplicates: [] };
  const locations: Located = { value: 0 };
  let value: unknown;
  try {
    value = expectValue(state, locations, () => "");
    skipWhitespace(state);
    if (state.at < text.length) {
      throw new JsonSyntaxError(
        `unexpected ${describeChar(text, state.at)} after the end of the JSON value`,
        state.at,
      );
    }
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return {
      ok: false,
      problems: [
        {
          ...where(error.offset),
          path: "",
          rule: "json/syntax",
          message: `not valid JSON: ${error.message}`,
        },
      ],
    };
  }
  const problems: Problem[] = state.duplicates.map(({ path, offset, name }) => ({
    ...where(offset),
    path,
    rule: "json/duplicate-key",
    message: `property "${name}" appears more than once in this object; only one may be given`,
  }));
  return { ok: true, value, locations, lineStarts, problems };
}

/** The position of the value at `path`, or of its nearest ancestor that exists in the source. */
export function locate(
  parsed: ParsedSource,
  path: string,
  prefer: "value" | "key" = "value",
): Position {
  let current = parsed.locations;
  for (const token of pointerTokens(path)) {
    const { children } = current;
    const next = Array.isArray(children)
      ? /^(0|[1-9][0-9]*)$/.test(token)
        ? children[Number(token)]
        : undefined
      : children?.get(token);
    if (!next) return positionAt(parsed.lineStarts, current.value);
    current = next;
  }
  const offset = prefer === "key" && current.key !== undefined ? current.key : current.value;
  return positionAt(parsed.lineStarts, offset);
}

/**
 * The one rule for text the gateway accepts, wherever it comes from (body, query, path, header)
 * and before any store sees it: well-formed Unicode (no lone surrogates, which PostgreSQL cannot
 * store and SQLite would keep altered) and no control characters (Unicode category Cc: C0, DEL,
 * C1; NUL among them), except line feed, carriage return and tab in the fields that take
 * multi-line text.
 */

const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;
const LONE_SURROGATE = /[\ud800-\udfff]/u;

const codePoint = (char: string) =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;

/** Why `value` breaks the rule, in words for the caller, or undefined when it is fine. */
function textFault(value: string, multiline = false): string | undefined {
  const control = (multiline ? CONTROL_BUT_LINE_BREAKS : CONTROL).exec(value);
  if (control) {
    return `holds the control character ${codePoint(control[0])} at position ${control.index}${
      multiline ? " (only line breaks and tabs are allowed here)" : ""
    }`;
  }
  // With the u flag a surrogate matches only when it is not half of a pair.
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate) {
    return `holds a lone surrogate ${codePoint(surrogate[0])} at position ${surrogate.index}, which is not a character`;
  }
  return undefined;
}

export interface TextFaultAt {
  /** JSON Pointer to the offending string (a property name counts as text too). */
  pointer: string;
  message: string;
}

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Every string in a parsed JSON value that breaks the rule (or `check`), keys included.
 * `multiline` says, by the path of property names and array indexes, which strings may hold
 * line breaks.
 */
export function textFaultsIn(
  value: unknown,
  multiline: (path: readonly string[]) => boolean = () => false,
  check: (value: string, multiline: boolean) => string | undefined = textFault,
): TextFaultAt[] {
  const found: TextFaultAt[] = [];
  const path: string[] = [];
  const pointer = () => `/${path.map(escapePointer).join("/")}`;
  const walk = (item: unknown): void => {
    if (typeof item === "string") {
      const message = check(item, multiline(path));
      if (message) found.push({ pointer: pointer(), message });
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        path.push(key);
        const keyMessage = Array.isArray(item) ? undefined : check(key, false);
        if (keyMessage) found.push({ pointer: pointer(), message: `property name ${keyMessage}` });
        walk(child);
        path.pop();
      }
    }
  };
  walk(value);
  return found;
}

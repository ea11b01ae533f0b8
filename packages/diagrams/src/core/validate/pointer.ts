/** JSON Pointer (RFC 6901) helpers: problems name the offending value by pointer. */

/** The pointer to member or item `token` of the value at `parent`. */
export function childPointer(parent: string, token: string | number): string {
  return `${parent}/${String(token).replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** The unescaped reference tokens of a pointer; [] for the whole document (""). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value at `pointer` inside `root`, or undefined when there is none. */
export function valueAtPointer(root: unknown, pointer: string): unknown {
  let current = root;
  for (const token of pointerTokens(pointer)) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

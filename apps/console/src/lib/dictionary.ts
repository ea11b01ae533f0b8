import type { Dictionary } from "@orderline/i18n";

/** Dotted keys and their texts: `{ a: { b: "x" } }` → `{ "a.b": "x" }`. */
export const flatten = (tree: Dictionary, prefix = ""): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") out[`${prefix}${key}`] = value;
    else Object.assign(out, flatten(value, `${prefix}${key}.`));
  }
  return out;
};

/** The `{{placeholders}}` of a text, each once, in order. */
export const placeholdersOf = (text: string): string[] => [
  ...new Set(text.match(/\{\{\s*[\w.]+\s*\}\}/g)?.map((p) => p.replace(/\s/g, "")) ?? []),
];

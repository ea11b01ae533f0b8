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

/** The reverse of `flatten`: what the vocabulary endpoint takes. */
export const unflatten = (flat: Record<string, string>): Dictionary => {
  const tree: Dictionary = {};
  for (const [path, text] of Object.entries(flat)) {
    const parts = path.split(".");
    let node = tree;
    for (const part of parts.slice(0, -1)) {
      let next = node[part];
      if (typeof next !== "object") {
        next = {};
        node[part] = next;
      }
      node = next;
    }
    node[parts.at(-1) as string] = text;
  }
  return tree;
};

/** The `{{placeholders}}` of a text, each once, in order. */
export const placeholdersOf = (text: string): string[] => [
  ...new Set(text.match(/\{\{\s*[\w.]+\s*\}\}/g)?.map((p) => p.replace(/\s/g, "")) ?? []),
];

/** A text with its placeholders filled by readable samples, as a preview of the screen. */
export const fillSamples = (text: string): string =>
  text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_m, name: string) => SAMPLES[name] ?? `‹${name}›`);

const SAMPLES: Record<string, string> = {
  email: "ana@acme.example",
  tenant: "Acme",
  number: "SO-00000042",
  page: "2",
  language: "Deutsch",
  previous: "English",
  seconds: "30",
  count: "3",
};

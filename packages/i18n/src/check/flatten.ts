/** Plural suffixes i18next adds to a key (`items_one`, `items_other`, …). */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

interface FlatEntry {
  /** The key with its plural suffix removed: languages have different plural forms. */
  key: string;
  /** Placeholder names used by the entry's values (all plural forms together). */
  placeholders: Set<string>;
}

export type FlatDictionary = Map<string, FlatEntry>;

const PLACEHOLDER = /\{\{\s*-?\s*([^,}\s]+)[^}]*\}\}/g;

/** Names inside `{{…}}`, ignoring format arguments (`{{date, short}}` → `date`). */
export const placeholdersOf = (text: string): string[] =>
  [...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string);

/**
 * Flattens a dictionary to dotted keys, grouping plural forms under one key. Returns the keys
 * and the paths of values that are not strings.
 */
export const flattenDictionary = (
  dictionary: unknown,
): { entries: FlatDictionary; invalid: string[] } => {
  const entries: FlatDictionary = new Map();
  const invalid: string[] = [];
  const walk = (node: unknown, prefix: string) => {
    if (typeof node === "string") {
      const key = prefix.replace(PLURAL_SUFFIX, "");
      let entry = entries.get(key);
      if (!entry) {
        entry = { key, placeholders: new Set() };
        entries.set(key, entry);
      }
      for (const name of placeholdersOf(node)) entry.placeholders.add(name);
      return;
    }
    if (typeof node === "object" && node !== null && !Array.isArray(node)) {
      for (const [k, v] of Object.entries(node)) walk(v, prefix ? `${prefix}.${k}` : k);
      return;
    }
    invalid.push(prefix || "(root)");
  };
  if (typeof dictionary !== "object" || dictionary === null || Array.isArray(dictionary)) {
    invalid.push("(root)");
  } else {
    walk(dictionary, "");
  }
  return { entries, invalid };
};

import type { Dictionary } from "@orderline/i18n";
import { flatten } from "../lib/dictionary.js";

/** One translatable key of the console, with its standard text and the tenant's word per language. */
export interface WordRow {
  namespace: string;
  key: string;
  /** Standard text by language code. */
  standard: Record<string, string>;
  /** The tenant's word by language code, where it has one. */
  tenant: Record<string, string>;
}

/** Every key of every namespace, in dictionary order, with the tenant's words merged in. */
export const wordRows = (
  dictionaries: Record<string, Record<string, Dictionary>>,
  overrides: Record<string, Record<string, Dictionary>>,
  languages: readonly string[],
): WordRow[] => {
  const rows: WordRow[] = [];
  for (const [namespace, byLanguage] of Object.entries(dictionaries)) {
    const standard = Object.fromEntries(
      languages.map((lng) => [lng, flatten(byLanguage[lng] ?? {})]),
    );
    const tenant = Object.fromEntries(
      languages.map((lng) => [lng, flatten(overrides[namespace]?.[lng] ?? {})]),
    );
    const keys = new Set(languages.flatMap((lng) => Object.keys(standard[lng] ?? {})));
    for (const key of keys) {
      const pick = (by: Record<string, Record<string, string>>) =>
        Object.fromEntries(
          languages.flatMap((lng) => (by[lng]?.[key] === undefined ? [] : [[lng, by[lng]?.[key]]])),
        ) as Record<string, string>;
      rows.push({ namespace, key, standard: pick(standard), tenant: pick(tenant) });
    }
  }
  return rows;
};

export interface RowFilter {
  /** Words or part of a key; matched case-insensitively against keys, standard texts and words. */
  query: string;
  /** One namespace, or "" for all. */
  namespace: string;
  /** Only keys the tenant changed in some language. */
  changedOnly: boolean;
}

/** The rows a filter keeps, in order. */
export const filterRows = (rows: readonly WordRow[], filter: RowFilter): WordRow[] => {
  const words = filter.query.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((row) => {
    if (filter.namespace && row.namespace !== filter.namespace) return false;
    if (filter.changedOnly && Object.keys(row.tenant).length === 0) return false;
    if (words.length === 0) return true;
    // The key as i18next writes it (`orders:status.received`) and as people write it from
    // the file it is in (`orders.status.received`).
    const haystack = [
      `${row.namespace}:${row.key}`,
      `${row.namespace}.${row.key}`,
      ...Object.values(row.standard),
      ...Object.values(row.tenant),
    ]
      .join("\n")
      .toLocaleLowerCase();
    return words.every((word) => haystack.includes(word));
  });
};

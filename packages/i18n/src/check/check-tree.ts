import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { type FlatDictionary, flattenDictionary } from "./flatten.js";

/** Where a problem is: the file, its language and namespace, and the language it was compared with. */
interface Place {
  file: string;
  language: string;
  namespace: string;
  reference: string;
}

export type Problem =
  | (Place & { kind: "missing-key" | "extra-key"; key: string })
  | (Place & { kind: "placeholder-mismatch"; key: string; expected: string[]; actual: string[] })
  | (Place & { kind: "missing-namespace" })
  | { kind: "invalid-file"; file: string; message: string };

export interface CheckOptions {
  /** Language every other language is compared with. Default: "en" when present, else the first. */
  reference?: string;
}

interface Loaded {
  file: string;
  entries: FlatDictionary;
}

/**
 * Checks one `locales/{lng}/{namespace}.json` tree: every language must have the reference
 * language's namespaces and keys, no others, and the same `{{placeholders}}` per key.
 */
export const checkLocaleTree = async (
  root: string,
  options: CheckOptions = {},
): Promise<Problem[]> => {
  const problems: Problem[] = [];
  const languages = (await readdir(root, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
  const trees = new Map<string, Map<string, Loaded>>();
  for (const language of languages) {
    const namespaces = new Map<string, Loaded>();
    const files = (await readdir(join(root, language))).filter((f) => f.endsWith(".json")).sort();
    for (const name of files) {
      const file = join(root, language, name);
      const loaded = await load(file, problems);
      if (loaded) namespaces.set(name.slice(0, -".json".length), loaded);
    }
    trees.set(language, namespaces);
  }
  const reference = options.reference ?? (languages.includes("en") ? "en" : languages[0]);
  if (reference === undefined) return problems;
  const base = trees.get(reference);
  if (!base) {
    problems.push({
      kind: "invalid-file",
      file: root,
      message: `no folder for the reference language "${reference}"`,
    });
    return problems;
  }
  for (const [language, namespaces] of trees) {
    if (language === reference) continue;
    for (const [namespace, ref] of base) {
      const other = namespaces.get(namespace);
      if (!other) {
        problems.push({
          kind: "missing-namespace",
          file: join(root, language, `${namespace}.json`),
          language,
          namespace,
          reference,
        });
        continue;
      }
      compare(ref, other, { language, namespace, reference }, problems);
    }
    for (const [namespace, other] of namespaces) {
      if (base.has(namespace)) continue;
      for (const key of other.entries.keys()) {
        problems.push({ kind: "extra-key", file: other.file, language, namespace, key, reference });
      }
    }
  }
  return problems;
};

const load = async (file: string, problems: Problem[]): Promise<Loaded | undefined> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    problems.push({
      kind: "invalid-file",
      file,
      message: `not valid JSON: ${(error as Error).message}`,
    });
    return undefined;
  }
  const { entries, invalid } = flattenDictionary(parsed);
  for (const path of invalid) {
    problems.push({
      kind: "invalid-file",
      file,
      message: `"${path}" must be a string or an object of strings`,
    });
  }
  return { file, entries };
};

const compare = (
  ref: Loaded,
  other: Loaded,
  where: { language: string; namespace: string; reference: string },
  problems: Problem[],
) => {
  for (const [key, entry] of ref.entries) {
    const found = other.entries.get(key);
    if (!found) {
      problems.push({ kind: "missing-key", file: other.file, ...where, key });
      continue;
    }
    const expected = [...entry.placeholders].sort();
    const actual = [...found.placeholders].sort();
    if (expected.join("\u0000") !== actual.join("\u0000")) {
      problems.push({
        kind: "placeholder-mismatch",
        file: other.file,
        ...where,
        key,
        expected,
        actual,
      });
    }
  }
  for (const key of other.entries.keys()) {
    if (!ref.entries.has(key))
      problems.push({ kind: "extra-key", file: other.file, ...where, key });
  }
};

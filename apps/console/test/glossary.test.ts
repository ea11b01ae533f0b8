import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * The Indonesian and German words for every order status and action (glossary/<lang>.md) are
 * the ones the dictionaries use: a status reads the same in the list, the filter and the order's
 * page, and an action's result never borrows another status's word ("50 pesanan diterima" said
 * "Received" for an accept).
 */
const ROOT = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), "utf8");

interface Term {
  kind: "status" | "action";
  key: string;
  word: string;
  done: string;
}

const glossary = (language: string): Term[] =>
  read(`glossary/${language}.md`)
    .split("\n")
    .filter((line) => /^\| (status|action) /.test(line))
    .map((line) => {
      const [kind, key, , word, done] = line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim());
      return { kind, key, word, done } as Term;
    });

type Tree = { [key: string]: string | Tree };

/** The texts of a key, or of its plural family (`bulk.accept` → accept_one, accept_other). */
const texts = (tree: Tree, path: string): string[] => {
  const parts = path.split(".");
  const last = parts.pop() ?? "";
  const parent = parts.reduce<Tree | undefined>((node, part) => {
    const next = node?.[part];
    return typeof next === "object" ? next : undefined;
  }, tree);
  return Object.entries(parent ?? {})
    .filter(
      ([key, text]) => (key === last || key.startsWith(`${last}_`)) && typeof text === "string",
    )
    .map(([, text]) => text as string);
};

/** The words of a text, lower-cased; "…" parts of a glossary word match in order. */
const contains = (text: string, word: string): boolean => {
  const parts = word
    .toLowerCase()
    .split("…")
    .map((p) => p.trim());
  let from = 0;
  const lower = text.toLowerCase();
  for (const part of parts) {
    const found = lower.indexOf(part, from);
    if (found < 0) return false;
    from = found + part.length;
  }
  return true;
};

for (const language of ["id", "de"])
  describe(`the ${language} glossary`, () => {
    const terms = glossary(language);
    const orders = JSON.parse(read(`locales/${language}/orders.json`)) as Tree;

    it("names every status and action", () => {
      expect(terms.filter((t) => t.kind === "status").map((t) => t.key)).toEqual([
        "received",
        "accepted",
        "rejected",
        "fulfilled",
        "cancelled",
      ]);
      expect(terms.filter((t) => t.kind === "action").map((t) => t.key)).toEqual([
        "accept",
        "reject",
        "fulfil",
        "cancel",
      ]);
    });

    it("is the word of every status", () => {
      for (const term of terms.filter((t) => t.kind === "status"))
        expect(texts(orders, `status.${term.key}`), term.key).toEqual([term.word]);
    });

    it("is the verb of every action's buttons and the participle of what it did", () => {
      for (const { key, word, done } of terms.filter((t) => t.kind === "action")) {
        const buttons = [...texts(orders, `bulk.${key}`), ...texts(orders, `bulk.atLeast.${key}`)];
        expect(buttons.length, key).toBeGreaterThan(0);
        for (const text of buttons) expect(contains(text, word), `${key}: ${text}`).toBe(true);
        const results = [
          ...texts(orders, `bulk.done.${key}`),
          ...texts(orders, `actions.done.${key}`),
        ];
        expect(results.length, key).toBeGreaterThan(0);
        for (const text of results) expect(contains(text, done), `${key}: ${text}`).toBe(true);
      }
    });

    it("never says an action did what another status's word says", () => {
      const statuses = terms.filter((t) => t.kind === "status");
      for (const { key, done } of terms.filter((t) => t.kind === "action")) {
        const own = statuses.find((s) => s.word.toLowerCase() === done.toLowerCase());
        const others = statuses.filter((s) => s !== own).map((s) => s.word.toLowerCase());
        for (const text of [
          ...texts(orders, `bulk.done.${key}`),
          ...texts(orders, `actions.done.${key}`),
        ])
          for (const other of others)
            expect(new RegExp(`\\b${other}\\b`, "i").test(text), `${key}: ${text}`).toBe(false);
      }
    });
  });

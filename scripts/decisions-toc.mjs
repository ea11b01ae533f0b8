#!/usr/bin/env node
// The table of contents of docs/decisions.md, made from its headings: one line per entry
// under its section, "(replaced)" after an entry whose first line under the heading starts
// "> **Replaced**". `node scripts/decisions-toc.mjs` rewrites it between the
// <!-- toc --> markers; `--check` exits 1 when it is stale (a test runs that).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const DECISIONS = fileURLToPath(new URL("../docs/decisions.md", import.meta.url));
const START = "<!-- toc -->";
const END = "<!-- /toc -->";

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading, seen) {
  const base = heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
  const n = seen.get(base) ?? 0;
  seen.set(base, n + 1);
  return n === 0 ? base : `${base}-${n}`;
}

export function tableOfContents(text) {
  const lines = text.split("\n");
  const seen = new Map();
  const out = [];
  let fenced = false;
  for (const [i, line] of lines.entries()) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^(##|###) (.+)$/.exec(line);
    if (!m) continue;
    const [, level, title] = m;
    const anchor = anchorOf(title, seen);
    if (level === "##") out.push(`- [${title}](#${anchor})`);
    else {
      const next = lines.slice(i + 1).find((l) => l.trim() !== "") ?? "";
      const replaced = next.startsWith("> **Replaced**") ? " (replaced)" : "";
      out.push(`  - [${title}](#${anchor})${replaced}`);
    }
  }
  return out.join("\n");
}

/** The document with its table of contents brought up to date. */
export function withTableOfContents(text) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${DECISIONS} has no ${START} … ${END} block`);
  const body = text.slice(end + END.length);
  return `${text.slice(0, start)}${START}\n${tableOfContents(body)}\n${END}${body}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = readFileSync(DECISIONS, "utf8");
  const updated = withTableOfContents(text);
  if (process.argv.includes("--check")) {
    if (updated !== text) {
      console.error(
        "docs/decisions.md: the table of contents is stale; run node scripts/decisions-toc.mjs",
      );
      process.exit(1);
    }
  } else writeFileSync(DECISIONS, updated);
}

#!/usr/bin/env node
// Every repository path the Markdown docs name, checked to exist: relative links, and code
// spans that look like a path (`packages/gateway/src/app.ts`, `core/legend.ts`). A code span is
// resolved against the repository root, the document's folder, and each workspace package and
// its src/ (docs name files inside a package that way). `node scripts/doc-paths.mjs` prints the
// missing ones and exits 1; the docs test uses `missingDocPaths`.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/**
 * A code span names a path when it has a slash and ends in a file extension or a slash, or
 * starts at a top folder of the repository; rule ids (`ref/node`) and media types do not.
 */
const EXTENSION =
  /\.(?:ts|tsx|mts|mjs|cjs|js|json|md|sql|sh|yml|yaml|py|java|html|css|txt|svg|png)$/;
const TOP = /^(?:packages|apps|docs|examples|scripts|\.ci)\//;
const isPathLike = (span) =>
  /^(?:\.{1,2}\/)?[\w.][\w.@-]*(?:\/[\w.@-]+)*\/?$/.test(span) &&
  span.includes("/") &&
  (EXTENSION.test(span) || span.endsWith("/") || TOP.test(span));
/** Spans that look like paths but name something else: generated or user-side files. */
const NOT_REPO = [
  /^(?:data|demo|dist|node_modules|out|tmp)\//, // created by a build or a run
  /(?:^|\/)(?:dist|screenshots)\//,
  /NNN/, // a file name pattern
  /^\.vscode\/|^src\/types\/i18next\.d\.ts$/, // in the reader's own project
  /^@orderline\//, // package specifiers, checked by the build
  /^(?:application|text|image|multipart)\//, // media types
  /^\.\.\/shared\//, // the specifications, outside the repository
];

function workspaceRoots() {
  const roots = [];
  for (const base of ["packages", "apps"]) {
    const listed = execFileSync("git", ["ls-files", "--", `${base}/*/package.json`], {
      cwd: ROOT,
      encoding: "utf8",
    });
    for (const line of listed.split("\n").filter(Boolean)) {
      const dir = dirname(line);
      roots.push(dir, join(dir, "src"));
    }
  }
  return roots;
}

function* namedPaths(text) {
  const lines = text.split("\n");
  let fenced = false;
  for (const [i, line] of lines.entries()) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const m of line.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      const target = m[1];
      if (!/^[a-z]+:/.test(target)) yield { line: i + 1, path: target, link: true };
    }
    for (const m of line.matchAll(/`([^`\s]+)`/g)) {
      const span = m[1].replace(/[.,:;]$/, "");
      if (isPathLike(span) && !NOT_REPO.some((r) => r.test(span)))
        yield { line: i + 1, path: span, link: false };
    }
  }
}

/** Paths named in the tracked *.md files that exist nowhere they could mean. */
export function missingDocPaths() {
  const docs = execFileSync("git", ["ls-files", "*.md"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && !f.includes("/testdata/"));
  const roots = workspaceRoots();
  const missing = [];
  for (const doc of docs) {
    const text = readFileSync(join(ROOT, doc), "utf8");
    for (const { line, path, link } of namedPaths(text)) {
      const bases = link ? [dirname(doc)] : ["", dirname(doc), ...roots];
      const clean = path.replace(/\/$/, "");
      if (!bases.some((b) => existsSync(join(ROOT, b, clean))))
        missing.push(`${doc}:${line}: ${path}`);
    }
  }
  return missing;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = missingDocPaths();
  for (const m of missing) console.log(m);
  console.log(`${missing.length} missing path(s)`);
  if (missing.length > 0) process.exit(1);
}

#!/usr/bin/env node
// Lists the functions longer than a limit (default 80 lines), longest first, read with the
// TypeScript compiler API: `node scripts/long-functions.mjs [--over N] [--fail] PATH...`.
// With --fail it exits 1 when any is found (the function-length tests use `longFunctions`).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SOURCE = /\.(ts|tsx|mts)$/;
const SKIP = new Set(["node_modules", "dist", "test", "bench"]);

function* sourceFiles(path) {
  if (statSync(path).isFile()) {
    if (SOURCE.test(path) && !path.endsWith(".d.ts")) yield path;
    return;
  }
  for (const entry of readdirSync(path))
    if (!SKIP.has(entry)) yield* sourceFiles(join(path, entry));
}

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText();
  return "(anonymous)";
}

/** Every function, method and arrow function in `paths` longer than `over` lines. */
export function longFunctions(paths, over = 80) {
  const found = [];
  for (const root of paths)
    for (const file of sourceFiles(root)) {
      const text = readFileSync(file, "utf8");
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const visit = (node) => {
        if (ts.isFunctionLike(node) && "body" in node && node.body) {
          const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
          const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
          const lines = end - start + 1;
          if (lines > over) found.push({ file, line: start + 1, name: nameOf(node), lines });
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  return found.sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--over");
  const over = at >= 0 ? Number(args.splice(at, 2)[1]) : 80;
  const fail = args.includes("--fail");
  const paths = args.filter((a) => a !== "--fail");
  const found = longFunctions(paths.length > 0 ? paths : ["packages", "apps"], over);
  for (const f of found)
    console.log(
      `${String(f.lines).padStart(4)}  ${relative(process.cwd(), f.file)}:${f.line}  ${f.name}`,
    );
  console.log(`${found.length} function(s) over ${over} lines`);
  if (fail && found.length > 0) process.exit(1);
}

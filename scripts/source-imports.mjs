// What the packages' structure tests read: every .ts file under a source folder and the
// relative modules each imports, as paths from that folder.
import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** Every .ts file under `dir`, recursively. */
export function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every relative module `file` imports or re-exports, statically or with import(), as a path from `src`. */
export function importsOf(src, file, text) {
  const specifiers = [
    ...text.matchAll(/\b(?:import|export)\b[^;'"]*?\bfrom\s*["']([^"']+)["']/g),
    ...text.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
    ...text.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
  ].map((m) => m[1]);
  return specifiers
    .filter((s) => s.startsWith("."))
    .map((s) =>
      relative(src, resolve(dirname(file), s))
        .split(sep)
        .join("/"),
    );
}

import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";

// Where Debian (fontconfig's defaults), macOS and Windows keep installed fonts.
function fontDirectories(): string[] {
  const home = homedir();
  return [
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    join(home, ".local/share/fonts"),
    join(home, ".fonts"),
    "/System/Library/Fonts",
    "/Library/Fonts",
    join(home, "Library/Fonts"),
    join(process.env.WINDIR ?? "C:\\Windows", "Fonts"),
  ];
}

const FONT_FILE = /\.(ttf|otf|ttc)$/i;

function walk(dir: string, into: string[], depth: number): void {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // a directory this system does not have
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth < 6) walk(path, into, depth + 1);
    else if (FONT_FILE.test(entry.name)) into.push(path);
  }
}

// Plain upright sans faces first: a label drawn in a fallback font should look like the rest.
function rank(path: string): number {
  const name = basename(path);
  let score = 0;
  if (/bold|black|heavy|light|thin|medium|italic|oblique|condensed|mono|serif|ui-/i.test(name)) {
    score += 4;
  }
  if (!/sans/i.test(name)) score += 1;
  if (!/regular/i.test(name)) score += 1;
  return score;
}

let cached: string[] | undefined;

/** Every font file installed on this system, plain sans faces first (read once per process). */
export function systemFontFiles(): string[] {
  if (!cached) {
    const files: string[] = [];
    for (const dir of fontDirectories()) walk(dir, files, 0);
    cached = files
      .map((path) => ({ path, rank: rank(path) }))
      .sort((a, b) => a.rank - b.rank || a.path.localeCompare(b.path))
      .map((f) => f.path);
  }
  return cached;
}

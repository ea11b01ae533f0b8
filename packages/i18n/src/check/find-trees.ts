import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";

/** Folders never searched: dependencies, build output, and test fixtures that are wrong on purpose. */
const SKIPPED = new Set(["node_modules", "dist", "testdata", "coverage"]);

/**
 * Dictionary trees under a path: the path itself when it is named `locales`, otherwise every
 * folder named `locales` below it.
 */
export const findLocaleTrees = async (path: string): Promise<string[]> => {
  const info = await stat(path);
  if (!info.isDirectory()) throw new Error(`${path} is not a folder`);
  if (basename(path) === "locales") return [path];
  const found: string[] = [];
  const walk = async (dir: string) => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith(".") || SKIPPED.has(entry.name)) continue;
      const child = join(dir, entry.name);
      if (entry.name === "locales") found.push(child);
      else await walk(child);
    }
  };
  await walk(path);
  return found.sort();
};

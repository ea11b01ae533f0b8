import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/**
 * The text of a command's FILE argument (`-` is standard input), or the one-line reason it
 * cannot be read, worded the same by every command.
 */
export function readDescription(file: string, cwd: string): string | { error: string } {
  try {
    return file === "-" ? readFileSync(0, "utf8") : readFileSync(resolve(cwd, file), "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : String(error);
    return { error: `cannot read ${file}: ${why}` };
  }
}

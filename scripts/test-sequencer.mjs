import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer } from "vitest/node";

/**
 * Longest file first, across every workspace of the run. Vitest's own order runs one project
 * after another and, on a fresh clone with no results cache, the largest file first: a 70 s file
 * could start last and hold the run's end while the other workers sat idle. The durations come
 * from scripts/test-durations.json (seconds per `project:path`, refreshed with
 * `node scripts/test-durations.mjs REPORT.json` from a JSON report of `npm test`); a file it does
 * not know yet counts as a long one, so it is not the one left running alone at the end.
 */
const DURATIONS = JSON.parse(
  readFileSync(new URL("./test-durations.json", import.meta.url), "utf8"),
);
const known = Object.values(DURATIONS).sort((a, b) => b - a);
const UNKNOWN = known[Math.floor(known.length / 10)] ?? 0;

export default class LongestFirst extends BaseSequencer {
  async sort(files) {
    const root = this.ctx.config.root;
    const seconds = (file) =>
      DURATIONS[`${file.project.name}:${relative(root, file.moduleId)}`] ?? UNKNOWN;
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        seconds(b) - seconds(a),
    );
  }
}

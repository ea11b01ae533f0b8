import { resolve } from "node:path";
import { checkLocaleTree, type Problem } from "./check-tree.js";
import { findLocaleTrees } from "./find-trees.js";
import { formatProblem } from "./format.js";

export interface RunResult {
  /** 0: all consistent; 1: problems found; 2: bad usage or unreadable path. */
  exitCode: 0 | 1 | 2;
  trees: string[];
  problems: Problem[];
  output: string[];
}

const USAGE = "usage: orderline-i18n-check [--reference LNG] [--json] PATH…";

const HELP = [
  USAGE,
  "",
  "Finds every `locales/<language>/<namespace>.json` tree under each PATH and checks that each",
  "language has the reference language's namespaces and keys, no others, and the same",
  "{{placeholders}} per key; files that are not valid JSON are reported too.",
  "",
  "  --reference LNG  the language the others are compared with (default: en, else the first)",
  "  --json           print the trees and problems as JSON",
  "  --help           print this help",
  "",
  "Exit code: 0 consistent, 1 problems found, 2 bad usage or unreadable path.",
];

/** Checks every `locales` tree under the given paths; returns what the CLI prints and exits with. */
export const runCheck = async (
  args: readonly string[],
  cwd = process.cwd(),
): Promise<RunResult> => {
  const paths: string[] = [];
  let reference: string | undefined;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--help" || arg === "-h")
      return { exitCode: 0, trees: [], problems: [], output: HELP };
    if (arg === "--json") json = true;
    else if (arg === "--reference") {
      reference = args[++i];
      if (!reference) return usage("--reference needs a language code");
    } else if (arg.startsWith("-")) return usage(`unknown option ${arg}`);
    else paths.push(resolve(cwd, arg));
  }
  if (paths.length === 0) return usage("give at least one folder to check");

  const trees: string[] = [];
  for (const path of paths) {
    try {
      trees.push(...(await findLocaleTrees(path)));
    } catch (error) {
      return { exitCode: 2, trees, problems: [], output: [`${path}: ${(error as Error).message}`] };
    }
  }
  const problems: Problem[] = [];
  for (const tree of trees) problems.push(...(await checkLocaleTree(tree, { reference })));

  const output = json
    ? [JSON.stringify({ trees, problems }, null, 2)]
    : [
        ...problems.map((p) => formatProblem(p, cwd)),
        trees.length === 0
          ? "no locales folders found"
          : `${problems.length} problem(s) in ${trees.length} locales folder(s)`,
      ];
  const exitCode = trees.length === 0 ? 2 : problems.length > 0 ? 1 : 0;
  return { exitCode, trees, problems, output };
};

const usage = (message: string): RunResult => ({
  exitCode: 2,
  trees: [],
  problems: [],
  output: [message, USAGE],
});

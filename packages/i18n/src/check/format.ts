import { relative } from "node:path";
import type { Problem } from "./check-tree.js";

const list = (names: string[]) => (names.length ? names.map((n) => `{{${n}}}`).join(", ") : "none");

/** One line per problem, with the file relative to `cwd`. */
export const formatProblem = (problem: Problem, cwd: string): string => {
  const file = relative(cwd, problem.file) || problem.file;
  switch (problem.kind) {
    case "missing-key":
      return `${file}: missing key "${problem.key}" (present in "${problem.reference}")`;
    case "extra-key":
      return `${file}: extra key "${problem.key}" (not in "${problem.reference}")`;
    case "placeholder-mismatch":
      return `${file}: "${problem.key}" uses placeholders ${list(problem.actual)}, "${problem.reference}" uses ${list(problem.expected)}`;
    case "missing-namespace":
      return `${file}: missing file; namespace "${problem.namespace}" exists in "${problem.reference}"`;
    case "invalid-file":
      return `${file}: ${problem.message}`;
  }
};

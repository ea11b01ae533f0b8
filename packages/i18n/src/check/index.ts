/** @orderline/i18n/check: the dictionary checker behind `npm run i18n:check`. */
export { type CheckOptions, checkLocaleTree, type Problem } from "./check-tree.js";
export { findLocaleTrees } from "./find-trees.js";
export { formatProblem } from "./format.js";
export { runCheck } from "./run.js";

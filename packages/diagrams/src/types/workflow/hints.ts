import type { SchemaHints } from "../../core/validate/schema-problems.js";
import { closest } from "../../core/validate/suggest.js";

/** The fields that hold a column index (schema `#/$defs/column`). */
const COLUMN_FIELD = /\/(col|fromCol|toCol)$/;

export const hints: SchemaHints = {
  /** A cards key that is not a valid id is probably a misspelt node id. */
  keySuggestion(name, root) {
    const nodes = (root as { nodes?: unknown }).nodes;
    if (!Array.isArray(nodes)) return undefined;
    const ids = nodes
      .map((n) => (n as { id?: unknown })?.id)
      .filter((id) => typeof id === "string");
    const match = closest(name, ids as string[]);
    return match === undefined ? undefined : `did you mean "${match}"?`;
  },
  limitReason(path, keyword) {
    if (!COLUMN_FIELD.test(path)) return undefined;
    return keyword === "maximum"
      ? "a workflow has at most 6 columns, numbered 0 to 5"
      : "columns are numbered from 0";
  },
};

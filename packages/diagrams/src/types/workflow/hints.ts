import type { SchemaHints } from "../../validate/schema-problems.js";
import { closest } from "../../validate/suggest.js";

/** A cards key that is not a valid id is probably a misspelt node id. */
export const hints: SchemaHints = {
  keySuggestion(name, root) {
    const nodes = (root as { nodes?: unknown }).nodes;
    if (!Array.isArray(nodes)) return undefined;
    const ids = nodes
      .map((n) => (n as { id?: unknown })?.id)
      .filter((id) => typeof id === "string");
    const match = closest(name, ids as string[]);
    return match === undefined ? undefined : `did you mean "${match}"?`;
  },
};

import { didYouMean } from "../core/validate/suggest.js";
import { isTypeName, TYPE_NAMES, type TypeName } from "../types/index.js";

/** The --type value checked: the registered type, or an error naming the known ones. */
export function parseType(value: string): TypeName | { error: string } {
  if (isTypeName(value)) return value;
  const hint = didYouMean(value, TYPE_NAMES);
  return {
    error: `unknown diagram type "${value}"; known types: ${TYPE_NAMES.join(", ")}${hint ? ` (${hint})` : ""}`,
  };
}

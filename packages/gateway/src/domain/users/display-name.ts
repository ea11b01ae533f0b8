import { INPUT_LIMITS } from "../../lib/input-limits.js";
import { ApiError } from "../../problems/api-error.js";

/**
 * Characters that change how the text around them is shown without being seen: bidirectional
 * embeddings, overrides and isolates, and the line and paragraph separators. In a name shown on
 * the Activity page they could make one person's name read as another's, or break a table row.
 * (Control characters, category Cc, are refused before any route sees them: http/text-boundary.)
 * Zero-width joiners stay: scripts and emoji need them.
 */
const INVISIBLE_LAYOUT = /[\u202a-\u202e\u2066-\u2069\u2028\u2029\u200e\u200f]/u;

const nameProblem = (pointer: string, message: string) =>
  new ApiError("validation_failed", `${pointer.slice(1)} ${message}.`, {
    errors: [{ pointer, message }],
  });

/**
 * A display name as the store keeps it: trimmed and NFC-normalised; an empty (or all-space)
 * name is none (null), so the person is shown by their email again. At most
 * INPUT_LIMITS.userName characters (code points, as people count them).
 */
export function displayName(input: string | null, pointer = "/name"): string | null {
  if (input === null) return null;
  const name = input.normalize("NFC").trim();
  if (name === "") return null;
  if ([...name].length > INPUT_LIMITS.userName)
    throw nameProblem(pointer, `must be at most ${INPUT_LIMITS.userName} characters`);
  const invisible = INVISIBLE_LAYOUT.exec(name);
  if (invisible)
    throw nameProblem(
      pointer,
      `holds the invisible layout character U+${(invisible[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}, which names may not hold`,
    );
  return name;
}

/** The JSON schema of a name in a request body: null or empty clears it. */
export const DISPLAY_NAME_SCHEMA = {
  type: ["string", "null"],
  // Room for spaces trimmed away; the character count is checked after trimming.
  maxLength: INPUT_LIMITS.userName + 50,
  description: `The person's display name, at most ${INPUT_LIMITS.userName} characters; null or empty removes it (they are shown by their email)`,
} as const;

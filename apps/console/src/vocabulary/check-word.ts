import { placeholdersOf } from "../lib/dictionary.js";

export type Translate = (key: string, options?: Record<string, unknown>) => string;

const MAX_LENGTH = 4000;

/**
 * What is wrong with a tenant's word before it is sent, or undefined: a placeholder the standard
 * text does not have (the screen would show it literally), one it left out, a text too long.
 * The gateway refuses unknown placeholders too; this says so at the field before the round trip.
 */
export const wordProblem = (word: string, standard: string, t: Translate): string | undefined => {
  if (word.length > MAX_LENGTH) return t("vocabulary:tooLong", { max: MAX_LENGTH });
  const allowed = placeholdersOf(standard);
  const unknown = placeholdersOf(word).find((p) => !allowed.includes(p));
  if (unknown) {
    return allowed.length > 0
      ? t("vocabulary:unknownPlaceholder", { placeholder: unknown, allowed: allowed.join(" ") })
      : t("vocabulary:noPlaceholders", { placeholder: unknown });
  }
  const missing = allowed.find((p) => !placeholdersOf(word).includes(p));
  if (missing) return t("vocabulary:missingPlaceholder", { placeholder: missing });
  return undefined;
};

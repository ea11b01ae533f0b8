/**
 * The first of the browser's preferred languages (navigator.languages, what it sends as
 * Accept-Language) that the console speaks: an exact tag first, then its primary language
 * (`de-DE` → `de`, `id-ID` → `id`). Null when none is spoken.
 */
export const browserLanguage = (
  preferred: readonly string[],
  spoken: readonly string[],
): string | null => {
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    const primary = lower.split("-")[0];
    const found =
      spoken.find((code) => code.toLowerCase() === lower) ??
      spoken.find((code) => code.toLowerCase() === primary);
    if (found) return found;
  }
  return null;
};

/**
 * Language tags: a user's profile language must be one of the supported BCP 47 tags
 * (GATEWAY_LANGUAGES); the tenant vocabulary answers in it unless `?language=` names another.
 */

/** The supported tag a requested one names (`en-us` → `en-US` when supported), or undefined. */
export function supportedLanguage(tag: string, supported: readonly string[]): string | undefined {
  let canonical: string;
  try {
    [canonical = ""] = Intl.getCanonicalLocales(tag);
  } catch {
    return undefined;
  }
  return supported.find((s) => s.toLowerCase() === canonical.toLowerCase());
}

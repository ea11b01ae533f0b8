import { stringCheck } from "./assert.js";

/** BCP 47-like codes: letters, digits and hyphens ("en", "de-AT", "zh-Hant-TW"). */
export const assertLanguageCode = stringCheck(
  /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/,
  (lng) => `${lng} is not a language code`,
);

/**
 * Picks the supported language a requested code stands for: the exact code (case-insensitive),
 * else its base language ("de-AT" → "de"). `undefined` when neither is supported.
 */
export const matchSupportedLanguage = (
  requested: unknown,
  supported: readonly string[],
): string | undefined => {
  if (typeof requested !== "string") return undefined;
  const wanted = requested.toLowerCase();
  const base = wanted.split("-")[0];
  const find = (code: string | undefined) => supported.find((lng) => lng.toLowerCase() === code);
  return find(wanted) ?? find(base);
};

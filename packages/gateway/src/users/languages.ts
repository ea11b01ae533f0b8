/**
 * Language tags: a user's profile language must be one of the supported BCP 47 tags
 * (GATEWAY_LANGUAGES); Accept-Language picks among them.
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

/**
 * The best supported language of an Accept-Language header (RFC 9110 §12.5.4, "lookup" as in
 * RFC 4647): ranges by descending q; each range matches a supported tag exactly, then by
 * truncation (`de-AT` → `de`), then a supported regional tag of the same language (`zh` →
 * `zh-CN`). `*`, `q=0` and unknown ranges select nothing: the caller falls back to the profile.
 */
export function negotiateLanguage(
  header: string | undefined,
  supported: readonly string[],
): string | undefined {
  if (header === undefined || header.length > 1024) return undefined;
  const ranges = header
    .split(",")
    .map((part, index) => {
      const [range = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find(Boolean);
      return { range: range.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.range !== "" && r.range !== "*" && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { range } of ranges) {
    const subtags = range.split("-");
    for (let n = subtags.length; n > 0; n--) {
      const found = supportedLanguage(subtags.slice(0, n).join("-"), supported);
      if (found) return found;
    }
    const primary = subtags[0]?.toLowerCase();
    const regional = supported.find((s) => s.toLowerCase().split("-")[0] === primary);
    if (regional) return regional;
  }
  return undefined;
}

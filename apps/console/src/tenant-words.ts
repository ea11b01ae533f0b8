import { applyTenantConfig, type CachedTenantWords, i18n } from "@orderline/i18n";
import { NAMESPACES, tenantWordsCache } from "./i18n.js";
import type { Api } from "./lib/api.js";

/** Applies the cached tenant words of a language at once: before the first paint on a reload. */
export const applyCachedTenantWords = (tenantId: string, language: string): void => {
  const cache = tenantWordsCache(tenantId);
  for (const namespace of NAMESPACES) {
    const cached = cache.read(language, namespace);
    // Each body is the whole namespace: replace, so words put back to standard go back too.
    if (cached) applyTenantConfig(cached.body, { replace: true });
  }
};

/**
 * Fetches the tenant's words of a language for every namespace, revalidating the cached ones
 * (If-None-Match), applies what changed and caches it. A failure keeps the words on screen:
 * the seed's example application logs it and goes on.
 */
export const refreshTenantWords = async (
  api: Api,
  tenantId: string,
  language: string,
): Promise<void> => {
  const cache = tenantWordsCache(tenantId);
  await Promise.all(
    NAMESPACES.map(async (namespace) => {
      const cached = cache.read(language, namespace);
      try {
        const response = await api.request<CachedTenantWords["body"]>(
          "GET",
          `/v1/tenant/i18n-config/${namespace}?language=${encodeURIComponent(language)}`,
          { headers: cached?.etag ? { "if-none-match": cached.etag } : {} },
        );
        if (response.status !== 200) return;
        applyTenantConfig(response.body, { replace: true });
        cache.write(language, namespace, {
          body: response.body,
          etag: response.headers.get("etag") ?? undefined,
        });
      } catch (error) {
        console.warn(`tenant words of ${namespace} unavailable; keeping the words shown`, error);
      }
    }),
  );
};

/** What changed in the tenant's vocabulary, as a `vocabulary.changed` event names it. */
export interface VocabularyChange {
  namespaces?: readonly string[];
  languages?: readonly string[];
}

/**
 * Fetches the tenant's current words again and puts them on screen without a reload, replacing
 * what the engine held (a word put back to standard goes back too). Called after an edit in this
 * tab and by the tenant event stream on `vocabulary.changed` from any tab or user. Only the
 * languages the engine holds words of matter; others are fetched when switched to.
 */
export const refreshVocabulary = async (
  api: Api,
  tenantId: string,
  change: VocabularyChange = {},
): Promise<void> => {
  const namespaces = (change.namespaces ?? NAMESPACES).filter((ns) => NAMESPACES.includes(ns));
  const languages = (change.languages ?? [i18n.language]).filter((lng) => lng === i18n.language);
  const cache = tenantWordsCache(tenantId);
  await Promise.all(
    languages.flatMap((language) =>
      namespaces.map(async (namespace) => {
        try {
          const response = await api.request<CachedTenantWords["body"]>(
            "GET",
            `/v1/tenant/i18n-config/${namespace}?language=${encodeURIComponent(language)}`,
          );
          applyTenantConfig(response.body, { replace: true });
          cache.write(language, namespace, {
            body: response.body,
            etag: response.headers.get("etag") ?? undefined,
          });
        } catch (error) {
          console.warn(`tenant words of ${namespace} unavailable; keeping the words shown`, error);
        }
      }),
    ),
  );
};

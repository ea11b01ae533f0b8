import { applyTenantConfig, type CachedTenantWords } from "@orderline/i18n";
import { NAMESPACES, tenantWordsCache } from "./i18n.js";
import type { Api } from "./lib/api.js";

/** Applies the cached tenant words of a language at once: before the first paint on a reload. */
export const applyCachedTenantWords = (tenantId: string, language: string): void => {
  const cache = tenantWordsCache(tenantId);
  for (const namespace of NAMESPACES) {
    const cached = cache.read(language, namespace);
    if (cached) applyTenantConfig(cached.body);
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
        applyTenantConfig(response.body);
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

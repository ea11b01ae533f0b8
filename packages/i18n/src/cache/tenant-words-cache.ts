import { isPlainObject } from "../lib/dictionary.js";
import { assertLanguageCode } from "../lib/language.js";
import { assertNamespace } from "../lib/namespace.js";
import type { TenantOverrides } from "../types.js";

/** The part of the Web Storage API the cache uses: `localStorage` and `sessionStorage` fit. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface TenantWordsCacheOptions {
  /** Where entries live, e.g. `window.localStorage`. */
  storage: KeyValueStorage;
  /** The signed-in user's tenant id: one tenant never reads another's cached words. */
  tenant: string;
  /**
   * Changes with the application's dictionaries (a build id): entries of another version are
   * never read, so words written for older keys do not paint. Default `"1"`.
   */
  version?: string;
  /** Storage that refuses a write (quota, private mode) or holds garbage. Default: ignored. */
  onError?: (message: string, cause?: unknown) => void;
}

/** One cached tenant endpoint body, with the ETag to send back as If-None-Match. */
export interface CachedTenantWords {
  body: { data: { namespace: string; language: string; overrides: TenantOverrides } };
  etag?: string;
}

export interface TenantWordsCache {
  /** The words last fetched for this language and namespace, or `undefined`. */
  read(language: string, namespace: string): CachedTenantWords | undefined;
  /** Keeps a fresh body of the tenant endpoint (and its ETag) for the next start. */
  write(language: string, namespace: string, entry: CachedTenantWords): void;
  /** Forgets one entry, e.g. after the server answered that the tenant has no such words. */
  remove(language: string, namespace: string): void;
}

const PREFIX = "orderline-i18n:tenant-words";

/** The storage key of one entry: tenant, application version, language and namespace. */
export const tenantWordsKey = (
  tenant: string,
  version: string,
  language: string,
  namespace: string,
): string =>
  `${PREFIX}:${encodeURIComponent(tenant)}:${encodeURIComponent(version)}:${language}:${namespace}`;

/**
 * A cache of the tenant's words in the application's storage, so that on a reload they paint
 * with the first frame instead of replacing the standard words once the network answers. The
 * engine keeps no storage of its own: the application passes it (inversion of control).
 * Entries that do not parse or have the wrong shape are removed and read as missing.
 */
export const createTenantWordsCache = (options: TenantWordsCacheOptions): TenantWordsCache => {
  const { storage, tenant, version = "1", onError = () => {} } = options;
  if (typeof tenant !== "string" || tenant === "") {
    throw new TypeError("createTenantWordsCache: tenant must be a non-empty string");
  }
  const keyOf = (language: string, namespace: string) =>
    tenantWordsKey(
      tenant,
      version,
      assertLanguageCode(language, "tenant words cache"),
      assertNamespace(namespace, "tenant words cache"),
    );
  return {
    read(language, namespace) {
      const key = keyOf(language, namespace);
      let raw: string | null;
      try {
        raw = storage.getItem(key);
      } catch (cause) {
        onError("could not read the cached tenant words", cause);
        return undefined;
      }
      if (raw === null) return undefined;
      try {
        const entry = JSON.parse(raw) as unknown;
        if (isCachedEntry(entry, language, namespace)) return entry;
      } catch {
        // Unparseable: handled below like a wrong shape.
      }
      onError(`dropped a damaged cache entry ${key}`);
      storage.removeItem(key);
      return undefined;
    },
    write(language, namespace, entry) {
      try {
        storage.setItem(keyOf(language, namespace), JSON.stringify(entry));
      } catch (cause) {
        // The words are on screen already; only the next start paints them later.
        onError("could not cache the tenant words", cause);
      }
    },
    remove(language, namespace) {
      try {
        storage.removeItem(keyOf(language, namespace));
      } catch (cause) {
        onError("could not remove cached tenant words", cause);
      }
    },
  };
};

const isCachedEntry = (
  entry: unknown,
  language: string,
  namespace: string,
): entry is CachedTenantWords => {
  if (!isPlainObject(entry) || !isPlainObject(entry.body)) return false;
  const data = entry.body.data;
  return (
    isPlainObject(data) &&
    data.namespace === namespace &&
    data.language === language &&
    isPlainObject(data.overrides) &&
    (entry.etag === undefined || typeof entry.etag === "string")
  );
};

/**
 * Everything the console keeps in the browser about a tenant: the tenant's words, cached per
 * tenant in localStorage by the engine's tenant-words cache (`orderline-i18n:tenant-words:…`),
 * and anything the console itself keys `orderline-console:tenant:…`. The language choice
 * (`orderline-console:language`) is the device's, not the tenant's, and stays.
 */
const TENANT_PREFIXES = ["orderline-i18n:tenant-words:", "orderline-console:tenant:"];

/** Removes every tenant-scoped entry, of any tenant (a shared computer may have held several). */
export const clearTenantStorage = (storage: Storage = localStorage): number => {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key && TENANT_PREFIXES.some((prefix) => key.startsWith(prefix))) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
  return keys.length;
};

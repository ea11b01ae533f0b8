import type { Dictionary } from "@orderline/i18n";
import type { Api } from "./api.js";

/** One change of one key in one language, as the history endpoint lists it (newest first). */
export interface WordChange {
  id: string;
  language: string;
  /** The tenant's word after the change; null: back to the standard text. */
  text: string | null;
  changed_at: string;
  /** Who changed it; null for the server's command line (imports). */
  changed_by: string | null;
  change: "set" | "reset" | "revert" | "replace";
}

/** One key's word after a change. */
export interface WordState {
  namespace: string;
  language: string;
  key: string;
  text: string | null;
  previous: string | null;
}

const keyPath = (namespace: string, key: string) =>
  `/v1/tenant/i18n-config/${encodeURIComponent(namespace)}/keys/${encodeURIComponent(key)}`;

/** The tenant's overrides of a namespace in a language. */
export const readOverrides = async (
  api: Api,
  namespace: string,
  language: string,
): Promise<Dictionary> =>
  (
    await api.request<{ data: { overrides: Dictionary } }>(
      "GET",
      `/v1/tenant/i18n-config/${namespace}?language=${encodeURIComponent(language)}`,
    )
  ).body.data.overrides;

/** Sets the tenant's word for one key in one language; `null` puts the standard text back. */
export const writeWord = async (
  api: Api,
  place: { namespace: string; key: string; language: string },
  text: string | null,
): Promise<WordState> => {
  const path = keyPath(place.namespace, place.key);
  const response =
    text === null
      ? await api.request<{ data: WordState }>(
          "DELETE",
          `${path}?language=${encodeURIComponent(place.language)}`,
        )
      : await api.request<{ data: WordState }>("PUT", path, {
          body: { language: place.language, text },
        });
  return response.body.data;
};

/** The key's changes in every language, newest first. */
export const wordHistory = async (
  api: Api,
  namespace: string,
  key: string,
): Promise<WordChange[]> =>
  (await api.request<{ data: WordChange[] }>("GET", `${keyPath(namespace, key)}/history`)).body
    .data;

/** Puts the word of a history entry back (in that entry's language). */
export const revertWord = async (
  api: Api,
  namespace: string,
  key: string,
  historyId: string,
): Promise<WordState> =>
  (
    await api.request<{ data: WordState }>("POST", `${keyPath(namespace, key)}/revert`, {
      body: { history_id: historyId },
    })
  ).body.data;

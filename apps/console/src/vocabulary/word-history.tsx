import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { useState } from "react";
import { languageName } from "../i18n.js";
import { formatDateTime } from "../lib/format.js";
import { problemText } from "../lib/problem-text.js";
import { useLoad } from "../lib/use-load.js";
import { revertWord, type WordChange, wordHistory } from "../lib/vocabulary-api.js";
import type { vocabularyModule } from "../modules.js";
import { useSession } from "../session.js";
import { refreshVocabulary } from "../tenant-words.js";
import type { WordPlace } from "./word-place.js";

/** A key's changes in every language, newest first, each with a button that puts it back. */
export const WordHistory = ({
  place,
  version,
  onReverted,
}: {
  place: WordPlace;
  /** Changes after each save, so the list loads again. */
  version: number;
  onReverted(): void;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  const { api, session } = useSession();
  const [load] = useLoad(() => wordHistory(api, place.namespace, place.key), [place, version]);
  const [failure, setFailure] = useState<string | null>(null);

  const revert = async (change: WordChange) => {
    setFailure(null);
    try {
      await revertWord(api, place.namespace, place.key, change.id);
      if (session) {
        await refreshVocabulary(api, session.tenantId, {
          namespaces: [place.namespace],
          languages: [change.language],
        });
      }
      onReverted();
    } catch (error) {
      setFailure(problemText(error, t));
    }
  };

  const changes = load.state === "done" ? load.value : [];
  // The newest change of each language is its current word: nothing to put back.
  const current = new Set(newestPerLanguage(changes));
  return (
    <section aria-labelledby={`history-${place.namespace}-${place.key}`} className="word-history">
      <h3 id={`history-${place.namespace}-${place.key}`}>{t("history.title")}</h3>
      {failure && (
        <p className="notice error" role="alert">
          {failure}
        </p>
      )}
      {load.state === "done" && changes.length === 0 && <p>{t("history.empty")}</p>}
      {changes.length > 0 && (
        <ol>
          {changes.map((change) => (
            <li key={change.id}>
              <span lang={change.language}>
                {change.text === null ? <em>{t("history.standard")}</em> : change.text}
              </span>
              <small className="hint">
                {t("history.entry", {
                  language: languageName(change.language),
                  when: formatDateTime(change.changed_at, i18n.language),
                  who: change.changed_by ?? t("history.cli"),
                })}
              </small>
              {!current.has(change.id) && (
                <button
                  type="button"
                  className="secondary"
                  aria-label={t("history.revertLabel", {
                    text: change.text ?? t("history.standard"),
                    language: languageName(change.language),
                  })}
                  onClick={() => void revert(change)}
                >
                  {t("history.revert")}
                </button>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
};

/** The id of the newest change of each language (the list is newest first). */
const newestPerLanguage = (changes: readonly WordChange[]): string[] => {
  const seen = new Map<string, string>();
  for (const change of changes)
    if (!seen.has(change.language)) seen.set(change.language, change.id);
  return [...seen.values()];
};

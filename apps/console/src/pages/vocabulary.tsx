import { applyTenantConfig, type Dictionary, i18n } from "@orderline/i18n";
import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Failure, PageTitle, ScrollRegion } from "../components.js";
import { DICTIONARIES, LANGUAGES, languageName, NAMESPACES, tenantWordsCache } from "../i18n.js";
import { ApiError } from "../lib/api.js";
import { fillSamples, flatten, placeholdersOf, unflatten } from "../lib/dictionary.js";
import { useLoad } from "../lib/use-load.js";
import { vocabularyModule } from "../modules.js";
import { useSession } from "../session.js";

const MAX_LENGTH = 4000;

interface Changes {
  added: string[];
  changed: string[];
  removed: string[];
}

type ConfigBody = {
  data: { namespace: string; language: string; overrides: Dictionary };
};

/** Problems found before sending: a placeholder left out, a text too long. Keyed by dotted key. */
const checkWords = (
  words: Record<string, string>,
  standard: Record<string, string>,
  t: (key: string, options?: Record<string, unknown>) => string,
): Record<string, string> => {
  const errors: Record<string, string> = {};
  for (const [key, word] of Object.entries(words)) {
    if (word === "") continue;
    if (word.length > MAX_LENGTH) errors[key] = t("tooLong", { max: MAX_LENGTH });
    const missing = placeholdersOf(standard[key] ?? "").find((p) => !word.includes(p));
    if (missing) errors[key] = t("missingPlaceholder", { placeholder: missing });
  }
  return errors;
};

/** What a save did, or that it was refused (no changes): the status line's text. */
const describe = (
  changes: Changes | undefined,
  t: (key: string, options?: Record<string, unknown>) => string,
): string => {
  if (!changes) return t("invalid");
  const { added, changed, removed } = changes;
  if (added.length + changed.length + removed.length === 0) return t("unchanged");
  return t("saved", { added: added.length, changed: changed.length, removed: removed.length });
};

/** Errors of a refused PUT (`errors[].pointer` like `/header/title`) at their fields. */
const fieldErrors = (error: ApiError): Record<string, string> => {
  const list = Array.isArray(error.body.errors) ? error.body.errors : [];
  const out: Record<string, string> = {};
  for (const item of list as { pointer?: string; message?: string }[]) {
    const key = (item.pointer ?? "")
      .replace(/^\/overrides/, "")
      .slice(1)
      .split("/")
      .join(".");
    if (key) out[key] = item.message ?? error.message;
  }
  return out;
};

/** The area and language whose words are edited. */
const ChoosePlace = ({
  namespace,
  language,
  choose,
}: {
  namespace: string;
  language: string;
  choose: (next: { namespace?: string; language?: string }) => void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  const ids = { namespace: useId(), language: useId() };
  return (
    <div className="filters">
      <label htmlFor={ids.namespace}>{t("namespace")}</label>
      <select
        id={ids.namespace}
        value={namespace}
        onChange={(e) => choose({ namespace: e.target.value })}
      >
        {NAMESPACES.map((ns) => (
          <option key={ns} value={ns}>
            {t(`areas.${ns}`, { defaultValue: ns })}
          </option>
        ))}
      </select>
      <label htmlFor={ids.language}>{t("language")}</label>
      <select
        id={ids.language}
        value={language}
        onChange={(e) => choose({ language: e.target.value })}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
};

/** One key: its standard text, the tenant's word (with placeholder hint and error), a preview. */
const WordRow = ({
  wordKey: key,
  text,
  word,
  error,
  language,
  onChange,
}: {
  wordKey: string;
  text: string;
  word: string;
  error: string | undefined;
  language: string;
  onChange: (word: string) => void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  const hint = placeholdersOf(text);
  return (
    <tr className={word ? "edited" : undefined}>
      <th scope="row">
        <code>{key}</code>
      </th>
      <td lang={language}>{text}</td>
      <td>
        <input
          id={`word-${key}`}
          lang={language}
          aria-label={t("fieldLabel", { key })}
          aria-invalid={error ? true : undefined}
          aria-describedby={
            [hint.length ? `hint-${key}` : "", error ? `error-${key}` : ""]
              .filter(Boolean)
              .join(" ") || undefined
          }
          placeholder={text}
          value={word}
          onChange={(e) => onChange(e.target.value)}
        />
        {hint.length > 0 && (
          <small id={`hint-${key}`} className="hint">
            {t("placeholders", { placeholders: hint.join(" ") })}
          </small>
        )}
        {error && (
          <small id={`error-${key}`} className="field-error">
            {error}
          </small>
        )}
      </td>
      <td lang={language} className="preview" data-testid={`preview-${key}`}>
        {fillSamples(word || text)}
      </td>
    </tr>
  );
};

/** What the last save did, kept as what happened so it follows a language change. */
const SaveStatus = ({ message }: { message: { changes?: Changes } | null }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  return (
    <div role="status" data-testid="vocabulary-status">
      {message && <p>{describe(message.changes, t)}</p>}
      {message?.changes && (
        <ul aria-label={t("changedKeys")}>
          {[...message.changes.added, ...message.changes.changed, ...message.changes.removed].map(
            (key) => (
              <li key={key}>
                <code>{key}</code>
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
};

const Editor = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  const { api, session } = useSession();
  const [namespace, setNamespace] = useState("orders");
  const [language, setLanguage] = useState(i18n.language);
  const [words, setWords] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Kept as what happened, not as text, so it follows a language change while shown.
  const [message, setMessage] = useState<{ changes?: Changes } | null>(null);
  const [saveError, setSaveError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const standard = flatten(DICTIONARIES[namespace]?.[language] ?? {});

  const [load, retry] = useLoad(
    () =>
      api
        .request<ConfigBody>(
          "GET",
          `/v1/tenant/i18n-config/${namespace}?language=${encodeURIComponent(language)}`,
        )
        .then((r) => r.body),
    [namespace, language],
  );
  useEffect(() => {
    if (load.state !== "done") return;
    setWords(flatten(load.value.data.overrides));
    setErrors({});
  }, [load]);

  const choose = (next: { namespace?: string; language?: string }) => {
    setMessage(null);
    setSaveError(null);
    if (next.namespace) setNamespace(next.namespace);
    if (next.language) setLanguage(next.language);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    setSaveError(null);
    const found = checkWords(words, standard, t);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setMessage({});
      document.getElementById(`word-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    const kept = Object.fromEntries(Object.entries(words).filter(([, word]) => word !== ""));
    setBusy(true);
    try {
      const { body } = await api.request<{ data: ConfigBody["data"] & { changes: Changes } }>(
        "PUT",
        `/v1/tenant/i18n-config/${namespace}`,
        { body: { language, overrides: unflatten(kept) } },
      );
      const { changes, ...data } = body.data;
      // Keys put back to standard get their standard text: the engine only ever merges.
      const restored = Object.fromEntries(changes.removed.map((key) => [key, standard[key] ?? ""]));
      applyTenantConfig({
        data: { ...data, overrides: unflatten({ ...restored, ...kept }) },
      });
      if (session)
        tenantWordsCache(session.tenantId).write(language, namespace, { body: { data } });
      setMessage({ changes });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const atFields = fieldErrors(error);
      setErrors(atFields);
      if (Object.keys(atFields).length > 0) setMessage({});
      else setSaveError(error);
    } finally {
      setBusy(false);
    }
  };

  const area = t(`areas.${namespace}`, { defaultValue: namespace });
  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{t("intro")}</p>
      <ChoosePlace namespace={namespace} language={language} choose={choose} />
      {load.state === "loading" && <p role="status">{t("common:status.loading")}</p>}
      {load.state === "failed" && <Failure error={load.error} retry={retry} />}
      {load.state === "done" && (
        <form onSubmit={save} noValidate>
          <ScrollRegion labelledBy="vocabulary-caption">
            <table className="vocabulary">
              <caption id="vocabulary-caption">
                {t("table.caption", { area, language: languageName(language) })}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t("table.key")}</th>
                  <th scope="col">{t("table.standard")}</th>
                  <th scope="col">{t("table.tenant")}</th>
                  <th scope="col">{t("table.preview")}</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(standard).map(([key, text]) => (
                  <WordRow
                    key={key}
                    wordKey={key}
                    text={text}
                    word={words[key] ?? ""}
                    error={errors[key]}
                    language={language}
                    onChange={(word) => setWords({ ...words, [key]: word })}
                  />
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <div className="actions">
            <button type="submit" disabled={busy}>
              {busy ? t("saving") : t("save")}
            </button>
          </div>
          <SaveStatus message={message} />
          {saveError && <Failure error={saveError} />}
        </form>
      )}
    </>
  );
};

export const VocabularyPage = () => {
  const { profile } = useSession();
  return (
    <EnterpriseModuleProvider module={vocabularyModule}>
      {profile?.role === "admin" ? <Editor /> : <AdminOnly />}
    </EnterpriseModuleProvider>
  );
};

const AdminOnly = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{t("adminOnly")}</p>
    </>
  );
};

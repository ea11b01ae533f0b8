import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Dialog } from "../dialog.js";
import { DICTIONARIES, LANGUAGES } from "../i18n.js";
import { ApiError } from "../lib/api.js";
import { flatten } from "../lib/dictionary.js";
import { problemText } from "../lib/problem-text.js";
import { readOverrides, writeWord } from "../lib/vocabulary-api.js";
import { vocabularyModule } from "../modules.js";
import { useSession } from "../session.js";
import { refreshVocabulary } from "../tenant-words.js";
import { wordProblem } from "./check-word.js";
import { WordHistory } from "./word-history.js";
import type { WordPlace } from "./word-place.js";

export type { WordPlace };

/** The standard text of a key in a language. */
const standardText = ({ namespace, key }: WordPlace, language: string): string =>
  flatten(DICTIONARIES[namespace]?.[language] ?? {})[key] ?? "";

const CODES = LANGUAGES.map((l) => l.code);

/** The tenant's current word of a key in each language ("" where it has none). */
const loadWords = async (
  api: ReturnType<typeof useSession>["api"],
  place: WordPlace,
): Promise<Record<string, string>> => {
  const trees = await Promise.all(CODES.map((lng) => readOverrides(api, place.namespace, lng)));
  return Object.fromEntries(CODES.map((lng, i) => [lng, flatten(trees[i] ?? {})[place.key] ?? ""]));
};

/** The field error of a refused write: the gateway's message for the text, else its detail. */
const refusal = (error: unknown, t: (key: string) => string): string => {
  if (error instanceof ApiError && Array.isArray(error.body.errors)) {
    const first = (error.body.errors as { message?: string }[])[0];
    if (first?.message) return first.message;
  }
  return problemText(error, t);
};

/**
 * Edits the tenant's word for one key in all three languages side by side, with the key's
 * history below. Used by the vocabulary page and by the in-context mode on any page.
 */
export const WordDialog = ({ place, onClose }: { place: WordPlace; onClose(): void }) => (
  <EnterpriseModuleProvider module={vocabularyModule}>
    <WordForm place={place} onClose={onClose} />
  </EnterpriseModuleProvider>
);

/**
 * Checks the changed languages' words at their fields, then writes each (an empty field puts the
 * standard text back) and re-applies the namespace on screen. Words the gateway refuses are
 * reported at their fields; the others are saved.
 */
const saveWords = async (
  input: {
    api: ReturnType<typeof useSession>["api"];
    tenantId: string;
    place: WordPlace;
    current: Record<string, string>;
    drafts: Record<string, string>;
    t: (key: string, options?: Record<string, unknown>) => string;
  },
  report: {
    refused(errors: Record<string, string>): void;
    busy(on: boolean): void;
    done(refused: boolean): void;
  },
) => {
  const { api, place, current, drafts, t } = input;
  const changed = CODES.filter((lng) => (drafts[lng] ?? "") !== (current[lng] ?? ""));
  const found: Record<string, string> = {};
  for (const lng of changed) {
    const word = drafts[lng] ?? "";
    const problem = word && wordProblem(word, standardText(place, lng), t);
    if (problem) found[lng] = problem;
  }
  report.refused(found);
  if (Object.keys(found).length > 0) return;
  report.busy(true);
  const refused: Record<string, string> = {};
  for (const lng of changed) {
    const word = drafts[lng] ?? "";
    await writeWord(api, { ...place, language: lng }, word === "" ? null : word).catch(
      (error: unknown) => {
        refused[lng] = refusal(error, t);
      },
    );
  }
  await refreshVocabulary(api, input.tenantId, {
    namespaces: [place.namespace],
    languages: changed,
  });
  report.busy(false);
  report.refused(refused);
  report.done(Object.keys(refused).length > 0);
};

/** The tenant's current words of a key (reloaded when `version` changes) and the drafts. */
const useWords = (place: WordPlace, version: number, t: (key: string) => string) => {
  const { api } = useSession();
  const [current, setCurrent] = useState<Record<string, string> | null>(null);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloaded after each save.
  useEffect(() => {
    let live = true;
    loadWords(api, place).then(
      (words) => {
        if (!live) return;
        setCurrent(words);
        setDrafts(words);
      },
      (error: unknown) => live && setFailure(problemText(error, t)),
    );
    return () => {
      live = false;
    };
  }, [api, place, version]);
  return { current, drafts, setDrafts, failure };
};

const WordForm = ({ place, onClose }: { place: WordPlace; onClose(): void }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  const { api, session } = useSession();
  const id = useId();
  const [saved, setSaved] = useState(0);
  const { current, drafts, setDrafts, failure } = useWords(place, saved, t);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const save = (event: FormEvent, close: () => void) => {
    event.preventDefault();
    if (!current || !session) return;
    void saveWords(
      { api, tenantId: session.tenantId, place, current, drafts, t },
      {
        refused: (found) => {
          setErrors(found);
          const first = Object.keys(found)[0];
          if (first) document.getElementById(`${id}-${first}`)?.focus();
        },
        busy: setBusy,
        done: (refused) => {
          if (refused) setSaved((n) => n + 1);
          else close();
        },
      },
    );
  };

  const text = i18n.language ? standardText(place, i18n.language) : place.key;
  return (
    <Dialog title={t("editor.title", { text: current?.[i18n.language] || text })} onClose={onClose}>
      {(close) => (
        <form className="stack word-form" noValidate onSubmit={(event) => save(event, close)}>
          <p className="hint">
            {t(`areas.${place.namespace}`, { defaultValue: place.namespace })} ·{" "}
            <code>{place.key}</code>
          </p>
          {failure && (
            <p className="notice error" role="alert">
              {failure}
            </p>
          )}
          {CODES.map((lng) => (
            <WordField
              key={lng}
              id={`${id}-${lng}`}
              language={lng}
              standard={standardText(place, lng)}
              value={drafts[lng] ?? ""}
              error={errors[lng]}
              disabled={!current}
              onChange={(word) => setDrafts({ ...drafts, [lng]: word })}
            />
          ))}
          <p className="buttons">
            <button type="submit" disabled={busy || !current}>
              {busy ? t("saving") : t("save")}
            </button>
            <button type="button" className="secondary" onClick={close}>
              {t("editor.cancel")}
            </button>
          </p>
          <WordHistory place={place} version={saved} onReverted={() => setSaved((n) => n + 1)} />
        </form>
      )}
    </Dialog>
  );
};

const WordField = ({
  id,
  language,
  standard,
  value,
  error,
  disabled,
  onChange,
}: {
  id: string;
  language: string;
  standard: string;
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange(word: string): void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  const name = LANGUAGES.find((l) => l.code === language)?.name ?? language;
  return (
    <div className="word-field">
      <label htmlFor={id}>{t("editor.fieldLabel", { language: name })}</label>
      <input
        id={id}
        lang={language}
        value={value}
        placeholder={standard}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-standard${error ? ` ${id}-error` : ""}`}
        onChange={(event) => onChange(event.target.value)}
      />
      <small id={`${id}-standard`} className="hint">
        {t("editor.standard")} <span lang={language}>{standard}</span>
      </small>
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
};

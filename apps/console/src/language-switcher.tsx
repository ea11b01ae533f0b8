import { changeLanguage, i18n } from "@orderline/i18n";
import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { useId, useState } from "react";
import { LANGUAGES, languageName } from "./i18n.js";
import { ApiError } from "./lib/api.js";
import type { shellModule } from "./modules.js";
import { useSession } from "./session.js";
import { applyCachedTenantWords, refreshTenantWords } from "./tenant-words.js";

/**
 * The UI switches at once; the profile PATCH runs in the change's callback, and if it fails the
 * engine puts the previous language back and the message says so.
 */
export const LanguageSwitcher = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const { api, session } = useSession();
  const id = useId();
  const [pending, setPending] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const choose = async (language: string) => {
    const previous = i18n.language;
    setFailure(null);
    setPending(language);
    if (session) applyCachedTenantWords(session.tenantId, language);
    try {
      // Signed out (the sign-in page), the choice is only stored in this browser.
      await changeLanguage(
        language,
        session
          ? async (lng) => {
              await api.request("PATCH", "/v1/user/profile", { body: { language: lng } });
            }
          : undefined,
      );
      if (session) await refreshTenantWords(api, session.tenantId, language);
    } catch (error) {
      setFailure(
        t("common:language.failed", {
          language: languageName(language),
          previous: languageName(previous),
          // The gateway's detail is in English; only a lost connection is worth saying here.
          reason:
            error instanceof ApiError && error.code === "network" ? t("common:errors.network") : "",
        }),
      );
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="language">
      <label htmlFor={id}>{t("common:language.label")}</label>
      <select
        id={id}
        value={i18n.language}
        disabled={pending !== null}
        onChange={(event) => void choose(event.target.value)}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </select>
      <span className="visually-hidden" role="status">
        {pending ? t("common:language.changing", { language: languageName(pending) }) : ""}
      </span>
      {failure && (
        <p className="notice error" role="alert" data-testid="language-failure">
          {failure}
          <button type="button" className="link" onClick={() => setFailure(null)}>
            {t("common:actions.dismiss")}
          </button>
        </p>
      )}
    </div>
  );
};

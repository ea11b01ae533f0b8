import { INPUT_LIMITS } from "@orderline/gateway/contract";
import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { LanguageSwitcher } from "../language-switcher.js";
import { ApiError } from "../lib/api.js";
import { fieldProblems, problemText } from "../lib/problem-text.js";
import { authModule } from "../modules.js";
import { useSession } from "../session.js";
import { firstOverLimit, TextField } from "../text-field.js";
import { ForgotPassword } from "./set-password.js";

const SignInForm = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof authModule>();
  const { signIn, ended } = useSession();
  const [error, setError] = useState<string | null>(
    ended ? t("common:errors.sessionExpired") : null,
  );
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Map<string, string>>(new Map());

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (firstOverLimit(event.currentTarget)) return;
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    setFieldErrors(new Map());
    try {
      await signIn(String(form.get("email")), String(form.get("password")));
    } catch (failure) {
      setBusy(false);
      if (!(failure instanceof ApiError)) throw failure;
      const fields = fieldProblems(failure, t);
      setFieldErrors(fields);
      if (failure.code === "invalid_credentials") setError(t("invalid"));
      else if (fields.size === 0) setError(problemText(failure, t));
      else setError(null);
      const first = fields.keys().next().value;
      if (first) document.getElementById(first)?.focus();
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1>{t("common:app.name")}</h1>
      <p className="tagline">{t("common:app.tagline")}</p>
      <form onSubmit={submit} aria-labelledby="sign-in-title" noValidate={false}>
        <h2 id="sign-in-title">{t("title")}</h2>
        <p>{t("intro")}</p>
        <TextField
          id="email"
          name="email"
          type="email"
          label={t("email")}
          limit={INPUT_LIMITS.email}
          autoComplete="username"
          required
          error={fieldErrors.get("email")}
        />
        <label htmlFor="password">{t("password")}</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={fieldErrors.has("password") ? true : undefined}
          aria-describedby={fieldErrors.has("password") ? "password-error" : undefined}
        />
        {fieldErrors.has("password") && (
          <small id="password-error" className="field-error">
            {fieldErrors.get("password")}
          </small>
        )}
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? t("submitting") : t("submit")}
        </button>
      </form>
      <ForgotPassword />
      <LanguageSwitcher />
    </main>
  );
};

export const SignInPage = () => (
  <EnterpriseModuleProvider module={authModule}>
    <SignInForm />
  </EnterpriseModuleProvider>
);

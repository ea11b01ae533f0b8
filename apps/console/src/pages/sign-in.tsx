import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { LanguageSwitcher } from "../language-switcher.js";
import { ApiError } from "../lib/api.js";
import { authModule } from "../modules.js";
import { useSession } from "../session.js";
import { ForgotPassword } from "./set-password.js";

const SignInForm = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof authModule>();
  const { signIn, ended } = useSession();
  const [error, setError] = useState<string | null>(
    ended ? t("common:errors.sessionExpired") : null,
  );
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await signIn(String(form.get("email")), String(form.get("password")));
    } catch (failure) {
      setBusy(false);
      if (!(failure instanceof ApiError)) throw failure;
      if (failure.code === "invalid_credentials") setError(t("invalid"));
      else if (failure.code === "login_throttled")
        setError(t("throttled", { seconds: Number(failure.body.retry_after ?? 0) }));
      else if (failure.code === "network") setError(t("common:errors.network"));
      else setError(t("common:errors.generic", { detail: failure.message }));
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1>{t("common:app.name")}</h1>
      <p className="tagline">{t("common:app.tagline")}</p>
      <form onSubmit={submit} aria-labelledby="sign-in-title" noValidate={false}>
        <h2 id="sign-in-title">{t("title")}</h2>
        <p>{t("intro")}</p>
        <label htmlFor="email">{t("email")}</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
        <label htmlFor="password">{t("password")}</label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
        />
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

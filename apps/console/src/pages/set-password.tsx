import { changeLanguage, i18n } from "@orderline/i18n";
import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useEffect, useState } from "react";
import { LANGUAGES } from "../i18n.js";
import { LanguageSwitcher } from "../language-switcher.js";
import { ApiError } from "../lib/api.js";
import { authModule } from "../modules.js";
import { href } from "../router.js";
import { useSession } from "../session.js";

const post = async <T,>(path: string, body: unknown): Promise<T | undefined> => {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }).catch((cause: unknown) => {
    throw new ApiError(0, "network", String(cause));
  });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  if (!response.ok)
    throw new ApiError(
      response.status,
      String(parsed?.code ?? "http_error"),
      String(parsed?.detail ?? ""),
    );
  return parsed as T | undefined;
};

/**
 * The page a set-password link opens (`#/set-password?token=…`): shows whose account it is,
 * takes the new password twice, uses the link once and signs the user in.
 */
const SetPasswordForm = ({ token }: { token: string }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof authModule>();
  const { signIn } = useSession();
  const [email, setEmail] = useState<string | null>(null);
  /** The message's key (`setPassword.*`, `common:errors.*`), worded in the language shown. */
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Read once per link. The message is kept as its key, so a language change (the link's own,
  // or the switcher's) words it anew without asking the gateway again: a spent link was posted
  // again on every change when the effect followed `t`.
  useEffect(() => {
    post<{ data: { email: string; language?: string } }>("/v1/auth/password-link", { token })
      .then(async (answer) => {
        // The language the inviter chose for them (the page's switcher is there to change it).
        const language = answer?.data.language;
        if (language && language !== i18n.language && LANGUAGES.some((l) => l.code === language))
          await changeLanguage(language);
        setEmail(answer?.data.email ?? null);
      })
      .catch((failure: unknown) =>
        setError(
          failure instanceof ApiError && failure.code === "network"
            ? "common:errors.network"
            : "setPassword.linkInvalid",
        ),
      );
  }, [token]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("new-password"));
    if (password !== String(form.get("repeat-password"))) {
      setError("setPassword.mismatch");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await post("/v1/auth/set-password", { token, password });
      await signIn(email ?? "", password);
      window.location.hash = href("overview");
    } catch (failure) {
      setBusy(false);
      if (failure instanceof ApiError && failure.code === "validation_failed")
        setError("setPassword.tooShort");
      else if (failure instanceof ApiError && failure.code === "password_link_invalid") {
        // Spent meanwhile: nothing more to send with it.
        setEmail(null);
        setError("setPassword.linkInvalid");
      } else setError("common:errors.network");
    }
  };

  return (
    <main id="main" className="sign-in">
      <h1>{t("common:app.name")}</h1>
      <form onSubmit={submit} aria-labelledby="set-password-title">
        <h2 id="set-password-title">{t("setPassword.title")}</h2>
        {email && <p>{t("setPassword.intro", { email })}</p>}
        <label htmlFor="new-password">{t("setPassword.password")}</label>
        <input
          id="new-password"
          name="new-password"
          type="password"
          autoComplete="new-password"
          minLength={12}
          aria-describedby="new-password-hint"
          required
        />
        <small id="new-password-hint" className="hint">
          {t("setPassword.hint")}
        </small>
        <label htmlFor="repeat-password">{t("setPassword.repeat")}</label>
        <input
          id="repeat-password"
          name="repeat-password"
          type="password"
          autoComplete="new-password"
          required
        />
        {error && (
          <p className="notice error" role="alert">
            {t(error)}
          </p>
        )}
        <button type="submit" disabled={busy || email === null}>
          {t("setPassword.submit")}
        </button>
        <p>
          <a href="#/">{t("setPassword.toSignIn")}</a>
        </p>
      </form>
      <LanguageSwitcher />
    </main>
  );
};

export const SetPasswordPage = ({ token }: { token: string }) => (
  <EnterpriseModuleProvider module={authModule}>
    <SetPasswordForm token={token} />
  </EnterpriseModuleProvider>
);

/** "Forgot password": asks the gateway, which mails a link or says to ask an admin. */
export const ForgotPassword = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof authModule>();
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("forgot-email"));
    try {
      const result = await post<{ data: { delivery: "mail" | "ask_admin" } }>(
        "/v1/auth/forgot-password",
        { email },
      );
      setAnswer(result?.data.delivery === "mail" ? t("forgot.mailed") : t("forgot.askAdmin"));
    } catch {
      setAnswer(t("common:errors.network"));
    }
  };
  if (!open)
    return (
      <p>
        <button type="button" className="link" onClick={() => setOpen(true)}>
          {t("forgot.open")}
        </button>
      </p>
    );
  return (
    <form onSubmit={submit} aria-labelledby="forgot-title">
      <h2 id="forgot-title">{t("forgot.title")}</h2>
      <label htmlFor="forgot-email">{t("email")}</label>
      <input id="forgot-email" name="forgot-email" type="email" autoComplete="username" required />
      <button type="submit">{t("forgot.submit")}</button>
      <p role="status">{answer}</p>
    </form>
  );
};

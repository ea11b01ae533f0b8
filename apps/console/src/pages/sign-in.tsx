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

/**
 * The second step of a sign-in with two-step sign-in on: the authenticator app's code (the
 * browser and password managers offer it: autocomplete="one-time-code"), or a recovery code.
 */
const SecondFactorForm = ({
  challenge,
  onRestart,
}: {
  challenge: string;
  /** The challenge is spent or expired: back to the password, with why. */
  onRestart(message: string | null): void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof authModule>();
  const { finishSignIn } = useSession();
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = recovery ? "recovery-code" : "one-time-code";

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get(field) ?? "").trim();
    setBusy(true);
    setError(null);
    try {
      await finishSignIn(challenge, recovery ? { recovery_code: value } : { code: value });
    } catch (failure) {
      setBusy(false);
      if (!(failure instanceof ApiError)) throw failure;
      if (failure.code === "second_factor_challenge_invalid") onRestart(problemText(failure, t));
      else setError(problemText(failure, t));
      document.getElementById(field)?.focus();
    }
  };

  return (
    <form onSubmit={submit} aria-labelledby="second-factor-title" data-testid="second-factor">
      <h2 id="second-factor-title">{t("secondFactor.title")}</h2>
      <p>{recovery ? t("secondFactor.recoveryIntro") : t("secondFactor.intro")}</p>
      <label htmlFor={field}>
        {recovery ? t("secondFactor.recoveryCode") : t("secondFactor.code")}
      </label>
      {recovery ? (
        <input
          key="recovery"
          id="recovery-code"
          name="recovery-code"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          minLength={10}
          maxLength={20}
          required
          // biome-ignore lint/a11y/noAutofocus: the one field of this step, reached by submitting the last
          autoFocus
        />
      ) : (
        <input
          key="code"
          id="one-time-code"
          name="one-time-code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9 ]{6,7}"
          maxLength={7}
          required
          // biome-ignore lint/a11y/noAutofocus: the one field of this step, reached by submitting the last
          autoFocus
        />
      )}
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? t("secondFactor.submitting") : t("secondFactor.submit")}
      </button>
      <p>
        <button
          type="button"
          className="link"
          onClick={() => {
            setRecovery((r) => !r);
            setError(null);
          }}
        >
          {recovery ? t("secondFactor.useCode") : t("secondFactor.useRecovery")}
        </button>
      </p>
      <p>
        <button type="button" className="link" onClick={() => onRestart(null)}>
          {t("secondFactor.back")}
        </button>
      </p>
    </form>
  );
};

const SignInForm = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof authModule>();
  const { signIn, ended } = useSession();
  const [challenge, setChallenge] = useState<string | null>(null);
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
      if (failure.code === "second_factor_required" && typeof failure.body.challenge === "string") {
        setChallenge(failure.body.challenge);
        return;
      }
      const fields = fieldProblems(failure, t);
      setFieldErrors(fields);
      if (failure.code === "invalid_credentials") setError(t("invalid"));
      else if (fields.size === 0) setError(problemText(failure, t));
      else setError(null);
      const first = fields.keys().next().value;
      if (first) document.getElementById(first)?.focus();
    }
  };

  if (challenge)
    return (
      <main id="main" className="sign-in">
        <h1>{t("common:app.name")}</h1>
        <p className="tagline">{t("common:app.tagline")}</p>
        <SecondFactorForm
          challenge={challenge}
          onRestart={(message) => {
            setChallenge(null);
            setError(message);
          }}
        />
        <LanguageSwitcher />
      </main>
    );

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

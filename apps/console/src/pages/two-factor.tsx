import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { Failure, PageTitle } from "../components.js";
import { ApiError } from "../lib/api.js";
import { formatNumber } from "../lib/format.js";
import { problemText } from "../lib/problem-text.js";
import { authModule } from "../modules.js";
import { useSession } from "../session.js";

interface Status {
  enabled: boolean;
  required: boolean;
  recovery_codes_left: number;
}

interface Enrolment {
  secret: string;
  otpauth_uri: string;
}

/**
 * The QR code of the otpauth:// URI, drawn as SVG squares. `uqr` loads only here (a chunk of
 * its own), so no other page, nor the first load, carries it.
 */
const QrCode = ({ text, label }: { text: string; label: string }) => {
  const [modules, setModules] = useState<boolean[][] | null>(null);
  useEffect(() => {
    let cancelled = false;
    void import("uqr").then(({ encode }) => {
      if (!cancelled) setModules(encode(text, { border: 2 }).data);
    });
    return () => {
      cancelled = true;
    };
  }, [text]);
  if (!modules) return <div className="qr-code" aria-busy="true" />;
  const size = modules.length;
  const path = modules
    .flatMap((row, y) => row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : "")))
    .join("");
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      data-testid="totp-qr"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
};

/** The recovery codes, shown once: copy, download, then "I have stored my codes". */
const RecoveryCodes = ({ codes, onDone }: { codes: string[]; onDone(): void }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof authModule>();
  const [copied, setCopied] = useState<string | null>(null);
  const text = `${codes.join("\n")}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(t("twoFactor.copied"));
    } catch {
      setCopied(t("twoFactor.copyFailed"));
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "orderline-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section className="secret-once" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title">{t("twoFactor.codesTitle")}</h2>
      <p className="notice info">{t("twoFactor.codesIntro")}</p>
      <ul className="recovery-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p className="buttons">
        <button type="button" className="secondary" onClick={() => void copy()}>
          {t("twoFactor.copy")}
        </button>
        <button type="button" className="secondary" onClick={download}>
          {t("twoFactor.download")}
        </button>
        <button type="button" onClick={onDone}>
          {t("twoFactor.codesDone")}
        </button>
      </p>
      {copied && <p role="status">{copied}</p>}
    </section>
  );
};

/** One code field with its button and its refusal, for setting up and for turning off. */
const CodeForm = ({
  id,
  label,
  submit,
  busyText,
  onCode,
  numeric,
}: {
  id: string;
  label: string;
  submit: string;
  busyText: string;
  onCode(code: string): Promise<void>;
  numeric: boolean;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof authModule>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get(id) ?? "").trim();
    setBusy(true);
    setError(null);
    try {
      await onCode(code);
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      setError(problemText(failure, t));
      document.getElementById(id)?.focus();
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={send} className="code-form stack">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={id}
        className="code-input"
        autoComplete="one-time-code"
        inputMode={numeric ? "numeric" : "text"}
        maxLength={20}
        required
        aria-invalid={error ? true : undefined}
      />
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? busyText : submit}
      </button>
    </form>
  );
};

const TwoFactorSettings = () => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof authModule>();
  const { api, mustEnrol, enrolled } = useSession();
  const [status, setStatus] = useState<Status | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [starting, setStarting] = useState(false);

  const load = useCallback(async () => {
    try {
      setStatus((await api.request<{ data: Status }>("GET", "/v1/user/two-factor")).body.data);
    } catch (error) {
      if (error instanceof ApiError) setFailure(error);
      else throw error;
    }
  }, [api]);
  useEffect(() => void load(), [load]);

  const start = async () => {
    setStarting(true);
    setFailure(null);
    try {
      const { body } = await api.request<{ data: Enrolment }>(
        "POST",
        "/v1/user/two-factor/enrolment",
      );
      setEnrolment(body.data);
    } catch (error) {
      if (error instanceof ApiError) setFailure(error);
      else throw error;
    } finally {
      setStarting(false);
    }
  };

  const confirm = async (code: string) => {
    const { body } = await api.request<{ data: { recovery_codes: string[] } }>(
      "POST",
      "/v1/user/two-factor/enrolment/confirm",
      { body: { code } },
    );
    setEnrolment(null);
    setCodes(body.data.recovery_codes);
  };

  const disable = async (typed: string) => {
    const proof = /^[0-9 ]+$/.test(typed) ? { code: typed } : { recovery_code: typed };
    await api.request("DELETE", "/v1/user/two-factor", { body: proof });
    await load();
  };

  const codesStored = () => {
    setCodes(null);
    if (mustEnrol) enrolled();
    void load();
  };

  return (
    <>
      <PageTitle>{t("twoFactor.title")}</PageTitle>
      {status?.required && !status.enabled && (
        <p className="notice info" role="status">
          {t("twoFactor.required")}
        </p>
      )}
      <p>{t("twoFactor.intro")}</p>
      {failure && <Failure error={failure} />}
      {codes ? (
        <RecoveryCodes codes={codes} onDone={codesStored} />
      ) : enrolment ? (
        <section aria-labelledby="enrol-title" data-testid="enrolment">
          <h2 id="enrol-title">{t("twoFactor.start")}</h2>
          <p>{t("twoFactor.scan")}</p>
          <QrCode text={enrolment.otpauth_uri} label={t("twoFactor.qrLabel")} />
          <p>{t("twoFactor.typeSecret")}</p>
          <dl className="facts">
            <dt>{t("twoFactor.secretLabel")}</dt>
            <dd>
              <code data-testid="totp-secret">
                {enrolment.secret.replace(/(.{4})/g, "$1 ").trim()}
              </code>
            </dd>
          </dl>
          <p>{t("twoFactor.confirmIntro")}</p>
          <CodeForm
            id="enrol-code"
            label={t("twoFactor.code")}
            submit={t("twoFactor.confirm")}
            busyText={t("twoFactor.confirming")}
            onCode={confirm}
            numeric
          />
        </section>
      ) : status?.enabled ? (
        <section aria-labelledby="disable-title">
          <p className="notice info" data-testid="two-factor-on">
            {t("twoFactor.on")}{" "}
            {t("twoFactor.recoveryLeft", {
              count: status.recovery_codes_left,
              number: formatNumber(status.recovery_codes_left, i18n.language),
            })}
          </p>
          <h2 id="disable-title">{t("twoFactor.disableTitle")}</h2>
          <p>{t("twoFactor.disableIntro")}</p>
          <CodeForm
            id="disable-code"
            label={t("twoFactor.disableCode")}
            submit={t("twoFactor.disable")}
            busyText={t("twoFactor.disabling")}
            onCode={disable}
            numeric={false}
          />
        </section>
      ) : status ? (
        <section>
          <p data-testid="two-factor-off">{t("twoFactor.off")}</p>
          <button type="button" onClick={() => void start()} disabled={starting}>
            {starting ? t("twoFactor.starting") : t("twoFactor.start")}
          </button>
        </section>
      ) : null}
    </>
  );
};

/** #/two-factor: the signed-in user's two-step sign-in (also the page a due set-up shows). */
export const TwoFactorPage = () => (
  <EnterpriseModuleProvider module={authModule}>
    <TwoFactorSettings />
  </EnterpriseModuleProvider>
);

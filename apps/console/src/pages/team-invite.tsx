import { INPUT_LIMITS } from "@orderline/gateway/contract";
import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { LANGUAGES } from "../i18n.js";
import { formatDateTime } from "../lib/format.js";
import type { teamModule } from "../modules.js";
import { SecretOnce } from "../secret-once.js";
import { useSession } from "../session.js";
import { firstOverLimit, TextField } from "../text-field.js";
import { type IssuedLink, type Member, teamProblem } from "./team-types.js";

/** The console's own address plus the link's route: what the admin hands over. */
const linkUrl = (path: string) => `${window.location.origin}${window.location.pathname}${path}`;

/** A link that went to the user's mailbox only (or failed to): what the admin is told. */
const LinkMailed = ({
  email,
  link,
  onDone,
}: {
  email: string;
  link: IssuedLink;
  onDone(): void;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  return (
    <div className={link.mailed ? "notice" : "notice error"} role="status">
      <p>
        {link.mailed ? t("link.mailedOnly", { email }) : t("link.mailFailed", { email })}{" "}
        {link.mailed && t("link.expires", { at: formatDateTime(link.expires_at, i18n.language) })}
      </p>
      <button type="button" onClick={onDone}>
        {t("link.done")}
      </button>
    </div>
  );
};

/** A set-password link, shown this once with a copy button (without mail), else LinkMailed. */
export const LinkOnce = ({
  email,
  link,
  onDone,
}: {
  email: string;
  link: IssuedLink;
  onDone(): void;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  if (link.path === undefined) return <LinkMailed email={email} link={link} onDone={onDone} />;
  const url = linkUrl(link.path);
  return (
    <SecretOnce
      title={t("link.title", { email })}
      facts={[{ label: t("link.url"), value: url, testId: "password-link" }]}
      secret={url}
      texts={{
        once: t("link.once"),
        copy: t("link.copy"),
        copied: t("link.copied"),
        done: t("link.done"),
      }}
      note={
        <p className="hint">
          {t("link.expires", { at: formatDateTime(link.expires_at, i18n.language) })}{" "}
          {link.mailed ? t("link.mailed") : t("link.notMailed")}
        </p>
      }
      onDone={onDone}
    />
  );
};

/** The invite form: email, an optional name, role and the language of their link. */
export const InviteForm = ({
  onInvited,
}: {
  onInvited(member: Member, link: IssuedLink): void;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const { api } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    if (firstOverLimit(formElement)) return;
    const form = new FormData(formElement);
    setBusy(true);
    setError(null);
    try {
      const { body } = await api.request<{ data: { member: Member; link: IssuedLink } }>(
        "POST",
        "/v1/tenant/users",
        {
          body: {
            email: String(form.get("email")),
            name: String(form.get("name")),
            role: String(form.get("role")),
            language: String(form.get("language")),
          },
        },
      );
      formElement.reset();
      onInvited(body.data.member, body.data.link);
    } catch (failure) {
      setError(teamProblem(failure, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="invite-title" className="partner">
      <h2 id="invite-title">{t("invite.title")}</h2>
      <form onSubmit={submit} className="invite-form">
        <div className="stack">
          <label htmlFor="invite-email">{t("invite.email")}</label>
          <input id="invite-email" name="email" type="email" autoComplete="off" required />
        </div>
        <div className="stack">
          <TextField
            id="invite-name"
            name="name"
            label={t("invite.name")}
            limit={INPUT_LIMITS.userName}
            autoComplete="off"
          />
        </div>
        <div className="stack">
          <label htmlFor="invite-role">{t("invite.role")}</label>
          <select id="invite-role" name="role" defaultValue="member">
            <option value="member">{t("role.member")}</option>
            <option value="admin">{t("role.admin")}</option>
          </select>
        </div>
        <div className="stack">
          <label htmlFor="invite-language">{t("invite.language")}</label>
          <select id="invite-language" name="language" defaultValue={i18n.language}>
            {LANGUAGES.map((language) => (
              <option key={language.code} value={language.code} lang={language.code}>
                {language.name}
              </option>
            ))}
          </select>
        </div>
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        <p className="buttons">
          <button type="submit" disabled={busy}>
            {t("invite.submit")}
          </button>
        </p>
      </form>
    </section>
  );
};

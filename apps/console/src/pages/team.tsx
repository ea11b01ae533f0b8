import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { ActionButton } from "../action-button.js";
import { Failure, PageTitle } from "../components.js";
import { ApiError } from "../lib/api.js";
import { formatDateTime } from "../lib/format.js";
import { problemText, type Translate } from "../lib/problem-text.js";
import { latest, useLoad } from "../lib/use-load.js";
import { teamModule } from "../modules.js";
import { SecretOnce } from "../secret-once.js";
import { useSession } from "../session.js";

interface Member {
  id: string;
  email: string;
  role: "admin" | "member";
  language: string;
  status: "invited" | "active" | "disabled";
  created_at: string;
  last_sign_in_at: string | null;
}

interface IssuedLink {
  token: string;
  path: string;
  expires_at: string;
  mailed: boolean;
}

/** The refusals an admin can meet here, in their language; others as the gateway says them. */
const KNOWN = ["last_admin", "user_exists", "validation_failed", "user_not_found"];
const teamProblem = (failure: unknown, t: Translate): string =>
  failure instanceof ApiError && KNOWN.includes(failure.code)
    ? t(`errors.${failure.code}`)
    : problemText(failure, t);

/** The console's own address plus the link's route: what the admin hands over. */
const linkUrl = (path: string) => `${window.location.origin}${window.location.pathname}${path}`;

/** A set-password link, shown this once with a copy button. */
const LinkOnce = ({ email, link, onDone }: { email: string; link: IssuedLink; onDone(): void }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof teamModule>();
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

/** One member: facts for everyone, the admin's actions for admins. */
const MemberCard = ({
  member,
  self,
  canManage,
  onChange,
  onLink,
}: {
  member: Member;
  self: boolean;
  canManage: boolean;
  onChange(body: { role?: Member["role"]; disabled?: boolean }): void;
  onLink(): void;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const nameId = `member-${member.id}`;
  return (
    <article className="partner" aria-labelledby={nameId} data-testid="member">
      <h2 id={nameId}>
        {member.email}
        {self && ` ${t("you")}`}
      </h2>
      <dl className="facts">
        <dt>{t("role.label")}</dt>
        <dd>{t(`role.${member.role}`)}</dd>
        <dt>{t("status.label")}</dt>
        <dd className={`status-${member.status}`}>{t(`status.${member.status}`)}</dd>
        <dt>{t("lastSignIn")}</dt>
        <dd>
          {member.last_sign_in_at
            ? formatDateTime(member.last_sign_in_at, i18n.language)
            : t("never")}
        </dd>
      </dl>
      {canManage && (
        <p className="buttons">
          <ActionButton
            onRun={() => onChange({ role: member.role === "admin" ? "member" : "admin" })}
          >
            {member.role === "admin" ? t("actions.makeMember") : t("actions.makeAdmin")}
          </ActionButton>
          {member.status === "disabled" ? (
            <ActionButton onRun={() => onChange({ disabled: false })}>
              {t("actions.enable")}
            </ActionButton>
          ) : (
            <ActionButton
              danger
              confirm={t("actions.disableConfirm", { email: member.email })}
              onRun={() => onChange({ disabled: true })}
            >
              {t("actions.disable")}
            </ActionButton>
          )}
          <ActionButton onRun={onLink}>{t("actions.reset")}</ActionButton>
        </p>
      )}
    </article>
  );
};

/** The invite form: email and role. */
const InviteForm = ({ onInvited }: { onInvited(email: string, link: IssuedLink): void }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const { api } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    setError(null);
    try {
      const { body } = await api.request<{ data: { member: Member; link: IssuedLink } }>(
        "POST",
        "/v1/tenant/users",
        { body: { email: String(form.get("email")), role: String(form.get("role")) } },
      );
      formElement.reset();
      onInvited(body.data.member.email, body.data.link);
    } catch (failure) {
      setError(teamProblem(failure, t));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="invite-title" className="partner">
      <h2 id="invite-title">{t("invite.title")}</h2>
      <form onSubmit={submit} className="stack">
        <label htmlFor="invite-email">{t("invite.email")}</label>
        <input id="invite-email" name="email" type="email" autoComplete="off" required />
        <label htmlFor="invite-role">{t("invite.role")}</label>
        <select id="invite-role" name="role" defaultValue="member">
          <option value="member">{t("role.member")}</option>
          <option value="admin">{t("role.admin")}</option>
        </select>
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

const Team = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const { api, profile } = useSession();
  const [load, retry] = useLoad(
    () => api.request<{ data: Member[] }>("GET", "/v1/tenant/users").then((r) => r.body.data),
    [api],
  );
  const [shown, setShown] = useState<{ email: string; link: IssuedLink } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const isAdmin = profile?.role === "admin";
  const members = latest(load);

  const change = async (member: Member, body: { role?: Member["role"]; disabled?: boolean }) => {
    setError(null);
    try {
      await api.request("PATCH", `/v1/tenant/users/${encodeURIComponent(member.id)}`, { body });
      retry();
    } catch (failure) {
      setError(teamProblem(failure, t));
    }
  };
  const reset = async (member: Member) => {
    setError(null);
    try {
      const { body } = await api.request<{ data: IssuedLink }>(
        "POST",
        `/v1/tenant/users/${encodeURIComponent(member.id)}/password-link`,
      );
      setShown({ email: member.email, link: body.data });
    } catch (failure) {
      setError(teamProblem(failure, t));
    }
  };

  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{isAdmin ? t("intro.admin") : t("intro.member")}</p>
      {shown && <LinkOnce email={shown.email} link={shown.link} onDone={() => setShown(null)} />}
      {isAdmin && !shown && (
        <InviteForm
          onInvited={(email, link) => {
            setShown({ email, link });
            retry();
          }}
        />
      )}
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {load.state === "failed" && <Failure error={load.error} retry={retry} />}
      {members === undefined && load.state === "loading" && (
        <p role="status">{t("common:status.loading")}</p>
      )}
      {members?.map((member) => (
        <MemberCard
          key={member.id}
          member={member}
          self={member.id === profile?.id}
          canManage={isAdmin}
          onChange={(body) => void change(member, body)}
          onLink={() => void reset(member)}
        />
      ))}
    </>
  );
};

export const TeamPage = () => (
  <EnterpriseModuleProvider module={teamModule}>
    <Team />
  </EnterpriseModuleProvider>
);

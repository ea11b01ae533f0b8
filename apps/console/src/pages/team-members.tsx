import { INPUT_LIMITS } from "@orderline/gateway/contract";
import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { ActionButton } from "../action-button.js";
import { Dialog } from "../dialog.js";
import { formatDateTime } from "../lib/format.js";
import { personName } from "../lib/person.js";
import type { teamModule } from "../modules.js";
import { firstOverLimit, TextField } from "../text-field.js";
import { MemberSessions } from "./member-sessions.js";
import type { Member, MemberChange } from "./team-types.js";

/** What a row can do; absent for whoever may not (a member sees the team read-only). */
export interface MemberActions {
  change(member: Member, body: MemberChange): void;
  link(member: Member): void;
}

/**
 * Renames a person: an admin anyone, a member only themself. `save` answers an error's text
 * (the dialog stays open with it) or null when the name is saved (the dialog closes).
 */
const RenameDialog = ({
  member,
  self,
  onClose,
  save,
}: {
  member: Member;
  self: boolean;
  onClose(): void;
  save(name: string): Promise<string | null>;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [draft, setDraft] = useState(member.name ?? "");
  const title = self ? t("rename.titleSelf") : t("rename.title", { name: personName(member) });
  return (
    <Dialog title={title} onClose={onClose}>
      {(close) => {
        const submit = async (event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          if (firstOverLimit(event.currentTarget)) return;
          setBusy(true);
          const refused = await save(draft);
          setBusy(false);
          if (refused === null) close();
          else setError(refused);
        };
        return (
          <form className="stack" onSubmit={submit}>
            <TextField
              id={`rename-${member.id}`}
              name="name"
              label={t("rename.label")}
              hint={t("rename.hint")}
              limit={INPUT_LIMITS.userName}
              error={error}
              autoComplete="off"
              value={draft}
              onValue={setDraft}
            />
            <p className="buttons">
              <button type="button" className="secondary" onClick={close}>
                {t("common:confirm.keep")}
              </button>
              <button type="submit" disabled={busy}>
                {t("rename.save")}
              </button>
            </p>
          </form>
        );
      }}
    </Dialog>
  );
};

/** The admin's buttons for one member: each change that matters asks first, naming them. */
const AdminButtons = ({
  member,
  actions,
  onRename,
  sessionsOpen,
  onSessions,
}: {
  member: Member;
  actions: MemberActions;
  onRename(): void;
  sessionsOpen: boolean;
  onSessions(): void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const name = personName(member);
  const toRole = member.role === "admin" ? "member" : "admin";
  return (
    <span className="buttons member-actions">
      <ActionButton
        confirm={t(toRole === "admin" ? "actions.makeAdminConfirm" : "actions.makeMemberConfirm", {
          name,
        })}
        onRun={() => actions.change(member, { role: toRole })}
      >
        {toRole === "admin" ? t("actions.makeAdmin") : t("actions.makeMember")}
      </ActionButton>
      {member.status === "disabled" ? (
        <ActionButton onRun={() => actions.change(member, { disabled: false })}>
          {t("actions.enable")}
        </ActionButton>
      ) : (
        <ActionButton
          danger
          confirm={t("actions.disableConfirm", { name, email: member.email })}
          onRun={() => actions.change(member, { disabled: true })}
        >
          {t("actions.disable")}
        </ActionButton>
      )}
      <ActionButton onRun={onRename}>{t("actions.rename")}</ActionButton>
      <ActionButton onRun={() => actions.link(member)}>{t("actions.reset")}</ActionButton>
      {member.status === "active" && (
        <button
          type="button"
          className="secondary"
          aria-expanded={sessionsOpen}
          onClick={onSessions}
        >
          {t("actions.sessions")}
        </button>
      )}
    </span>
  );
};

/**
 * One member: a row of the table at desk widths, a card on a phone (each cell under its
 * column's name). Its own tbody, so the sessions panel opens right under it.
 */
export const MemberRow = ({
  member,
  self,
  actions,
  rename,
}: {
  member: Member;
  self: boolean;
  /** The admin's actions; undefined for a member. */
  actions: MemberActions | undefined;
  /** Saves a new name (answers an error's text, or null); undefined when they may not. */
  rename: ((member: Member, name: string) => Promise<string | null>) | undefined;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const [renaming, setRenaming] = useState(false);
  const [sessionsOpen, setSessionsOpen] = useState(false);
  const nameId = `member-${member.id}`;
  const name = personName(member);
  return (
    <tbody data-testid="member" aria-labelledby={nameId}>
      <tr>
        <th scope="row" data-label={t("columns.name")} className="person">
          <span id={nameId} className="person-name">
            {member.name ?? <span className="hint">{t("noName")}</span>}
          </span>
          {self && ` ${t("you")}`}
        </th>
        <td data-label={t("columns.email")} className="person-email">
          {member.email}
        </td>
        <td data-label={t("role.label")}>{t(`role.${member.role}`)}</td>
        <td data-label={t("status.label")} className={`status-${member.status}`}>
          {t(`status.${member.status}`)}
        </td>
        <td data-label={t("lastSignIn")}>
          {member.last_sign_in_at
            ? formatDateTime(member.last_sign_in_at, i18n.language)
            : t("never")}
        </td>
        <td className="member-actions-cell">
          {actions && (
            <AdminButtons
              member={member}
              actions={actions}
              onRename={() => setRenaming(true)}
              sessionsOpen={sessionsOpen}
              onSessions={() => setSessionsOpen((open) => !open)}
            />
          )}
          {!actions && self && rename && (
            <ActionButton onRun={() => setRenaming(true)}>{t("actions.rename")}</ActionButton>
          )}
          {renaming && rename && (
            <RenameDialog
              member={member}
              self={self}
              onClose={() => setRenaming(false)}
              save={(next) => rename(member, next)}
            />
          )}
        </td>
      </tr>
      {sessionsOpen && (
        <tr className="member-sessions-row">
          <td colSpan={6}>
            <h3>{t("sessions.of", { name })}</h3>
            <MemberSessions userId={member.id} name={name} />
          </td>
        </tr>
      )}
    </tbody>
  );
};

import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { useState } from "react";
import { ActionButton } from "../action-button.js";
import { formatDateTime } from "../lib/format.js";
import { problemText } from "../lib/problem-text.js";
import { latest, useLoad } from "../lib/use-load.js";
import type { teamModule } from "../modules.js";
import { useSession } from "../session.js";

interface ConsoleSession {
  id: string;
  created_at: string;
  last_seen_at: string;
  user_agent: string;
  source_address: string;
}

/**
 * A member's open console sessions, for admins: where and when each signed in, and buttons to
 * end one or all (the gateway ends them on every instance at once). Loaded when opened; `name`
 * is what the console calls the person (display name, else email).
 */
export const MemberSessions = ({ userId, name }: { userId: string; name: string }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const { api } = useSession();
  const path = `/v1/tenant/users/${encodeURIComponent(userId)}/sessions`;
  const [load, retry] = useLoad(
    () => api.request<{ data: ConsoleSession[] }>("GET", path).then((r) => r.body.data),
    [api, path],
  );
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const sessions = latest(load);
  const end = async (target: string, count: number) => {
    setNotice(null);
    try {
      await api.request("DELETE", target);
      setNotice({ text: t("sessions.ended", { count }), error: false });
      retry();
    } catch (failure) {
      setNotice({ text: problemText(failure, t), error: true });
    }
  };
  const at = (iso: string) => formatDateTime(iso, i18n.language);
  return (
    <div className="stack" data-testid="member-sessions">
      {notice && (
        <p className={notice.error ? "notice error" : "notice"} role="status">
          {notice.text}
        </p>
      )}
      {sessions?.length === 0 && <p>{t("sessions.none")}</p>}
      {sessions && sessions.length > 0 && (
        <ul className="sessions">
          {sessions.map((session) => (
            <li key={session.id}>
              <span>
                {t("sessions.line", {
                  started: at(session.created_at),
                  seen: at(session.last_seen_at),
                  address: session.source_address,
                })}
              </span>{" "}
              <span className="hint">{session.user_agent}</span>{" "}
              <ActionButton onRun={() => void end(`${path}/${encodeURIComponent(session.id)}`, 1)}>
                {t("sessions.end")}
              </ActionButton>
            </li>
          ))}
        </ul>
      )}
      {sessions && sessions.length > 1 && (
        <p className="buttons">
          <ActionButton
            danger
            confirm={t("sessions.endAllConfirm", { name })}
            onRun={() => void end(path, sessions.length)}
          >
            {t("sessions.endAll")}
          </ActionButton>
        </p>
      )}
    </div>
  );
};

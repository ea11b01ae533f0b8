import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { useState } from "react";
import { Failure, PageTitle } from "../components.js";
import { personMatches, personName } from "../lib/person.js";
import { problemText } from "../lib/problem-text.js";
import { latest, useLoad } from "../lib/use-load.js";
import { teamModule } from "../modules.js";
import { type Profile, useSession } from "../session.js";
import { InviteForm, LinkOnce } from "./team-invite.js";
import { type MemberActions, MemberRow } from "./team-members.js";
import { type IssuedLink, type Member, type MemberChange, teamProblem } from "./team-types.js";
import { TwoFactorPolicy } from "./two-factor-policy.js";

/** The notice after a change: what is true now, naming the person as they are called now. */
const doneKey = (body: MemberChange, after: Member): string => {
  if (body.role !== undefined) return `done.${after.role}`;
  if (body.disabled !== undefined) return body.disabled ? "done.disabled" : "done.enabled";
  return after.name ? "done.renamed" : "done.unnamed";
};

/** The search field and how many of the team it shows. */
const Search = ({
  query,
  onQuery,
  shown,
  total,
}: {
  query: string;
  onQuery(query: string): void;
  shown: number;
  total: number;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  return (
    <p className="team-search">
      <label htmlFor="team-search">{t("search.label")}</label>
      <input
        id="team-search"
        type="search"
        autoComplete="off"
        value={query}
        onChange={(event) => onQuery(event.target.value)}
        aria-describedby="team-search-count"
      />
      <small id="team-search-count" className="hint" aria-live="polite">
        {query.trim() ? t("search.count", { count: shown, total }) : ""}
      </small>
    </p>
  );
};

/** The team as a table (cards on a phone), filtered by the search. */
const MembersTable = ({
  members,
  query,
  profile,
  actions,
  rename,
}: {
  members: Member[];
  query: string;
  profile: Profile | null;
  actions: MemberActions | undefined;
  rename(member: Member, name: string): Promise<string | null>;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const shown = members.filter((m) => personMatches(m, query, i18n.language));
  return (
    <>
      {shown.length === 0 && <p role="status">{t("search.none", { query: query.trim() })}</p>}
      <div className="table-scroll team-scroll">
        <table className="team-table">
          <caption className="visually-hidden">{t("title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("columns.name")}</th>
              <th scope="col">{t("columns.email")}</th>
              <th scope="col">{t("role.label")}</th>
              <th scope="col">{t("status.label")}</th>
              <th scope="col">{t("lastSignIn")}</th>
              <th scope="col">
                <span className="visually-hidden">{t("columns.actions")}</span>
              </th>
            </tr>
          </thead>
          {shown.map((member) => {
            const self = member.id === profile?.id;
            return (
              <MemberRow
                key={member.id}
                member={member}
                self={self}
                actions={actions}
                rename={actions || self ? rename : undefined}
              />
            );
          })}
        </table>
      </div>
    </>
  );
};

const Team = () => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const { api, profile, updateProfile } = useSession();
  const [load, retry] = useLoad(
    () => api.request<{ data: Member[] }>("GET", "/v1/tenant/users").then((r) => r.body.data),
    [api],
  );
  const [shown, setShown] = useState<{ email: string; link: IssuedLink } | null>(null);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const [query, setQuery] = useState("");
  const isAdmin = profile?.role === "admin";
  const members = latest(load);
  const say = (text: string, error = false) => setNotice({ text, error });

  const change = async (member: Member, body: MemberChange) => {
    setNotice(null);
    try {
      const answer = await api.request<{ data: Member }>(
        "PATCH",
        `/v1/tenant/users/${encodeURIComponent(member.id)}`,
        { body },
      );
      const after = answer.body.data;
      say(t(doneKey(body, after), { name: personName(member), to: after.name ?? "" }));
      retry();
      return null;
    } catch (failure) {
      return teamProblem(failure, t);
    }
  };
  /**
   * An admin renames a colleague through the team API; anyone renames themself through their
   * profile, whose answer the header then shows.
   */
  const rename = async (member: Member, name: string): Promise<string | null> => {
    if (isAdmin && member.id !== profile?.id) return change(member, { name });
    try {
      const answer = await api.request<{ data: Profile }>("PATCH", "/v1/user/profile", {
        body: { name },
      });
      updateProfile(answer.body.data);
      const key = answer.body.data.name ? "done.renamed" : "done.unnamed";
      say(t(key, { name: personName(member), to: answer.body.data.name ?? "" }));
      retry();
      return null;
    } catch (failure) {
      return problemText(failure, t);
    }
  };
  const reset = async (member: Member) => {
    setNotice(null);
    try {
      const { body } = await api.request<{ data: IssuedLink }>(
        "POST",
        `/v1/tenant/users/${encodeURIComponent(member.id)}/password-link`,
      );
      setShown({ email: member.email, link: body.data });
    } catch (failure) {
      say(teamProblem(failure, t), true);
    }
  };
  const actions: MemberActions | undefined = isAdmin
    ? {
        change: (member, body) =>
          void change(member, body).then((refused) => refused && say(refused, true)),
        link: (member) => void reset(member),
      }
    : undefined;
  const filtered = members?.filter((m) => personMatches(m, query, i18n.language)).length ?? 0;

  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{isAdmin ? t("intro.admin") : t("intro.member")}</p>
      {shown && <LinkOnce email={shown.email} link={shown.link} onDone={() => setShown(null)} />}
      {isAdmin && !shown && (
        <InviteForm
          onInvited={(member, link) => {
            setShown({ email: member.email, link });
            retry();
          }}
        />
      )}
      {isAdmin && !shown && <TwoFactorPolicy />}
      {/* Always on the page, so a screen reader announces each change's notice. */}
      <p role="status" className={notice && !notice.error ? "notice info" : "visually-hidden"}>
        {notice && !notice.error ? notice.text : ""}
      </p>
      {notice?.error && (
        <p className="notice error" role="alert">
          {notice.text}
        </p>
      )}
      {load.state === "failed" && <Failure error={load.error} retry={retry} />}
      {members === undefined && load.state === "loading" && (
        <p role="status">{t("common:status.loading")}</p>
      )}
      {members && (
        <>
          <Search query={query} onQuery={setQuery} shown={filtered} total={members.length} />
          <MembersTable
            members={members}
            query={query}
            profile={profile}
            actions={actions}
            rename={rename}
          />
        </>
      )}
    </>
  );
};

export const TeamPage = () => (
  <EnterpriseModuleProvider module={teamModule}>
    <Team />
  </EnterpriseModuleProvider>
);

import type { AuditEventView } from "@orderline/gateway/contract";
import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { Failure, PageTitle, ScrollRegion } from "../components.js";
import { ApiError, sessionStore } from "../lib/api.js";
import { formatDateTime } from "../lib/format.js";
import { useLoad } from "../lib/use-load.js";
import { activityModule } from "../modules.js";
import { useSession } from "../session.js";

type AuditEvent = AuditEventView;

interface Page {
  data: AuditEvent[];
  next_cursor: string | null;
}

const SUBJECT_TYPES = ["partner", "partner_key", "webhook_endpoint", "user", "vocabulary"];

/** The filter form's values as the API's query (a day's end is exclusive: the next midnight). */
const queryOf = (form: FormData): URLSearchParams => {
  const query = new URLSearchParams();
  for (const name of ["actor", "action", "subject_type"]) {
    const value = String(form.get(name) ?? "").trim();
    if (value) query.set(name, value);
  }
  const from = String(form.get("from") ?? "");
  const to = String(form.get("to") ?? "");
  if (from) query.set("from", new Date(`${from}T00:00:00`).toISOString());
  if (to)
    query.set("to", new Date(new Date(`${to}T00:00:00`).getTime() + 86_400_000).toISOString());
  return query;
};

/** Downloads the CSV of the current filters (a fetch with the token, saved through a blob). */
const downloadCsv = async (query: URLSearchParams): Promise<void> => {
  const session = sessionStore.read();
  const response = await fetch(`/v1/tenant/audit-events/export?${query}`, {
    headers: session ? { authorization: `Bearer ${session.token}` } : {},
  });
  if (!response.ok) throw new ApiError(response.status, "export", `HTTP ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = "activity.csv";
  anchor.click();
  URL.revokeObjectURL(url);
};

const Filters = ({ onApply }: { onApply(query: URLSearchParams): void }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof activityModule>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply(queryOf(new FormData(event.currentTarget)));
  };
  return (
    <form className="partner stack" onSubmit={submit} aria-labelledby="activity-filters">
      <h2 id="activity-filters">{t("filters.title")}</h2>
      <label htmlFor="f-actor">{t("filters.actor")}</label>
      <input id="f-actor" name="actor" type="text" autoComplete="off" />
      <label htmlFor="f-action">{t("filters.action")}</label>
      <input id="f-action" name="action" type="text" autoComplete="off" />
      <label htmlFor="f-subject">{t("filters.subject")}</label>
      <select id="f-subject" name="subject_type" defaultValue="">
        <option value="">{t("filters.any")}</option>
        {SUBJECT_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(`subject.${type}`)}
          </option>
        ))}
      </select>
      <label htmlFor="f-from">{t("filters.from")}</label>
      <input id="f-from" name="from" type="date" />
      <label htmlFor="f-to">{t("filters.to")}</label>
      <input id="f-to" name="to" type="date" />
      <p className="buttons">
        <button type="submit">{t("filters.apply")}</button>
      </p>
    </form>
  );
};

const EventRow = ({ event }: { event: AuditEvent }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof activityModule>();
  const action = t(`action.${event.action}`, { defaultValue: event.action });
  return (
    <tr data-testid="audit-event">
      <td>{formatDateTime(event.at, i18n.language)}</td>
      <td>
        {event.actor.label ?? event.actor.id}
        <br />
        <small>{t(`actor.${event.actor.kind}`)}</small>
      </td>
      <td>{action}</td>
      <td>
        {event.subject ? (
          <>
            {t(`subject.${event.subject.type}`, { defaultValue: event.subject.type })}
            <br />
            <code>{String(event.details.email ?? event.subject.id)}</code>
          </>
        ) : (
          "—"
        )}
      </td>
      <td>{event.source_address ?? "—"}</td>
    </tr>
  );
};

const Activity = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof activityModule>();
  const { api } = useSession();
  const [query, setQuery] = useState(() => new URLSearchParams());
  const [more, setMore] = useState<AuditEvent[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [exportFailed, setExportFailed] = useState(false);
  const [load, retry] = useLoad(async () => {
    const { body } = await api.request<Page>("GET", `/v1/tenant/audit-events?${query}`);
    setMore([]);
    setCursor(body.next_cursor);
    return body.data;
  }, [api, query]);
  const loadMore = async () => {
    if (!cursor) return;
    const next = new URLSearchParams(query);
    next.set("cursor", cursor);
    const { body } = await api.request<Page>("GET", `/v1/tenant/audit-events?${next}`);
    setMore((shown) => [...shown, ...body.data]);
    setCursor(body.next_cursor);
  };
  const events = load.state === "done" ? [...load.value, ...more] : [];

  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{t("intro")}</p>
      <Filters onApply={setQuery} />
      <p className="buttons">
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setExportFailed(false);
            downloadCsv(query).catch(() => setExportFailed(true));
          }}
        >
          {t("export")}
        </button>
      </p>
      {exportFailed && (
        <p className="notice error" role="alert">
          {t("exportFailed")}
        </p>
      )}
      {load.state === "failed" && <Failure error={load.error} retry={retry} />}
      {load.state === "loading" && <p role="status">{t("common:status.loading")}</p>}
      {load.state === "done" && events.length === 0 && <p>{t("empty")}</p>}
      {events.length > 0 && (
        <ScrollRegion labelledBy="activity-table">
          <table>
            <caption id="activity-table">{t("table.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("table.when")}</th>
                <th scope="col">{t("table.who")}</th>
                <th scope="col">{t("table.what")}</th>
                <th scope="col">{t("table.subject")}</th>
                <th scope="col">{t("table.from")}</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <EventRow key={event.id} event={event} />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {cursor && load.state === "done" && (
        <p className="buttons">
          <button type="button" className="secondary" onClick={() => void loadMore()}>
            {t("more")}
          </button>
        </p>
      )}
    </>
  );
};

export const ActivityPage = () => (
  <EnterpriseModuleProvider module={activityModule}>
    <Activity />
  </EnterpriseModuleProvider>
);

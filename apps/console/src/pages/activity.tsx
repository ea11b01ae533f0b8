import type { AuditEventView } from "@orderline/gateway/contract";
import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { Failure, PageTitle, ScrollRegion } from "../components.js";
import { DateField, firstInvalidDate } from "../date-field.js";
import { ApiError } from "../lib/api.js";
import { formatDateTime } from "../lib/format.js";
import type { Translate } from "../lib/problem-text.js";
import { useLoad } from "../lib/use-load.js";
import { activityModule } from "../modules.js";
import { useSession } from "../session.js";

type AuditEvent = AuditEventView;

interface Page {
  data: AuditEvent[];
  next_cursor: string | null;
}

const SUBJECT_TYPES = ["partner", "partner_key", "webhook_endpoint", "user", "vocabulary", "order"];

/**
 * The actions the filter offers, by their name in `action.*` (the gateway filters by code). The
 * admin CLI's twins of the tenant's partner actions (`partner_created` …) share their names, so
 * only the tenant's own are offered; the list still shows both.
 */
const ACTIONS = [
  "orders.moved",
  "orders.bulk_moved",
  "user_invited",
  "user_created",
  "user_role_changed",
  "user_disabled",
  "user_enabled",
  "user_password_link_created",
  "user_password_set",
  "user_password_reset_requested",
  "user_signed_out",
  "user_sessions_ended",
  "tenant_partner_created",
  "tenant_partner_key_added",
  "tenant_partner_key_revoked",
  "tenant_partner_secret_rotated",
  "tenant_partner_status",
  "webhook_endpoint_created",
  "webhook_endpoint_changed",
  "webhook_endpoint_removed",
  "webhook_endpoint_secret_rotated",
  "webhook_event_resent",
  "webhook_endpoint_disabled",
  "vocabulary_word_set",
  "vocabulary_word_reset",
  "vocabulary_word_reverted",
  "vocabulary_changed",
  "vocabulary_imported",
  "overrides_replaced",
];

/** An action's key under `action.`: the gateway's order actions have a dot (`orders.moved`). */
const actionKey = (action: string) => action.replace(/\./g, "_");

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

/** Downloads the CSV of the current filters (a fetch with the session cookie, saved through a blob). */
const downloadCsv = async (query: URLSearchParams): Promise<void> => {
  const response = await fetch(`/v1/tenant/audit-events/export?${query}`);
  if (!response.ok) throw new ApiError(response.status, "export", `HTTP ${response.status}`);
  const url = URL.createObjectURL(await response.blob());
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = "activity.csv";
  anchor.click();
  URL.revokeObjectURL(url);
};

const Filters = ({ onApply }: { onApply(query: URLSearchParams): void }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof activityModule>();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (firstInvalidDate(event.currentTarget)) return;
    onApply(queryOf(new FormData(event.currentTarget)));
  };
  const collator = new Intl.Collator(i18n.language);
  const actions = ACTIONS.map((code) => ({ code, name: t(`action.${actionKey(code)}`) })).sort(
    (a, b) => collator.compare(a.name, b.name),
  );
  return (
    <form className="partner stack" onSubmit={submit} aria-labelledby="activity-filters">
      <h2 id="activity-filters">{t("filters.title")}</h2>
      <label htmlFor="f-actor">{t("filters.actor")}</label>
      <input id="f-actor" name="actor" type="text" autoComplete="off" />
      <label htmlFor="f-action">{t("filters.action")}</label>
      <select id="f-action" name="action" defaultValue="">
        <option value="">{t("filters.any")}</option>
        {actions.map(({ code, name }) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      <label htmlFor="f-subject">{t("filters.subject")}</label>
      <select id="f-subject" name="subject_type" defaultValue="">
        <option value="">{t("filters.any")}</option>
        {SUBJECT_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(`subject.${type}`)}
          </option>
        ))}
      </select>
      <DateField id="f-from" name="from" label={t("filters.from")} />
      <DateField id="f-to" name="to" label={t("filters.to")} />
      <p className="buttons">
        <button type="submit">{t("filters.apply")}</button>
      </p>
    </form>
  );
};

/**
 * What happened, in words: an order move names the order, its partner and the move; a bulk
 * move how many orders it moved of how many chosen; anything else its action's name.
 */
const actionText = (event: AuditEvent, t: Translate): string => {
  const d = event.details;
  const move = typeof d.action === "string" ? d.action : "";
  if (event.action === "orders.moved" && move) {
    return t(`moved.${move}`, { number: d.order_number, partner: d.partner_name });
  }
  if (event.action === "orders.bulk_moved" && move) {
    const counted = t(`bulk.${move}`, { count: Number(d.moved ?? 0) });
    return Number(d.requested ?? 0) === Number(d.moved ?? 0)
      ? counted
      : `${counted} ${t("bulk.of", { count: Number(d.requested ?? 0) })}`;
  }
  return t(`action.${actionKey(event.action)}`, { defaultValue: event.action });
};

const EventRow = ({ event }: { event: AuditEvent }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof activityModule>();
  const action = actionText(event, t);
  return (
    <tr data-testid="audit-event">
      <td>{formatDateTime(event.at, i18n.language)}</td>
      <td>
        {event.actor.name ? (
          <>
            <span className="person-name">{event.actor.name}</span>
            <br />
            <small>{event.actor.label ?? event.actor.id}</small>
          </>
        ) : (
          (event.actor.label ?? event.actor.id)
        )}
        <br />
        <small>{t(`actor.${event.actor.kind}`)}</small>
      </td>
      <td>{action}</td>
      <td>
        {event.subject ? (
          <>
            {t(`subject.${event.subject.type}`, { defaultValue: event.subject.type })}
            <br />
            <code>
              {String(event.details.email ?? event.details.order_number ?? event.subject.id)}
            </code>
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

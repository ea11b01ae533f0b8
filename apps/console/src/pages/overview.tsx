import type { OverviewData } from "@orderline/gateway/contract";
import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { useId, useState } from "react";
import { Failure, PageTitle, ScrollRegion } from "../components.js";
import { latest, useLoad } from "../lib/use-load.js";
import { useOrderEvents } from "../lib/use-order-events.js";
import type { shellModule } from "../modules.js";
import { href } from "../router.js";
import { useSession } from "../session.js";

/** Bottom to top in a day's bar: what waits, what goes ahead, then what ended. */
const STATUSES = ["received", "accepted", "fulfilled", "rejected", "cancelled"] as const;
/** GET /v1/tenant/overview's answer. */
type Overview = OverviewData;
type DayCounts = Overview["per_day"][number];

const DAYS = 30;

/** The days are UTC days (the console has no tenant time zone): shown as such. */
const dayLabel = (iso: string, language: string, long = false): string =>
  new Intl.DateTimeFormat(language, {
    timeZone: "UTC",
    day: "numeric",
    month: long ? "long" : "short",
    ...(long ? { year: "numeric" } : {}),
  }).format(new Date(`${iso}T00:00:00Z`));

const count = (n: number, language: string) => new Intl.NumberFormat(language).format(n);

/** An amount with exactly its currency's decimals (Intl formats the decimal string itself). */
const money = (a: Overview["amounts"][number], language: string): string =>
  new Intl.NumberFormat(language, {
    ...(a.currency ? { style: "currency", currency: a.currency } : {}),
    minimumFractionDigits: a.decimals,
    maximumFractionDigits: a.decimals,
  }).format(a.amount as unknown as number);

/** A chart's numbers as a table: hidden from sight (screen readers read it) until shown. */
const TableToggle = ({
  shown,
  onToggle,
  controls,
}: {
  shown: boolean;
  onToggle(): void;
  controls: string;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  return (
    <button
      type="button"
      className="secondary"
      aria-expanded={shown}
      aria-controls={controls}
      onClick={onToggle}
    >
      {shown ? t("overview.hideTable") : t("overview.showTable")}
    </button>
  );
};

/**
 * Orders per day, one stacked bar per day by status: the picture of the table below it. The bars
 * stretch with the card (preserveAspectRatio none); the words stay HTML, so they keep their size.
 */
const DayChart = ({ days }: { days: DayCounts[] }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const top = Math.max(1, ...days.map((d) => d.total));
  return (
    <div
      className="day-chart"
      role="img"
      aria-label={t("overview.perDay.chartLabel")}
      data-testid="day-chart"
    >
      <p className="chart-top">{count(top, i18n.language)}</p>
      <svg
        viewBox={`0 0 ${days.length * 10} 100`}
        preserveAspectRatio="none"
        focusable="false"
        aria-hidden="true"
      >
        {days.map((day, i) => {
          let y = 100;
          return (
            <g key={day.date}>
              {STATUSES.map((status) => {
                const h = (day[status] / top) * 100;
                y -= h;
                return h > 0 ? (
                  <rect
                    key={status}
                    x={i * 10 + 1}
                    y={y}
                    width={8}
                    height={h}
                    className={`status-${status}`}
                  />
                ) : null;
              })}
            </g>
          );
        })}
      </svg>
      <ol className="ticks">
        {days.map((day, i) => (
          <li key={day.date}>
            {(days.length - 1 - i) % 7 === 0 ? dayLabel(day.date, i18n.language) : ""}
          </li>
        ))}
      </ol>
    </div>
  );
};

const Legend = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  return (
    <ul className="legend" aria-hidden="true">
      {STATUSES.map((status) => (
        <li key={status}>
          <svg viewBox="0 0 10 10" width="12" height="12" aria-hidden="true">
            <rect width="10" height="10" className={`status-${status}`} />
          </svg>{" "}
          {t(`orders:status.${status}`)}
        </li>
      ))}
    </ul>
  );
};

const DayTable = ({ overview, id, shown }: { overview: Overview; id: string; shown: boolean }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const table = (
    <table id={id} className={shown ? "overview-table" : "visually-hidden"} data-testid="day-table">
      <caption id={`${id}-c`}>{t("overview.perDay.caption", { days: overview.days })}</caption>
      <thead>
        <tr>
          <th scope="col">{t("overview.day")}</th>
          {STATUSES.map((s) => (
            <th scope="col" key={s}>
              {t(`orders:status.${s}`)}
            </th>
          ))}
          <th scope="col">{t("overview.total")}</th>
        </tr>
      </thead>
      <tbody>
        {overview.per_day.map((day) => (
          <tr key={day.date}>
            <th scope="row">{dayLabel(day.date, i18n.language, true)}</th>
            {STATUSES.map((s) => (
              <td key={s}>{count(day[s], i18n.language)}</td>
            ))}
            <td>{count(day.total, i18n.language)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  // Hidden, the wrapper (not the table, which keeps its width) is what is visually hidden; shown,
  // the table scrolls sideways on a phone inside a focusable region (its 7 columns).
  return shown ? (
    <ScrollRegion labelledBy={`${id}-c`}>{table}</ScrollRegion>
  ) : (
    <div className="visually-hidden">{table}</div>
  );
};

const PerDay = ({ overview }: { overview: Overview }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const [shown, setShown] = useState(false);
  const id = useId();
  return (
    <section className="overview-card wide" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t("overview.perDay.title", { days: overview.days })}</h2>
      <DayChart days={overview.per_day} />
      <Legend />
      <TableToggle shown={shown} onToggle={() => setShown((s) => !s)} controls={`${id}-t`} />
      <DayTable overview={overview} id={`${id}-t`} shown={shown} />
    </section>
  );
};

/** Orders per partner: a bar each, its name and count in words beside it. */
const PartnerChart = ({ partners }: { partners: Overview["per_partner"] }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const top = Math.max(1, ...partners.map((p) => p.orders));
  return (
    <div
      className="partner-chart"
      role="img"
      aria-label={t("overview.perPartner.chartLabel")}
      data-testid="partner-chart"
    >
      {partners.map((p) => (
        <div key={p.partner} className="partner-bar">
          <span className="name">{p.partner_name}</span>
          <svg viewBox="0 0 100 10" preserveAspectRatio="none" focusable="false" aria-hidden="true">
            <rect
              width={Math.max(0.5, (p.orders / top) * 100)}
              height={10}
              className="status-received"
            />
          </svg>
          <span className="count">{count(p.orders, i18n.language)}</span>
        </div>
      ))}
    </div>
  );
};

const PerPartner = ({ overview }: { overview: Overview }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const [shown, setShown] = useState(false);
  const id = useId();
  const partners = overview.per_partner;
  return (
    <section className="overview-card wide" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t("overview.perPartner.title", { days: overview.days })}</h2>
      {partners.length === 0 ? (
        <p>{t("overview.none")}</p>
      ) : (
        <>
          <PartnerChart partners={partners} />
          <TableToggle shown={shown} onToggle={() => setShown((s) => !s)} controls={`${id}-t`} />
          <div className={shown ? undefined : "visually-hidden"}>
            <table id={`${id}-t`} className="overview-table" data-testid="partner-table">
              <caption>{t("overview.perPartner.caption", { days: overview.days })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("overview.partner")}</th>
                  <th scope="col">{t("overview.orders")}</th>
                </tr>
              </thead>
              <tbody>
                {partners.map((p) => (
                  <tr key={p.partner}>
                    <th scope="row">{p.partner_name}</th>
                    <td>{count(p.orders, i18n.language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
};

const Amounts = ({ overview }: { overview: Overview }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  return (
    <section className="overview-card" aria-labelledby="overview-amounts">
      <h2 id="overview-amounts">{t("overview.amounts.title", { days: overview.days })}</h2>
      {overview.amounts.length === 0 ? (
        <p>{t("overview.none")}</p>
      ) : (
        <table className="overview-table" data-testid="amounts-table">
          <caption>{t("overview.amounts.caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("overview.currency")}</th>
              <th scope="col">{t("overview.orders")}</th>
              <th scope="col">{t("overview.amount")}</th>
            </tr>
          </thead>
          <tbody>
            {overview.amounts.map((a) => (
              <tr key={a.currency ?? ""} data-currency={a.currency ?? ""}>
                <th scope="row">{a.currency ?? t("overview.noCurrency")}</th>
                <td>{count(a.orders, i18n.language)}</td>
                <td className="amount">{money(a, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
};

/** The figure staff act on first, linked to the orders list filtered to it. */
const Awaiting = ({ overview }: { overview: Overview }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const n = overview.awaiting.count;
  return (
    <section className="overview-card awaiting-card" aria-labelledby="overview-awaiting">
      <h2 id="overview-awaiting">{t("overview.awaiting.title")}</h2>
      <p className="big-number" data-testid="awaiting-number">
        {count(n, i18n.language)}
      </p>
      <p>
        <a href={`${href("orders")}?status=${encodeURIComponent(overview.awaiting.status)}`}>
          {t("overview.awaiting.link", { count: n, number: count(n, i18n.language) })}
        </a>
      </p>
    </section>
  );
};

/** The console's home: what needs doing and how the last 30 days went, at a glance. */
export const OverviewPage = () => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const { api } = useSession();
  const [load, reload] = useLoad(
    () =>
      api
        .request<{ data: Overview }>("GET", `/v1/tenant/overview?days=${DAYS}`)
        .then((r) => r.body.data),
    [],
  );
  useOrderEvents(reload);
  const overview = latest(load);
  return (
    <>
      <PageTitle>{t("overview.title")}</PageTitle>
      {overview && (
        <p className="muted">
          {t("overview.window", {
            from: dayLabel(overview.from, i18n.language, true),
            to: dayLabel(overview.to, i18n.language, true),
          })}
        </p>
      )}
      {load.state === "failed" && <Failure error={load.error} retry={reload} />}
      {overview && (
        <div className="overview-grid">
          <Awaiting overview={overview} />
          <Amounts overview={overview} />
          <PerDay overview={overview} />
          <PerPartner overview={overview} />
        </div>
      )}
    </>
  );
};

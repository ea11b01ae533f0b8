import type { Dictionary } from "@orderline/i18n";
import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { lazy, Suspense, useDeferredValue, useId, useState } from "react";
import { Failure, PageTitle, ScrollRegion } from "../components.js";
import { DICTIONARIES, LANGUAGES, NAMESPACES } from "../i18n.js";
import { useLoad } from "../lib/use-load.js";
import { readOverrides } from "../lib/vocabulary-api.js";
import { vocabularyModule } from "../modules.js";
import { useSession } from "../session.js";
import { filterRows, type RowFilter, type WordRow, wordRows } from "../vocabulary/rows.js";
import type { WordPlace } from "../vocabulary/word-dialog.js";

const WordDialog = lazy(() =>
  import("../vocabulary/word-dialog.js").then((m) => ({ default: m.WordDialog })),
);

const CODES = LANGUAGES.map((l) => l.code);

/**
 * Rows drawn at first and added by each "Show more words": the standard texts have over 500
 * keys, and drawing them all made the page slow to open and to search; the search finds any.
 */
const ROWS_AT_ONCE = 50;

/** The tenant's overrides of every namespace in every language: `{ [ns]: { [lng]: tree } }`. */
const loadAll = async (api: ReturnType<typeof useSession>["api"]) => {
  const pairs = NAMESPACES.flatMap((ns) => CODES.map((lng) => [ns, lng] as const));
  const trees = await Promise.all(pairs.map(([ns, lng]) => readOverrides(api, ns, lng)));
  const all: Record<string, Record<string, Dictionary>> = {};
  pairs.forEach(([ns, lng], i) => {
    all[ns] = { ...all[ns], [lng]: trees[i] ?? {} };
  });
  return all;
};

/** Search, area and "changed only": what narrows the list. */
const Filters = ({ filter, onChange }: { filter: RowFilter; onChange(next: RowFilter): void }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  const id = useId();
  return (
    <div className="filters vocabulary-filters">
      <div className="field search">
        <label htmlFor={`${id}-q`}>{t("search")}</label>
        <input
          id={`${id}-q`}
          type="search"
          value={filter.query}
          onChange={(e) => onChange({ ...filter, query: e.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-ns`}>{t("area")}</label>
        <select
          id={`${id}-ns`}
          value={filter.namespace}
          onChange={(e) => onChange({ ...filter, namespace: e.target.value })}
        >
          <option value="">{t("allAreas")}</option>
          {NAMESPACES.map((ns) => (
            <option key={ns} value={ns}>
              {t(`areas.${ns}`)}
            </option>
          ))}
        </select>
      </div>
      <label className="check">
        <input
          type="checkbox"
          checked={filter.changedOnly}
          onChange={(e) => onChange({ ...filter, changedOnly: e.target.checked })}
        />
        {t("changedOnly")}
      </label>
    </div>
  );
};

/** One key: its text on screen as the label, the key below, the word in each language. */
const Row = ({ row, onEdit }: { row: WordRow; onEdit(place: WordPlace): void }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  // The standard text is what admins know the word by; the tenant's words are in the columns.
  const label = row.standard[i18n.language] ?? row.standard.en ?? row.key;
  const changed = Object.keys(row.tenant).length > 0;
  return (
    <tr className={changed ? "edited" : undefined}>
      <th scope="row">
        <span className="word-label">{label}</span>
        <small className="hint">
          {t(`areas.${row.namespace}`)} · <code>{row.key}</code>
        </small>
      </th>
      {CODES.map((lng) => (
        <td key={lng} lang={lng}>
          {row.tenant[lng] !== undefined ? (
            <>
              <strong>{row.tenant[lng]}</strong> <span className="badge">{t("table.changed")}</span>
            </>
          ) : (
            <span className="standard">{row.standard[lng]}</span>
          )}
        </td>
      ))}
      <td>
        <button
          type="button"
          className="secondary"
          aria-label={t("table.editLabel", { text: label })}
          onClick={() => onEdit({ namespace: row.namespace, key: row.key })}
        >
          {t("table.edit")}
        </button>
      </td>
    </tr>
  );
};

const Editor = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  const { api } = useSession();
  const [filter, setFilter] = useState<RowFilter>({ query: "", namespace: "", changedOnly: false });
  const deferred = useDeferredValue(filter);
  const [limit, setLimit] = useState(ROWS_AT_ONCE);
  const [place, setPlace] = useState<WordPlace | null>(null);
  const [version, setVersion] = useState(0);
  const [load, retry] = useLoad(() => loadAll(api), [version]);
  const overrides =
    load.state === "done" ? load.value : load.state === "loading" ? load.previous : undefined;
  const rows = overrides ? wordRows(DICTIONARIES, overrides, CODES) : [];
  const shown = filterRows(rows, deferred);
  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{t("intro")}</p>
      <Filters
        filter={filter}
        onChange={(next) => {
          setFilter(next);
          setLimit(ROWS_AT_ONCE);
        }}
      />
      {load.state === "failed" && <Failure error={load.error} retry={retry} />}
      {!overrides && load.state === "loading" && <p role="status">{t("common:status.loading")}</p>}
      {overrides && (
        <>
          <p role="status" data-testid="vocabulary-count">
            {shown.length === 0
              ? t("none")
              : shown.length > limit
                ? t("countFirst", { shown: shown.length, total: rows.length, drawn: limit })
                : t("count", { shown: shown.length, total: rows.length })}
          </p>
          <ScrollRegion labelledBy="vocabulary-caption">
            <table className="vocabulary">
              <caption id="vocabulary-caption">{t("table.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("table.text")}</th>
                  {LANGUAGES.map((l) => (
                    <th key={l.code} scope="col" lang={l.code}>
                      {l.name}
                    </th>
                  ))}
                  <th scope="col">
                    <span className="visually-hidden">{t("table.edit")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.slice(0, limit).map((row) => (
                  <Row key={`${row.namespace}:${row.key}`} row={row} onEdit={setPlace} />
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          {shown.length > limit && (
            <p className="buttons">
              <button
                type="button"
                className="secondary"
                onClick={() => setLimit((n) => n + ROWS_AT_ONCE)}
              >
                {t("showMore")}
              </button>
            </p>
          )}
        </>
      )}
      {place && (
        <Suspense fallback={null}>
          <WordDialog
            place={place}
            onClose={() => {
              setPlace(null);
              setVersion((n) => n + 1);
            }}
          />
        </Suspense>
      )}
    </>
  );
};

export const VocabularyPage = () => {
  const { profile } = useSession();
  return (
    <EnterpriseModuleProvider module={vocabularyModule}>
      {profile?.role === "admin" ? <Editor /> : <AdminOnly />}
    </EnterpriseModuleProvider>
  );
};

const AdminOnly = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof vocabularyModule>();
  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{t("adminOnly")}</p>
    </>
  );
};

import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { useEffect, useState } from "react";
import { Failure, PageTitle } from "../components.js";
import type { ApiError } from "../lib/api.js";
import { orderName } from "../lib/format.js";
import {
  filtersOf,
  listQuery,
  type OrderFilters,
  pageSizeOf,
  rangeReversed,
} from "../lib/order-filter.js";
import { latest, useLoad } from "../lib/use-load.js";
import { useOrderEvents } from "../lib/use-order-events.js";
import { ordersModule } from "../modules.js";
import type { Route } from "../router.js";
import { useSession } from "../session.js";
import { BulkBar, BulkSummary, type BulkTarget } from "./order-bulk.js";
import { ExportButton } from "./order-export.js";
import { OrderFiltersForm, ordersHref, resultsFocus } from "./order-filters.js";
import type { BulkOutcome, OrderPage } from "./order-types.js";
import { OrdersTable } from "./orders-table.js";

/** How many orders match, in words: "42 orders", "1,000+ orders". */
const CountLine = ({ total }: { total: OrderPage["total"] }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const number = new Intl.NumberFormat(i18n.language).format(total.count);
  return (
    <p className="count" data-testid="order-count" id="order-results" tabIndex={-1}>
      {total.exact
        ? t("count.exact", { count: total.count, number })
        : t("count.atLeast", { count: total.count, number })}
    </p>
  );
};

/**
 * The tenant's orders, a page at a time, filtered, searched and sorted. The gateway pages
 * forward with a cursor; the cursors of earlier pages travel in the URL with the filters
 * (`#/orders?status=received&q=1005&after=c1,c2`), so "previous", a reload, a shared link and
 * "Back to orders" all land on the same page. New and moved orders arrive over the tenant
 * event stream and reload the page in place.
 */
const OrdersList = ({ route }: { route: Route }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { api } = useSession();
  const trail = (route.query.get("after") ?? "").split(",").filter(Boolean);
  const filters = filtersOf(route.query);
  // A reversed range (typed into the URL) would match nothing: list unfiltered by date instead.
  const effective: OrderFilters = rangeReversed(filters)
    ? { ...filters, from: undefined, to: undefined }
    : filters;
  const query = listQuery(effective, pageSizeOf(filters), trail.at(-1));
  const [load, reload] = useLoad(
    () => api.request<OrderPage>("GET", `/v1/orders?${query}`).then((r) => r.body),
    [query],
  );
  const page = latest(load);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [bulk, setBulk] = useState<BulkOutcome | ApiError | null>(null);
  const [arrived, setArrived] = useState(0);
  useOrderEvents((created) => {
    setArrived((n) => n + created);
    reload();
  });
  // A page of other orders: nothing stays selected that the user cannot see.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query changes only.
  useEffect(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, [query]);

  // After "Apply filters": the focus goes to the results once they are read.
  useEffect(() => {
    const take = () => {
      const target =
        document.getElementById("order-results") ?? document.getElementById("no-orders");
      if (!resultsFocus.wanted || !target) return;
      resultsFocus.wanted = false;
      target.focus();
    };
    if (load.state !== "loading") take();
    window.addEventListener("orderline:results", take);
    return () => window.removeEventListener("orderline:results", take);
  }, [load.state]);

  const listHref = ordersHref(filters, trail);
  const numbers = new Map(page?.data.map((o) => [o.id, orderName(o)]) ?? []);
  const target: BulkTarget = allMatching
    ? { filter: effective, count: page?.total.count ?? 0, exact: page?.total.exact ?? true }
    : { orders: page?.data.filter((o) => selected.has(o.id)) ?? [] };
  const onBulk = (outcome: BulkOutcome | ApiError) => {
    setBulk(outcome);
    setSelected(new Set());
    setAllMatching(false);
    reload();
  };
  const partnerName = page?.data.find((o) => o.client_id === filters.partner)?.partner_name;

  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <OrderFiltersForm key={route.query.toString()} filters={filters} partnerName={partnerName} />
      <div className="list-tools">
        {page && <CountLine total={page.total} />}
        <p role="status" className="live" data-testid="orders-live">
          {arrived > 0 && t("live.arrived", { count: arrived })}
        </p>
        <ExportButton filters={effective} />
      </div>
      {bulk && "results" in bulk && <BulkSummary outcome={bulk} numbers={numbers} />}
      {bulk && !("results" in bulk) && <Failure error={bulk} />}
      {load.state === "loading" && !page && <p role="status">{t("common:status.loading")}</p>}
      {load.state === "failed" && <Failure error={load.error} retry={reload} />}
      {page && page.data.length === 0 && trail.length === 0 && (
        <p role="status" id="no-orders" tabIndex={-1}>
          {Object.keys(filters).length > 0 ? t("filters.noMatch") : t("empty")}
        </p>
      )}
      {page && page.data.length > 0 && (
        <>
          {(selected.size > 0 || allMatching) && <BulkBar target={target} onDone={onBulk} />}
          <SelectAllMatching
            page={page}
            selected={selected}
            allMatching={allMatching}
            onChoose={setAllMatching}
          />
          <OrdersTable
            orders={page.data}
            busy={load.state === "loading"}
            selected={selected}
            allMatching={allMatching}
            onSelect={(next) => {
              setSelected(next);
              setAllMatching(false);
            }}
            listHref={listHref}
            filters={filters}
          />
          <Pager trail={trail} filters={filters} next={page.next_cursor} />
        </>
      )}
    </>
  );
};

/** When the whole page is selected and more match: offer them all (the gateway moves ≤ 200). */
const SelectAllMatching = ({
  page,
  selected,
  allMatching,
  onChoose,
}: {
  page: OrderPage;
  selected: ReadonlySet<string>;
  allMatching: boolean;
  onChoose(all: boolean): void;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const whole = page.data.every((o) => selected.has(o.id));
  if (!allMatching && (!whole || page.total.count <= page.data.length)) return null;
  const number = new Intl.NumberFormat(i18n.language).format(page.total.count);
  return (
    <p className="select-all">
      <button type="button" className="link" onClick={() => onChoose(!allMatching)}>
        {allMatching
          ? t("bulk.onlyPage", { count: page.data.length })
          : page.total.exact
            ? t("bulk.allMatching", { count: page.total.count, number })
            : t("bulk.allMatchingAtLeast", { number })}
      </button>
    </p>
  );
};

const Pager = ({
  trail,
  filters,
  next,
}: {
  trail: string[];
  filters: OrderFilters;
  next: string | null;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  return (
    <nav className="pager" aria-label={t("pager.label")}>
      {trail.length > 0 ? (
        <a href={ordersHref(filters, trail.slice(0, -1))}>{t("pager.previous")}</a>
      ) : (
        <span />
      )}
      <span>{t("pager.page", { page: trail.length + 1 })}</span>
      {next ? <a href={ordersHref(filters, [...trail, next])}>{t("pager.next")}</a> : <span />}
    </nav>
  );
};

export const OrdersPage = ({ route }: { route: Route }) => (
  <EnterpriseModuleProvider module={ordersModule}>
    <OrdersList route={route} />
  </EnterpriseModuleProvider>
);

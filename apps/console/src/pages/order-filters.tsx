import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { DateField, firstInvalidDate } from "../date-field.js";
import { ORDER_STATUSES } from "../lib/lifecycle.js";
import {
  filtersQuery,
  isOrderNumber,
  listQuery,
  numberOf,
  type OrderFilters,
  PAGE_SIZES,
  rangeReversed,
} from "../lib/order-filter.js";
import { useLoad } from "../lib/use-load.js";
import type { ordersModule } from "../modules.js";
import { href } from "../router.js";
import { useSession } from "../session.js";
import type { OrderPage } from "./order-types.js";

/** The URL of the orders list with these filters, on its first page. */
export const ordersHref = (filters: OrderFilters, after: string[] = []): string => {
  const query = filtersQuery(filters);
  if (after.length > 0) query.set("after", after.join(","));
  const text = query.toString();
  return text ? `${href("orders")}?${text}` : href("orders");
};

/**
 * Set by "Apply filters": the list moves the focus to its results (the count) once the
 * filtered page is read, so a keyboard or screen reader user lands on what they asked for.
 */
export const resultsFocus = { wanted: false };

/**
 * Where applying filters goes. A search for an order number that names one order opens it (the
 * list stays "Back to orders"); several (one per partner) or none: the list, each with its
 * partner.
 */
const useFilterNavigation = () => {
  const { api } = useSession();
  return async (next: OrderFilters) => {
    const list = ordersHref(next);
    if (next.q && isOrderNumber(next.q)) {
      try {
        const { body } = await api.request<OrderPage>("GET", `/v1/orders?${listQuery(next, 2)}`);
        const [only] = body.data;
        // Bare digits also match text (a PO number containing them): open only a number match.
        if (only && body.data.length === 1 && numberOf(only.order_number) === numberOf(next.q)) {
          const back = new URLSearchParams({ back: list.split("?")[1] ?? "" });
          window.location.hash = `${href("orders", only.id)}?${back}`;
          return;
        }
      } catch {
        // The list says what went wrong, with its retry.
      }
    }
    resultsFocus.wanted = true;
    // The same filters again: no new page to wait for; the list takes the focus now.
    if (window.location.hash === list) window.dispatchEvent(new Event("orderline:results"));
    window.location.hash = list;
  };
};

interface PartnerChoice {
  client_id: string;
  name: string;
}

/**
 * The partner filter: a select of the tenant's partners by name for admins (the partner list is
 * theirs to read, /v1/tenant/partners); for members, or until the list arrives, the partner a
 * link chose, with "All partners" beside it.
 */
const PartnerField = ({
  filters,
  partnerName,
}: {
  filters: OrderFilters;
  partnerName?: string | undefined;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { api, profile } = useSession();
  const admin = profile?.role === "admin";
  const [load] = useLoad(
    () =>
      admin
        ? api
            .request<{ data: PartnerChoice[] }>("GET", "/v1/tenant/partners")
            .then((r) => r.body.data)
        : Promise.resolve([]),
    [admin],
  );
  const partners = load.state === "done" ? load.value : [];
  if (partners.length > 0) {
    return (
      <div className="field">
        <label htmlFor="filter-partner">{t("filters.partnerLabel")}</label>
        <select id="filter-partner" name="partner" defaultValue={filters.partner ?? ""}>
          <option value="">{t("filters.anyPartner")}</option>
          {[...partners]
            .sort((a, b) => a.name.localeCompare(b.name))
            .map((p) => (
              <option key={p.client_id} value={p.client_id}>
                {p.name}
              </option>
            ))}
        </select>
      </div>
    );
  }
  if (!filters.partner) return null;
  return (
    <div className="field">
      <input type="hidden" name="partner" value={filters.partner} />
      <span className="chip">
        {t("filters.partner", { name: partnerName ?? filters.partner })}{" "}
        <a href={ordersHref({ ...filters, partner: undefined })}>{t("filters.anyPartner")}</a>
      </span>
    </div>
  );
};

/**
 * The list's filters. Applying one changes the URL (so a reload, "back" and a shared link keep
 * it) and starts again at the first page.
 */
export const OrderFiltersForm = ({
  filters,
  partnerName,
}: {
  filters: OrderFilters;
  /** The filtered partner's name, once an order of it was read. */
  partnerName?: string | undefined;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const [reversed, setReversed] = useState(false);
  const active = Object.keys(filters).length > 0;
  // On a phone, dates, purchase order, order and page size wait behind "More filters" unless
  // one is in use, so the first orders show on the first screen (phone.css); a desk shows all.
  const [more, setMore] = useState(
    Boolean(filters.from || filters.to || filters.po || filters.sort || filters.size),
  );

  const go = useFilterNavigation();

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (firstInvalidDate(event.currentTarget)) return;
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const next: OrderFilters = {
      q: text("q"),
      status: text("status"),
      partner: text("partner"),
      from: text("from"),
      to: text("to"),
      po: text("po"),
      sort: text("sort"),
      size: text("size") === "20" ? "" : text("size"),
    };
    if (rangeReversed(next)) {
      setReversed(true);
      setMore(true);
      document.getElementById("filter-to")?.focus();
      return;
    }
    setReversed(false);
    void go(next);
  };

  return (
    <form className="filters order-filters" aria-label={t("filters.label")} onSubmit={apply}>
      <div className="field search">
        <label htmlFor="filter-q">{t("filters.search")}</label>
        <input
          id="filter-q"
          name="q"
          type="search"
          maxLength={100}
          defaultValue={filters.q ?? ""}
          aria-describedby="filter-q-hint"
        />
        <small id="filter-q-hint" className="hint">
          {t("filters.searchHint")}
        </small>
      </div>
      <PartnerField filters={filters} partnerName={partnerName} />
      <div className="field">
        <label htmlFor="filter-status">{t("filters.status")}</label>
        <select id="filter-status" name="status" defaultValue={filters.status ?? ""}>
          <option value="">{t("filters.anyStatus")}</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`status.${status}`)}
            </option>
          ))}
        </select>
      </div>
      <p className="buttons">
        <button type="submit">{t("filters.apply")}</button>
        <button
          type="button"
          className="secondary"
          aria-expanded={more}
          aria-controls="more-filters"
          onClick={() => setMore((open) => !open)}
        >
          {t("filters.more")}
        </button>
        {active && <a href={href("orders")}>{t("filters.clear")}</a>}
      </p>
      <div id="more-filters" className={more ? "more-filters" : "more-filters collapsed"}>
        <div className="field">
          <DateField
            id="filter-from"
            name="from"
            label={t("filters.from")}
            defaultValue={filters.from}
          />
        </div>
        <div className="field">
          <DateField
            id="filter-to"
            name="to"
            label={t("filters.to")}
            defaultValue={filters.to}
            error={reversed ? t("filters.toBeforeFrom") : null}
          />
        </div>
        <div className="field">
          <label htmlFor="filter-po">{t("filters.purchaseOrder")}</label>
          <input id="filter-po" name="po" maxLength={64} defaultValue={filters.po ?? ""} />
        </div>
        <div className="field">
          <label htmlFor="filter-sort">{t("filters.sort")}</label>
          <select id="filter-sort" name="sort" defaultValue={filters.sort ?? ""}>
            <option value="">{t("filters.newest")}</option>
            <option value="oldest">{t("filters.oldest")}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-size">{t("filters.size")}</label>
          <select id="filter-size" name="size" defaultValue={filters.size ?? "20"}>
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
      </div>
    </form>
  );
};

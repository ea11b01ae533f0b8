import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { DateField, firstInvalidDate } from "../date-field.js";
import { ORDER_STATUSES } from "../lib/lifecycle.js";
import { filtersQuery, type OrderFilters, PAGE_SIZES, rangeReversed } from "../lib/order-filter.js";
import type { ordersModule } from "../modules.js";
import { href } from "../router.js";

/** The URL of the orders list with these filters, on its first page. */
export const ordersHref = (filters: OrderFilters, after: string[] = []): string => {
  const query = filtersQuery(filters);
  if (after.length > 0) query.set("after", after.join(","));
  const text = query.toString();
  return text ? `${href("orders")}?${text}` : href("orders");
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
      document.getElementById("filter-to")?.focus();
      return;
    }
    setReversed(false);
    window.location.hash = ordersHref(next);
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
      {filters.partner && (
        <div className="field">
          <input type="hidden" name="partner" value={filters.partner} />
          <span className="chip">
            {t("filters.partner", { name: partnerName ?? filters.partner })}{" "}
            <a href={ordersHref({ ...filters, partner: undefined })}>{t("filters.anyPartner")}</a>
          </span>
        </div>
      )}
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
      <p className="buttons">
        <button type="submit">{t("filters.apply")}</button>
        {active && <a href={href("orders")}>{t("filters.clear")}</a>}
      </p>
    </form>
  );
};

import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { DateField, firstInvalidDate } from "../date-field.js";
import { ORDER_STATUSES } from "../lib/lifecycle.js";
import { filtersQuery, type OrderFilters, rangeReversed } from "../lib/order-filter.js";
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
export const OrderFiltersForm = ({ filters }: { filters: OrderFilters }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const [reversed, setReversed] = useState(false);
  const active = Object.keys(filters).length > 0;

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (firstInvalidDate(event.currentTarget)) return;
    const data = new FormData(event.currentTarget);
    const next: OrderFilters = {
      status: String(data.get("status") ?? ""),
      from: String(data.get("from") ?? ""),
      to: String(data.get("to") ?? ""),
      po: String(data.get("po") ?? "").trim(),
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
      <p className="buttons">
        <button type="submit">{t("filters.apply")}</button>
        {active && <a href={href("orders")}>{t("filters.clear")}</a>}
      </p>
    </form>
  );
};

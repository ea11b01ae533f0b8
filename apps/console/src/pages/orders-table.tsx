import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { ScrollRegion } from "../components.js";
import { formatDateTime, formatListMoney, orderName } from "../lib/format.js";
import type { OrderFilters } from "../lib/order-filter.js";
import type { ordersModule } from "../modules.js";
import { href } from "../router.js";
import { ordersHref } from "./order-filters.js";
import { StatusBadge } from "./order-status.js";
import type { Order } from "./order-types.js";

/** The order's page, remembering the list it was opened from (for "Back to orders"). */
const orderHref = (id: string, listHref: string): string => {
  const list = listHref.split("?")[1];
  return list ? `${href("orders", id)}?${new URLSearchParams({ back: list })}` : href("orders", id);
};

/**
 * The orders of a page, each selectable for a bulk move: one line each, so a 1366×850 screen
 * shows 15 of them with what a desk decides by (number, partner, customer, status, PO, amount,
 * received); long names are cut with "…" and read in full on hover, on focus (the partner's
 * link) and by screen readers. Site and lines are on the order's page. On a phone each row reads
 * as a card (styles.css: `.orders-table`), every cell labelled by its column's name.
 */
export const OrdersTable = ({
  orders,
  selected,
  allMatching,
  onSelect,
  listHref,
  filters,
  busy = false,
}: {
  orders: Order[];
  selected: ReadonlySet<string>;
  allMatching: boolean;
  onSelect(next: ReadonlySet<string>): void;
  listHref: string;
  filters: OrderFilters;
  /** A newer page is on its way: these rows are the previous answer (aria-busy). */
  busy?: boolean;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const none = t("detail.none");
  const everyOne = allMatching || orders.every((o) => selected.has(o.id));
  const toggle = (id: string, on: boolean) => {
    const next = new Set(allMatching ? orders.map((o) => o.id) : selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelect(next);
  };
  const label = (key: string) => t(`table.${key}`);
  return (
    <ScrollRegion labelledBy="orders-caption">
      <table className="orders-table" aria-busy={busy || undefined}>
        <caption id="orders-caption" className="visually-hidden">
          {filters.sort === "oldest" ? t("table.captionOldest") : t("table.caption")}
        </caption>
        <thead>
          <tr>
            <td className="select">
              <input
                type="checkbox"
                aria-label={t("bulk.selectPage")}
                checked={everyOne}
                onChange={(e) => onSelect(new Set(e.target.checked ? orders.map((o) => o.id) : []))}
              />
            </td>
            <th scope="col" className="col-number">
              {label("number")}
            </th>
            <th scope="col">{label("partner")}</th>
            <th scope="col">{label("customer")}</th>
            <th scope="col" className="col-status">
              {label("status")}
            </th>
            <th scope="col" className="col-po">
              {label("purchaseOrder")}
            </th>
            <th scope="col" className="number col-amount">
              {label("amount")}
            </th>
            <th scope="col" className="col-date">
              {label("created")}
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id} className={selected.has(order.id) ? "selected" : undefined}>
              <td className="select">
                <input
                  type="checkbox"
                  aria-label={t("bulk.selectOne", { number: orderName(order) })}
                  checked={allMatching || selected.has(order.id)}
                  onChange={(e) => toggle(order.id, e.target.checked)}
                />
              </td>
              <th scope="row" data-label={label("number")}>
                <a href={orderHref(order.id, listHref)}>{order.order_number}</a>
              </th>
              <td data-label={label("partner")} className="clip">
                <a
                  href={ordersHref({ ...filters, partner: order.client_id })}
                  title={t("table.onlyPartner", { name: order.partner_name })}
                >
                  {order.partner_name}
                </a>
              </td>
              <td data-label={label("customer")} className="clip">
                <span title={order.customer_code}>{order.customer_code}</span>
              </td>
              <td data-label={label("status")}>
                <StatusBadge status={order.status} />
              </td>
              <td data-label={label("purchaseOrder")} className="clip">
                <span title={order.purchase_order_no ?? undefined}>
                  {order.purchase_order_no ?? none}
                </span>
              </td>
              <td className="number" data-label={label("amount")}>
                {formatListMoney(order.total, order.currency, i18n.language) ?? none}
              </td>
              <td data-label={label("created")}>
                {formatDateTime(order.created_at, i18n.language)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
};

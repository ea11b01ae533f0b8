import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { ScrollRegion } from "../components.js";
import { formatDateTime, formatMoney } from "../lib/format.js";
import type { OrderFilters } from "../lib/order-filter.js";
import type { ordersModule } from "../modules.js";
import { href } from "../router.js";
import { ordersHref } from "./order-filters.js";
import { StatusBadge } from "./order-status.js";
import type { Order } from "./order-types.js";

/** The order's page, remembering the list it was opened from (for "Back to orders"). */
export const orderHref = (id: string, listHref: string): string => {
  const list = listHref.split("?")[1];
  return list ? `${href("orders", id)}?${new URLSearchParams({ back: list })}` : href("orders", id);
};

/**
 * The orders of a page, each selectable for a bulk move. On a phone each row reads as a card
 * (styles.css: `.orders-table`), every cell labelled by its column's name (`data-label`).
 */
export const OrdersTable = ({
  orders,
  selected,
  allMatching,
  onSelect,
  listHref,
  filters,
}: {
  orders: Order[];
  selected: ReadonlySet<string>;
  allMatching: boolean;
  onSelect(next: ReadonlySet<string>): void;
  listHref: string;
  filters: OrderFilters;
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
      <table className="orders-table">
        <caption id="orders-caption">
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
            <th scope="col">{label("number")}</th>
            <th scope="col">{label("status")}</th>
            <th scope="col">{label("partner")}</th>
            <th scope="col">{label("customer")}</th>
            <th scope="col">{label("site")}</th>
            <th scope="col">{label("purchaseOrder")}</th>
            <th scope="col" className="number">
              {label("amount")}
            </th>
            <th scope="col" className="number">
              {label("lines")}
            </th>
            <th scope="col">{label("created")}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id} className={selected.has(order.id) ? "selected" : undefined}>
              <td className="select">
                <input
                  type="checkbox"
                  aria-label={t("bulk.selectOne", { number: order.order_number })}
                  checked={allMatching || selected.has(order.id)}
                  onChange={(e) => toggle(order.id, e.target.checked)}
                />
              </td>
              <th scope="row" data-label={label("number")}>
                <a href={orderHref(order.id, listHref)}>{order.order_number}</a>
              </th>
              <td data-label={label("status")}>
                <StatusBadge status={order.status} />
              </td>
              <td data-label={label("partner")}>
                <a
                  href={ordersHref({ ...filters, partner: order.client_id })}
                  title={t("table.onlyPartner", { name: order.partner_name })}
                >
                  {order.partner_name}
                </a>
              </td>
              <td data-label={label("customer")}>{order.customer_code}</td>
              <td data-label={label("site")}>{order.site_code}</td>
              <td data-label={label("purchaseOrder")}>{order.purchase_order_no ?? none}</td>
              <td className="number" data-label={label("amount")}>
                {formatMoney(order.total, order.currency, i18n.language) ?? none}
              </td>
              <td className="number" data-label={label("lines")}>
                {order.products.length}
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

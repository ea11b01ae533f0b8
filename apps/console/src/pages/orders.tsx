import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { Failure, PageTitle, ScrollRegion } from "../components.js";
import { formatDateTime } from "../lib/format.js";
import { filtersOf, listQuery, rangeReversed } from "../lib/order-filter.js";
import { useLoad } from "../lib/use-load.js";
import { ordersModule } from "../modules.js";
import { href, type Route } from "../router.js";
import { useSession } from "../session.js";
import { OrderFiltersForm, ordersHref } from "./order-filters.js";
import { StatusBadge } from "./order-status.js";
import type { Order } from "./order-types.js";

const PAGE_SIZE = 20;

/**
 * The tenant's orders, newest first, a page at a time, filtered. The gateway pages forward with
 * a cursor; the cursors of earlier pages travel in the URL with the filters
 * (`#/orders?status=received&after=c1,c2`), so "previous", a reload and a shared link all land
 * on the same page.
 */
const OrdersList = ({ route }: { route: Route }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { api } = useSession();
  const trail = (route.query.get("after") ?? "").split(",").filter(Boolean);
  const cursor = trail.at(-1);
  const filters = filtersOf(route.query);
  // A reversed range (typed into the URL) would match nothing: list unfiltered by date instead.
  const query = listQuery(
    rangeReversed(filters) ? { ...filters, from: undefined, to: undefined } : filters,
    PAGE_SIZE,
    cursor,
  );
  const [load, retry] = useLoad(
    () =>
      api
        .request<{ data: Order[]; next_cursor: string | null }>("GET", `/v1/orders?${query}`)
        .then((r) => r.body),
    [query],
  );
  const pageHref = (cursors: string[]) => ordersHref(filters, cursors);
  const filtered = Object.keys(filters).length > 0;

  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <OrderFiltersForm key={route.query.toString()} filters={filters} />
      {load.state === "loading" && <p role="status">{t("common:status.loading")}</p>}
      {load.state === "failed" && <Failure error={load.error} retry={retry} />}
      {load.state === "done" && load.value.data.length === 0 && trail.length === 0 && (
        <p role="status">{filtered ? t("filters.noMatch") : t("empty")}</p>
      )}
      {load.state === "done" && load.value.data.length > 0 && (
        <>
          <ScrollRegion labelledBy="orders-caption">
            <table>
              <caption id="orders-caption">{t("table.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("table.number")}</th>
                  <th scope="col">{t("table.status")}</th>
                  <th scope="col">{t("table.customer")}</th>
                  <th scope="col">{t("table.site")}</th>
                  <th scope="col">{t("table.purchaseOrder")}</th>
                  <th scope="col" className="number">
                    {t("table.lines")}
                  </th>
                  <th scope="col">{t("table.created")}</th>
                </tr>
              </thead>
              <tbody>
                {load.value.data.map((order) => (
                  <tr key={order.id}>
                    <th scope="row">
                      <a href={href("orders", order.id)}>{order.order_number}</a>
                    </th>
                    <td>
                      <StatusBadge status={order.status} />
                    </td>
                    <td>{order.customer_code}</td>
                    <td>{order.site_code}</td>
                    <td>{order.purchase_order_no ?? t("detail.none")}</td>
                    <td className="number">{order.products.length}</td>
                    <td>{formatDateTime(order.created_at, i18n.language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <nav className="pager" aria-label={t("pager.label")}>
            {trail.length > 0 ? (
              <a href={pageHref(trail.slice(0, -1))}>{t("pager.previous")}</a>
            ) : (
              <span />
            )}
            <span>{t("pager.page", { page: trail.length + 1 })}</span>
            {load.value.next_cursor ? (
              <a href={pageHref([...trail, load.value.next_cursor])}>{t("pager.next")}</a>
            ) : (
              <span />
            )}
          </nav>
        </>
      )}
    </>
  );
};

export const OrdersPage = ({ route }: { route: Route }) => (
  <EnterpriseModuleProvider module={ordersModule}>
    <OrdersList route={route} />
  </EnterpriseModuleProvider>
);

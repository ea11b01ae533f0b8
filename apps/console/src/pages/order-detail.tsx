import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { Failure, PageTitle, ScrollRegion } from "../components.js";
import { formatDateTime, formatNumber } from "../lib/format.js";
import { useLoad } from "../lib/use-load.js";
import { ordersModule } from "../modules.js";
import { href } from "../router.js";
import { useSession } from "../session.js";
import type { Order } from "./order-types.js";

const Detail = ({ id }: { id: string }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { api } = useSession();
  const [load, retry] = useLoad(
    () =>
      api
        .request<{ data: Order }>("GET", `/v1/orders/${encodeURIComponent(id)}`)
        .then((r) => r.body.data),
    [id],
  );
  const none = t("detail.none");
  return (
    <>
      <p>
        <a href={href("orders")}>{t("detail.back")}</a>
      </p>
      {load.state === "loading" && <p role="status">{t("common:status.loading")}</p>}
      {load.state === "failed" &&
        (load.error.status === 404 ? (
          <PageTitle>{t("detail.notFound")}</PageTitle>
        ) : (
          <Failure error={load.error} retry={retry} />
        ))}
      {load.state === "done" && (
        <>
          <PageTitle>{t("detail.title", { number: load.value.order_number })}</PageTitle>
          <p className="notice info">{t("readOnly")}</p>
          <section aria-labelledby="summary">
            <h2 id="summary">{t("detail.summary")}</h2>
            <dl className="facts">
              <dt>{t("table.status")}</dt>
              <dd>{t(`status.${load.value.status}`, { defaultValue: load.value.status })}</dd>
              <dt>{t("table.created")}</dt>
              <dd>{formatDateTime(load.value.created_at, i18n.language)}</dd>
              <dt>{t("table.customer")}</dt>
              <dd>{load.value.customer_code}</dd>
              <dt>{t("table.site")}</dt>
              <dd>{load.value.site_code}</dd>
              <dt>{t("table.purchaseOrder")}</dt>
              <dd>{load.value.purchase_order_no ?? none}</dd>
              <dt>{t("detail.salesName")}</dt>
              <dd>{load.value.sales_name}</dd>
              <dt>{t("detail.address")}</dt>
              <dd className="address">{load.value.address}</dd>
              <dt>{t("detail.partner")}</dt>
              <dd>
                <code>{load.value.client_id}</code>
              </dd>
            </dl>
          </section>
          <div>
            <h2 id="products">{t("detail.products")}</h2>
            <ScrollRegion labelledBy="products">
              <table>
                <thead>
                  <tr>
                    <th scope="col" className="number">
                      {t("detail.line")}
                    </th>
                    <th scope="col">{t("detail.product")}</th>
                    <th scope="col" className="number">
                      {t("detail.quantity")}
                    </th>
                    <th scope="col">{t("detail.uom")}</th>
                    <th scope="col" className="number">
                      {t("detail.unitPrice")}
                    </th>
                    <th scope="col">{t("detail.notes")}</th>
                  </tr>
                </thead>
                <tbody>
                  {load.value.products.map((line) => (
                    <tr key={line.line_no}>
                      <td className="number">{line.line_no}</td>
                      <th scope="row">{line.product_code}</th>
                      <td className="number">{formatNumber(line.quantity, i18n.language)}</td>
                      <td>{line.uom ?? none}</td>
                      <td className="number">
                        {formatNumber(line.unit_price, i18n.language) ?? none}
                      </td>
                      <td>{line.notes || none}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </div>
        </>
      )}
    </>
  );
};

export const OrderDetailPage = ({ id }: { id: string }) => (
  <EnterpriseModuleProvider module={ordersModule}>
    <Detail id={id} />
  </EnterpriseModuleProvider>
);

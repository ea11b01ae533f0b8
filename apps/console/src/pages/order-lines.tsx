import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { ScrollRegion } from "../components.js";
import { formatMoney, formatNumber, moneyScale } from "../lib/format.js";
import type { ordersModule } from "../modules.js";
import type { Order } from "./order-types.js";

/** The order's lines with their totals, and the order total, in the order's currency. */
export const OrderLines = ({ order }: { order: Order }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const none = t("detail.none");
  // One number of decimals for every amount of the order, so the columns line up.
  const scale = moneyScale(
    order.products.flatMap((l) => [
      l.unit_price === null ? null : String(l.unit_price),
      l.line_total,
    ]),
  );
  const money = (amount: string | null) =>
    formatMoney(amount, order.currency, i18n.language, scale) ?? none;
  return (
    <div>
      <h2 id="products">{t("detail.products")}</h2>
      <ScrollRegion labelledBy="products">
        <table className="stacked lines">
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
              <th scope="col" className="number">
                {t("detail.lineTotal")}
              </th>
              <th scope="col">{t("detail.notes")}</th>
            </tr>
          </thead>
          <tbody>
            {order.products.map((line) => (
              <tr key={line.line_no}>
                <td className="number" data-label={t("detail.line")}>
                  {line.line_no}
                </td>
                <th scope="row" data-label={t("detail.product")}>
                  {line.product_code}
                </th>
                <td className="number" data-label={t("detail.quantity")}>
                  {formatNumber(line.quantity, i18n.language)}
                </td>
                <td data-label={t("detail.uom")}>{line.uom ?? none}</td>
                <td className="number" data-label={t("detail.unitPrice")}>
                  {money(line.unit_price === null ? null : String(line.unit_price))}
                </td>
                <td className="number" data-label={t("detail.lineTotal")}>
                  {money(line.line_total)}
                </td>
                <td data-label={t("detail.notes")}>{line.notes || none}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={5}>
                {t("detail.total")}
              </th>
              <td className="number" data-testid="lines-total">
                {money(order.total)}
              </td>
              <td className="empty" />
            </tr>
          </tfoot>
        </table>
      </ScrollRegion>
    </div>
  );
};

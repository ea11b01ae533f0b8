import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { formatDateTime } from "../lib/format.js";
import type { ordersModule } from "../modules.js";
import { StatusBadge } from "./order-status.js";
import type { OrderChange } from "./order-types.js";

/**
 * The order's history as a timeline, oldest first: when, from → to, who, and why. A partner's
 * moves are named by the order's partner name: the gateway's history names a partner by its
 * client id (the partner API's contract), and only the order's own partner moves it.
 */
export const OrderHistory = ({
  history,
  partnerName,
}: {
  history: OrderChange[];
  partnerName: string;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const none = t("detail.none");
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">{t("history.title")}</h2>
      <ol className="timeline" data-testid="history">
        {history.map((change) => (
          <li key={`${change.at}-${change.to}`}>
            <time dateTime={change.at}>{formatDateTime(change.at, i18n.language)}</time>
            <p className="move">
              {change.from === null ? (
                <>
                  {t("history.created")} <StatusBadge status={change.to} />
                </>
              ) : (
                <>
                  <StatusBadge status={change.from} />
                  <span aria-hidden="true"> → </span>
                  <span className="visually-hidden"> {t("history.to")} </span>
                  <StatusBadge status={change.to} />
                </>
              )}
            </p>
            <p className="who">
              {change.actor.type === "partner"
                ? t("history.byPartner", { name: partnerName || (change.actor.name ?? none) })
                : t("history.byUser", { name: change.actor.name ?? none })}
            </p>
            {change.reason && (
              <p className="reason">{t("history.reason", { reason: change.reason })}</p>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
};

import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { latest, useLoad } from "./lib/use-load.js";
import { useOrderEvents } from "./lib/use-order-events.js";
import type { shellModule } from "./modules.js";
import { useSession } from "./session.js";

/**
 * "N awaiting action" beside Orders in the navigation: the received orders (what staff must
 * accept or reject), counted by the gateway and recounted when the event stream says an order
 * arrived or moved. Nothing shows while there are none, or when the count cannot be read.
 */
export const AwaitingCount = () => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof shellModule>();
  const { api } = useSession();
  const [load, reload] = useLoad(
    () =>
      api
        .request<{ total: { count: number; exact: boolean } }>(
          "GET",
          "/v1/orders?status=received&limit=1",
        )
        .then((r) => r.body.total),
    [],
  );
  useOrderEvents(reload);
  const total = latest(load);
  if (!total || total.count === 0) return null;
  const number = `${new Intl.NumberFormat(i18n.language).format(total.count)}${total.exact ? "" : "+"}`;
  return (
    <span className="awaiting" data-testid="awaiting-count">
      {" "}
      <span aria-hidden="true">{number}</span>
      <span className="visually-hidden">{t("nav.awaiting", { count: total.count, number })}</span>
    </span>
  );
};

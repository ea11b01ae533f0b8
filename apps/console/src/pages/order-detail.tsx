import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { useEffect, useRef, useState } from "react";
import { Failure, PageTitle } from "../components.js";
import { type Api, ApiError } from "../lib/api.js";
import { formatDateTime, formatMoney, orderName } from "../lib/format.js";
import { filtersOf } from "../lib/order-filter.js";
import { problemText } from "../lib/problem-text.js";
import { subscribeTenantEvents } from "../lib/tenant-events.js";
import { useLoad } from "../lib/use-load.js";
import { ordersModule } from "../modules.js";
import { href } from "../router.js";
import { useSession } from "../session.js";
import { OrderActions, type Outcome } from "./order-actions.js";
import { ordersHref } from "./order-filters.js";
import { OrderHistory } from "./order-history.js";
import { OrderLines } from "./order-lines.js";
import { StatusBadge } from "./order-status.js";
import type { OrderDetail } from "./order-types.js";

interface Versioned {
  order: OrderDetail;
  /** The ETag the gateway sent with it: what If-Match must name. */
  etag: string;
}

const readOrder = (api: Api, id: string): Promise<Versioned> =>
  api
    .request<{ data: OrderDetail }>("GET", `/v1/orders/${encodeURIComponent(id)}`)
    .then((r) => ({ order: r.body.data, etag: r.headers.get("etag") ?? "" }));

/** What the page says after an action; kept as data so it follows a language change. */
type Notice = { outcome: Outcome; number: string; now?: string };

const NoticeText = ({ notice }: { notice: Notice }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { outcome, number } = notice;
  const word = (status: string) => t(`status.${status}`, { defaultValue: status });
  switch (outcome.kind) {
    case "moved":
      return <>{t(`actions.done.${outcome.action}`, { number })}</>;
    case "stale":
      return <>{t("actions.stale", { number, status: word(notice.now ?? "") })}</>;
    case "invalid":
      return (
        <>
          {outcome.next.length === 0
            ? t("actions.invalidFinal", { status: word(outcome.status) })
            : t("actions.invalid", {
                status: word(outcome.status),
                next: new Intl.ListFormat(i18n.language, { type: "disjunction" }).format(
                  outcome.next.map(word),
                ),
              })}
        </>
      );
    case "failed":
      return <>{problemText(outcome.error, t)}</>;
  }
};

/** The list the order was opened from (its filters and page), or the first page. */
const backHref = (back: string | null): string => {
  if (!back) return href("orders");
  const query = new URLSearchParams(back);
  return ordersHref(filtersOf(query), (query.get("after") ?? "").split(",").filter(Boolean));
};

const Detail = ({ id, back }: { id: string; back: string | null }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { api } = useSession();
  const [load, retry] = useLoad(() => readOrder(api, id), [id]);
  // The order as last read or changed by an action here; replaces the first load.
  const [fresh, setFresh] = useState<Versioned | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  // After an action the buttons change under the user's focus: take it to what happened.
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  // Moved elsewhere (another tab, a colleague, the partner): read it again, so the status,
  // the actions offered and the ETag they send are the order's as it is now.
  useEffect(
    () =>
      subscribeTenantEvents((event) => {
        const moved = (event.data as { order?: { id?: string } } | null)?.order?.id;
        if (!event.type.startsWith("order.") || moved !== id) return;
        readOrder(api, id).then(setFresh, () => undefined);
      }),
    [api, id],
  );

  const current = fresh ?? (load.state === "done" ? load.value : null);

  const onOutcome = async (outcome: Outcome) => {
    const number = current ? orderName(current.order) : "";
    if (outcome.kind === "moved") {
      setFresh({ order: outcome.order, etag: outcome.etag });
      setNotice({ outcome, number });
      return;
    }
    if (outcome.kind === "failed") {
      setNotice({ outcome, number });
      return;
    }
    // Stale or no longer allowed: someone changed the order; show it as it is now.
    try {
      const now = await readOrder(api, id);
      setFresh(now);
      setNotice({ outcome, number, now: now.order.status });
    } catch (error) {
      const problem = error instanceof ApiError ? error : new ApiError(0, "client", String(error));
      setNotice({ outcome: { kind: "failed", action: outcome.action, error: problem }, number });
    }
  };

  const none = t("detail.none");
  const order = current?.order;
  const failed = notice !== null && notice.outcome.kind !== "moved";
  return (
    <>
      <p>
        <a href={backHref(back)}>{t("detail.back")}</a>
      </p>
      {load.state === "loading" && <p role="status">{t("common:status.loading")}</p>}
      {load.state === "failed" &&
        (load.error.status === 404 ? (
          <PageTitle>{t("detail.notFound")}</PageTitle>
        ) : (
          <Failure error={load.error} retry={retry} />
        ))}
      {current && order && (
        <>
          <PageTitle>{t("detail.title", { number: orderName(order) })}</PageTitle>
          <div
            role="status"
            tabIndex={-1}
            ref={failed ? undefined : noticeRef}
            className={notice && !failed ? "notice success" : undefined}
            data-testid="order-done"
          >
            {notice && !failed && <NoticeText notice={notice} />}
          </div>
          {notice && failed && (
            <div
              role="alert"
              tabIndex={-1}
              ref={noticeRef}
              className="notice error"
              data-testid="order-problem"
            >
              <NoticeText notice={notice} />
            </div>
          )}
          <section aria-labelledby="summary">
            <h2 id="summary">{t("detail.summary")}</h2>
            <dl className="facts">
              <dt>{t("table.status")}</dt>
              <dd data-testid="order-status">
                <StatusBadge status={order.status} />
              </dd>
              <dt>{t("table.created")}</dt>
              <dd>{formatDateTime(order.created_at, i18n.language)}</dd>
              <dt>{t("table.customer")}</dt>
              <dd>{order.customer_code}</dd>
              <dt>{t("table.site")}</dt>
              <dd>{order.site_code}</dd>
              <dt>{t("table.purchaseOrder")}</dt>
              <dd>{order.purchase_order_no ?? none}</dd>
              <dt>{t("detail.salesName")}</dt>
              <dd>{order.sales_name}</dd>
              <dt>{t("detail.address")}</dt>
              <dd className="address">{order.address}</dd>
              <dt>{t("table.partner")}</dt>
              <dd>{order.partner_name}</dd>
              <dt>{t("detail.partner")}</dt>
              <dd>
                <code>{order.client_id}</code>
              </dd>
              <dt>{t("detail.total")}</dt>
              <dd data-testid="order-total">
                {formatMoney(order.total, order.currency, i18n.language) ?? none}
              </dd>
            </dl>
          </section>
          <OrderActions
            order={order}
            etag={current.etag}
            onOutcome={(outcome) => void onOutcome(outcome)}
          />
          <OrderLines order={order} />
          <OrderHistory history={order.history} partnerName={order.partner_name} />
        </>
      )}
    </>
  );
};

export const OrderDetailPage = ({ id, back }: { id: string; back: string | null }) => (
  <EnterpriseModuleProvider module={ordersModule}>
    <Detail id={id} back={back} />
  </EnterpriseModuleProvider>
);

import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { useId } from "react";
import { Failure, ScrollRegion } from "../components.js";
import { formatDateTime } from "../lib/format.js";
import { useLoad } from "../lib/use-load.js";
import type { webhooksModule } from "../modules.js";
import { useSession } from "../session.js";
import type { Attempt, Endpoint } from "./webhook-types.js";

const LIMIT = 20;

/** An endpoint's latest delivery attempts, newest first, each event with a resend button. */
export const WebhookDeliveries = ({
  base,
  endpoint,
  onResend,
  onRefresh,
}: {
  /** The endpoint's API path. */
  base: string;
  endpoint: Endpoint;
  onResend(eventId: string): Promise<void>;
  /** The endpoint's own facts (last success, failing since) change with its deliveries. */
  onRefresh(): void;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof webhooksModule>();
  const { api } = useSession();
  const id = useId();
  const [load, reload] = useLoad(
    () =>
      api
        .request<{ data: Attempt[] }>("GET", `${base}/deliveries?limit=${LIMIT}`)
        .then((r) => r.body.data),
    [base],
  );
  const none = "—";
  return (
    <div className="deliveries">
      {load.state === "loading" && <p role="status">{t("common:status.loading")}</p>}
      {load.state === "failed" && <Failure error={load.error} retry={reload} />}
      {load.state === "done" && load.value.length === 0 && <p>{t("deliveries.empty")}</p>}
      {load.state === "done" && load.value.length > 0 && (
        <ScrollRegion labelledBy={`${id}-caption`}>
          <table className="stacked">
            <caption id={`${id}-caption`}>{t("deliveries.caption", { url: endpoint.url })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("deliveries.at")}</th>
                <th scope="col">{t("deliveries.event")}</th>
                <th scope="col" className="number">
                  {t("deliveries.attempt")}
                </th>
                <th scope="col">{t("deliveries.result")}</th>
                <th scope="col" className="number">
                  {t("deliveries.response")}
                </th>
                <th scope="col" className="number">
                  {t("deliveries.duration")}
                </th>
                <th scope="col">{t("deliveries.error")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("deliveries.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {load.value.map((attempt) => (
                <tr key={attempt.id}>
                  <td data-label={t("deliveries.at")}>
                    {formatDateTime(attempt.attempted_at, i18n.language)}
                  </td>
                  <th scope="row" data-label={t("deliveries.event")}>
                    {attempt.event_type}
                    <br />
                    <code>{attempt.event_id}</code>
                  </th>
                  <td className="number" data-label={t("deliveries.attempt")}>
                    {attempt.attempt}
                  </td>
                  <td data-label={t("deliveries.result")}>
                    <span
                      className={`badge ${attempt.status === "succeeded" ? "status-accepted" : "status-rejected"}`}
                    >
                      {t(`deliveries.${attempt.status}`)}
                    </span>
                  </td>
                  <td className="number" data-label={t("deliveries.response")}>
                    {attempt.response_status ?? none}
                  </td>
                  <td className="number" data-label={t("deliveries.duration")}>
                    {t("deliveries.ms", { ms: attempt.duration_ms })}
                  </td>
                  <td className="error-text" data-label={t("deliveries.error")}>
                    <span lang="en">{attempt.error ?? none}</span>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="secondary"
                      onClick={() => void onResend(attempt.event_id).then(reload)}
                    >
                      {t("deliveries.resend")}
                      <span className="visually-hidden"> {attempt.event_id}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <p>
        <button
          type="button"
          className="link"
          onClick={() => {
            reload();
            onRefresh();
          }}
        >
          {t("deliveries.refresh")}
        </button>
      </p>
    </div>
  );
};

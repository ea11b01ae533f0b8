import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { ApiError } from "../lib/api.js";
import type { OrderAction } from "../lib/lifecycle.js";
import { apiFilter, type OrderFilters } from "../lib/order-filter.js";
import type { ordersModule } from "../modules.js";
import { useSession } from "../session.js";
import { ReasonDialog } from "./order-actions.js";
import type { BulkOutcome } from "./order-types.js";

const BULK_ACTIONS: readonly OrderAction[] = ["accept", "fulfil", "reject", "cancel"];
const NEEDS_REASON: ReadonlySet<OrderAction> = new Set(["reject", "cancel"]);

/** Which orders a bulk move names: the selected ones, or all matching the list's filters. */
export type BulkTarget = { ids: string[] } | { filter: OrderFilters; count: number };

const countOf = (target: BulkTarget) => ("ids" in target ? target.ids.length : target.count);

/**
 * The actions for several orders at once. Reject and cancel ask for one reason in the
 * console's dialog; the gateway answers one result per order, which `onDone` shows.
 */
export const BulkBar = ({
  target,
  onDone,
}: {
  target: BulkTarget;
  onDone(outcome: BulkOutcome | ApiError): void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { api, profile } = useSession();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<OrderAction | null>(null);
  const [draft, setDraft] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const count = countOf(target);

  const perform = async (action: OrderAction, reason?: string) => {
    setBusy(true);
    try {
      const { body } = await api.request<BulkOutcome>("POST", "/v1/tenant/orders/bulk", {
        body: {
          action,
          ...(reason === undefined ? {} : { reason }),
          ...("ids" in target ? { ids: target.ids } : { filter: apiFilter(target.filter) }),
        },
      });
      onDone(body);
    } catch (cause) {
      onDone(cause instanceof ApiError ? cause : new ApiError(0, "client", String(cause)));
    } finally {
      setBusy(false);
    }
  };

  const submitReason = async (event: FormEvent<HTMLFormElement>, close: () => void) => {
    event.preventDefault();
    if (!asking) return;
    const reason = draft.trim();
    if (reason === "") {
      setFieldError(t("dialog.reasonMissing"));
      (event.currentTarget.elements.namedItem("reason") as HTMLTextAreaElement).focus();
      return;
    }
    close();
    await perform(asking, reason);
    setDraft("");
  };

  const offered = BULK_ACTIONS.filter((a) => a !== "cancel" || profile?.role === "admin");
  return (
    <section className="bulk-bar" aria-labelledby="bulk-title">
      <h2 id="bulk-title" className="visually-hidden">
        {t("bulk.title")}
      </h2>
      <p role="status">{t("bulk.selected", { count })}</p>
      <p className="buttons">
        {offered.map((action) => (
          <button
            key={action}
            type="button"
            className={NEEDS_REASON.has(action) ? "secondary" : undefined}
            disabled={busy || count === 0}
            onClick={() => {
              if (!NEEDS_REASON.has(action)) return void perform(action);
              setFieldError(null);
              setAsking(action);
            }}
          >
            {t(`bulk.${action}`, { count })}
          </button>
        ))}
      </p>
      {asking && (
        <ReasonDialog
          action={asking}
          number=""
          title={t(`bulk.dialog.${asking}`, { count })}
          confirm={t(`bulk.${asking}`, { count })}
          draft={draft}
          error={fieldError}
          busy={busy}
          onDraft={setDraft}
          onSubmit={(event, close) => void submitReason(event, close)}
          onClose={() => setAsking(null)}
        />
      )}
    </section>
  );
};

/** What a bulk move did, per order: successes counted, each refusal named with its reason. */
export const BulkSummary = ({
  outcome,
  numbers,
}: {
  outcome: BulkOutcome;
  numbers: ReadonlyMap<string, string>;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { summary } = outcome;
  const failed = outcome.results.filter((r) => r.outcome === "failed");
  const word = (status: string | undefined) =>
    status ? t(`status.${status}`, { defaultValue: status }) : "";
  return (
    <div className={`notice ${failed.length > 0 ? "error" : "success"}`} data-testid="bulk-summary">
      <p>
        {t(`bulk.done.${outcome.action}`, { count: summary.moved })}
        {summary.unchanged > 0 && ` ${t("bulk.unchanged", { count: summary.unchanged })}`}
        {failed.length > 0 && ` ${t("bulk.failed", { count: failed.length })}`}
        {outcome.more_matching && ` ${t("bulk.more")}`}
      </p>
      {failed.length > 0 && (
        <ul>
          {failed.map((r) => {
            const number = numbers.get(r.id) ?? r.id;
            return (
              <li key={r.id}>
                {r.problem?.code === "order_transition_invalid"
                  ? t("bulk.why.status", { number, status: word(r.problem.current_status) })
                  : r.problem?.code === "order_not_found"
                    ? t("bulk.why.missing", { number })
                    : t("bulk.why.other", { number, detail: r.problem?.detail ?? "" })}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
};

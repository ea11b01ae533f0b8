import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Dialog } from "../dialog.js";
import { ApiError } from "../lib/api.js";
import { orderName } from "../lib/format.js";
import { type OrderAction, TRANSITIONS } from "../lib/lifecycle.js";
import { apiFilter, type OrderFilters } from "../lib/order-filter.js";
import type { ordersModule } from "../modules.js";
import { useSession } from "../session.js";
import { ReasonDialog } from "./order-actions.js";
import type { BulkOutcome, Order } from "./order-types.js";

const BULK_ACTIONS: readonly OrderAction[] = ["accept", "fulfil", "reject", "cancel"];
const NEEDS_REASON: ReadonlySet<OrderAction> = new Set(["reject", "cancel"]);
/**
 * More orders than a default page: a move without a reason asks first (a reason's dialog
 * already does), since it reaches orders the user has not seen.
 */
const CONFIRM_FROM = 21;

/**
 * Which orders a bulk move names: the selected ones (with their statuses), or all matching the
 * list's filters (`count` as the listing counted them, `exact` false for "1,000+").
 */
export type BulkTarget =
  | { orders: readonly Pick<Order, "id" | "status">[] }
  | { filter: OrderFilters; count: number; exact: boolean };

/** One action as the bar offers it: how many orders it moves, and which (selected ones). */
interface Offer {
  action: OrderAction;
  count: number;
  atLeast: boolean;
  ids?: string[];
}

/**
 * The moves the target's statuses allow, each with the orders it would move: a selection of
 * Received and Accepted orders offers "Accept 3" for the three received, never a move that
 * would only fail. All matching needs the list filtered by one status (else it is unknown
 * which orders a move would reach).
 */
const offersFor = (target: BulkTarget, role: string | undefined): Offer[] => {
  const actions = BULK_ACTIONS.filter((a) => a !== "cancel" || role === "admin");
  const allows = (action: OrderAction, status: string) =>
    (TRANSITIONS[action].from as readonly string[]).includes(status);
  if ("orders" in target)
    return actions
      .map((action) => {
        const ids = target.orders.filter((o) => allows(action, o.status)).map((o) => o.id);
        return { action, count: ids.length, atLeast: false, ids };
      })
      .filter((offer) => offer.count > 0);
  const status = target.filter.status;
  if (!status) return [];
  return actions
    .filter((action) => allows(action, status))
    .map((action) => ({ action, count: target.count, atLeast: !target.exact }));
};

/** Two answers of one move in batches, as one. */
const merged = (a: BulkOutcome | undefined, b: BulkOutcome): BulkOutcome =>
  a === undefined
    ? b
    : {
        action: b.action,
        results: [...a.results, ...b.results],
        summary: {
          requested: a.summary.requested + b.summary.requested,
          moved: a.summary.moved + b.summary.moved,
          unchanged: a.summary.unchanged + b.summary.unchanged,
          failed: a.summary.failed + b.summary.failed,
        },
        more_matching: b.more_matching,
      };

/**
 * The actions for several orders at once. Reject and cancel ask for one reason in the
 * console's dialog, a large move without a reason asks first; the gateway moves at most 200 a
 * request, so "all matching" runs batch after batch (its orders leave the filtered status as
 * they move) with its progress said, until none is left or a batch moves none.
 */
export const BulkBar = ({
  target,
  onDone,
}: {
  target: BulkTarget;
  onDone(outcome: BulkOutcome | ApiError): void;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { api, profile } = useSession();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [asking, setAsking] = useState<Offer | null>(null);
  const [confirming, setConfirming] = useState<Offer | null>(null);
  const [draft, setDraft] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const offers = offersFor(target, profile?.role);
  const selected = "orders" in target ? target.orders.length : target.count;
  const number = (offer: Offer) => new Intl.NumberFormat(i18n.language).format(offer.count);
  const label = (offer: Offer) =>
    offer.atLeast
      ? t(`bulk.atLeast.${offer.action}`, { number: number(offer) })
      : t(`bulk.${offer.action}`, { count: offer.count });

  const perform = async (offer: Offer, reason?: string) => {
    setBusy(true);
    const post = async () =>
      (
        await api.request<BulkOutcome>("POST", "/v1/tenant/orders/bulk", {
          body: {
            action: offer.action,
            ...(reason === undefined ? {} : { reason }),
            ...(offer.ids
              ? { ids: offer.ids }
              : { filter: apiFilter((target as { filter: OrderFilters }).filter) }),
          },
        })
      ).body;
    try {
      let outcome: BulkOutcome | undefined;
      let batch: BulkOutcome;
      do {
        batch = await post();
        outcome = merged(outcome, batch);
        setProgress(outcome.summary.moved + outcome.summary.unchanged + outcome.summary.failed);
      } while (!offer.ids && batch.more_matching && batch.summary.moved > 0);
      onDone(outcome);
    } catch (cause) {
      onDone(cause instanceof ApiError ? cause : new ApiError(0, "client", String(cause)));
    } finally {
      setBusy(false);
      setProgress(null);
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

  return (
    <section className="bulk-bar" aria-labelledby="bulk-title">
      <h2 id="bulk-title" className="visually-hidden">
        {t("bulk.title")}
      </h2>
      <p role="status">
        {progress === null
          ? t("bulk.selected", { count: selected })
          : t("bulk.progress", {
              done: new Intl.NumberFormat(i18n.language).format(progress),
              total: `${new Intl.NumberFormat(i18n.language).format(selected)}${"orders" in target || target.exact ? "" : "+"}`,
            })}
      </p>
      {offers.length === 0 && !("orders" in target) && <p>{t("bulk.needStatus")}</p>}
      <p className="buttons">
        {offers.map((offer) => (
          <button
            key={offer.action}
            type="button"
            className={NEEDS_REASON.has(offer.action) ? "secondary" : undefined}
            disabled={busy}
            onClick={() => {
              if (NEEDS_REASON.has(offer.action)) {
                setFieldError(null);
                setAsking(offer);
              } else if (offer.count >= CONFIRM_FROM || offer.atLeast) setConfirming(offer);
              else void perform(offer);
            }}
          >
            {label(offer)}
          </button>
        ))}
      </p>
      {!("orders" in target) && target.count > 200 && offers.length > 0 && (
        <p className="hint">{t("bulk.batches")}</p>
      )}
      {confirming && (
        <Dialog
          title={t("bulk.confirm", { count: confirming.count })}
          onClose={() => setConfirming(null)}
        >
          {(close) => (
            <p className="buttons">
              <button type="button" className="secondary" onClick={close}>
                {t("common:confirm.keep")}
              </button>
              <button
                type="button"
                onClick={() => {
                  const offer = confirming;
                  close();
                  void perform(offer);
                }}
              >
                {label(confirming)}
              </button>
            </p>
          )}
        </Dialog>
      )}
      {asking && (
        <ReasonDialog
          action={asking.action}
          number=""
          title={t(`bulk.dialog.${asking.action}`, { count: asking.count })}
          confirm={label(asking)}
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
  // The selection and its buttons are gone after a move: the focus goes to what happened.
  const ref = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new outcome takes the focus.
  useEffect(() => ref.current?.focus(), [outcome]);
  return (
    <div
      ref={ref}
      role="status"
      tabIndex={-1}
      className={`notice ${failed.length > 0 ? "error" : "success"}`}
      data-testid="bulk-summary"
    >
      <p>
        {t(`bulk.done.${outcome.action}`, { count: summary.moved })}
        {summary.unchanged > 0 && ` ${t("bulk.unchanged", { count: summary.unchanged })}`}
        {failed.length > 0 && ` ${t("bulk.failed", { count: failed.length })}`}
        {outcome.more_matching && ` ${t("bulk.more")}`}
      </p>
      {failed.length > 0 && (
        <ul>
          {failed.map((r) => {
            const number = r.order ? orderName(r.order) : (numbers.get(r.id) ?? r.id);
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

import { INPUT_LIMITS } from "@orderline/gateway/contract";
import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type FormEvent, useId, useState } from "react";
import { Dialog } from "../dialog.js";
import { ApiError } from "../lib/api.js";
import { orderName } from "../lib/format.js";
import { actionsFrom, type OrderAction } from "../lib/lifecycle.js";
import { fieldProblems, problemText } from "../lib/problem-text.js";
import type { ordersModule } from "../modules.js";
import { useSession } from "../session.js";
import { firstOverLimit, TextField } from "../text-field.js";
import type { OrderDetail } from "./order-types.js";

const REASON_MAX = INPUT_LIMITS.orderReason;

/** What became of an action, for the page to show (and to read the order again if stale). */
export type Outcome =
  | { kind: "moved"; action: OrderAction; order: OrderDetail; etag: string }
  | { kind: "stale"; action: OrderAction }
  | { kind: "invalid"; action: OrderAction; status: string; next: string[] }
  | { kind: "failed"; action: OrderAction; error: ApiError };

/**
 * The buttons of the actions the order's status allows, for the user's role. Reject and cancel
 * ask for a reason in a dialog; every action sends the ETag read with the order as If-Match, so
 * nobody acts on an order someone else changed meanwhile.
 */
export const OrderActions = ({
  order,
  etag,
  onOutcome,
}: {
  order: OrderDetail;
  etag: string;
  onOutcome(outcome: Outcome): void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const { api, profile } = useSession();
  const [busy, setBusy] = useState<OrderAction | null>(null);
  const [asking, setAsking] = useState<OrderAction | null>(null);
  // Reasons typed so far, per action: a refused or stale attempt loses nothing.
  const [drafts, setDrafts] = useState<Partial<Record<OrderAction, string>>>({});
  const [fieldError, setFieldError] = useState<string | null>(null);
  if (!profile) return null;
  const offered = actionsFrom(order.status, profile.role);

  /**
   * Sends the action. Answers what became of it, or a message for the reason field when the
   * gateway refused the reason itself.
   */
  const perform = async (action: OrderAction, reason?: string): Promise<Outcome | string> => {
    setBusy(action);
    try {
      const { body, headers } = await api.request<{ data: OrderDetail }>(
        "POST",
        `/v1/orders/${encodeURIComponent(order.id)}/${action}`,
        { headers: { "if-match": etag }, ...(reason === undefined ? {} : { body: { reason } }) },
      );
      setDrafts((all) => ({ ...all, [action]: undefined }));
      return { kind: "moved", action, order: body.data, etag: headers.get("etag") ?? "" };
    } catch (cause) {
      const error = cause instanceof ApiError ? cause : new ApiError(0, "client", String(cause));
      if (error.code === "validation_failed" && reason !== undefined)
        return fieldProblems(error, t).get("reason") ?? problemText(error, t);
      if (error.code === "order_version_mismatch") return { kind: "stale", action };
      if (error.code === "order_transition_invalid") {
        const next = error.body.allowed_next;
        return {
          kind: "invalid",
          action,
          status: String(error.body.current_status ?? ""),
          next: Array.isArray(next) ? next.map(String) : [],
        };
      }
      return { kind: "failed", action, error };
    } finally {
      setBusy(null);
    }
  };

  const submitReason = async (event: FormEvent<HTMLFormElement>, close: () => void) => {
    event.preventDefault();
    if (!asking) return;
    const reason = (drafts[asking] ?? "").trim();
    const field = event.currentTarget.elements.namedItem("reason") as HTMLTextAreaElement;
    if (firstOverLimit(event.currentTarget)) return;
    if (reason === "") {
      setFieldError(t("dialog.reasonMissing"));
      field.focus();
      return;
    }
    setFieldError(null);
    const outcome = await perform(asking, reason);
    if (typeof outcome === "string") {
      setFieldError(outcome);
      field.focus();
      return;
    }
    // Close first: the dialog gives focus back to its button, then the page moves it on.
    close();
    onOutcome(outcome);
  };

  const restricted = offered.filter((o) => !o.permitted);
  return (
    <section aria-labelledby="actions-title" className="order-actions">
      <h2 id="actions-title">{t("actions.title")}</h2>
      {offered.length === 0 && <p>{t("actions.final", { status: t(`status.${order.status}`) })}</p>}
      <p className="buttons">
        {offered
          .filter((o) => o.permitted)
          .map(({ action, reasonRequired }) => (
            <button
              key={action}
              type="button"
              // Reject and cancel end the order: a destructive look, never the look of Accept.
              className={
                action === "reject" || action === "cancel" ? "secondary danger" : undefined
              }
              disabled={busy !== null}
              onClick={() => {
                if (!reasonRequired) {
                  void perform(action).then((outcome) => {
                    if (typeof outcome !== "string") onOutcome(outcome);
                  });
                  return;
                }
                setFieldError(null);
                setAsking(action);
              }}
            >
              {t(`actions.${action}`)}
            </button>
          ))}
      </p>
      {restricted.length > 0 && <p className="hint">{t("actions.adminOnly")}</p>}
      {asking && (
        <ReasonDialog
          action={asking}
          number={orderName(order)}
          draft={drafts[asking] ?? ""}
          error={fieldError}
          busy={busy !== null}
          onDraft={(text) => setDrafts((all) => ({ ...all, [asking]: text }))}
          onSubmit={submitReason}
          onClose={() => {
            setAsking(null);
            setFieldError(null);
          }}
        />
      )}
    </section>
  );
};

/** Asks for the reason of a reject or cancel (one order, or several: `title` and `confirm`). */
export const ReasonDialog = ({
  action,
  number,
  title,
  confirm,
  draft,
  error,
  busy,
  onDraft,
  onSubmit,
  onClose,
}: {
  action: OrderAction;
  number: string;
  title?: string;
  confirm?: string;
  draft: string;
  error: string | null;
  busy: boolean;
  onDraft(text: string): void;
  onSubmit(event: FormEvent<HTMLFormElement>, close: () => void): void;
  onClose(): void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof ordersModule>();
  const id = useId();
  return (
    <Dialog title={title ?? t(`dialog.${action}.title`, { number })} onClose={onClose}>
      {(close) => (
        <form className="stack" noValidate onSubmit={(event) => onSubmit(event, close)}>
          <TextField
            id={`${id}-reason`}
            name="reason"
            control="textarea"
            className="prose"
            rows={4}
            label={t("dialog.reason")}
            limit={REASON_MAX}
            aria-required="true"
            hint={t("dialog.reasonHint", { count: REASON_MAX })}
            error={error}
            value={draft}
            onValue={onDraft}
          />
          <p className="buttons">
            <button type="submit" className="danger" disabled={busy}>
              {confirm ?? t(`dialog.${action}.confirm`)}
            </button>
            <button type="button" className="secondary" onClick={close}>
              {t("dialog.back")}
            </button>
          </p>
        </form>
      )}
    </Dialog>
  );
};

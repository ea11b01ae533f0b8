import { INPUT_LIMITS } from "@orderline/gateway/contract";
import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type FormEvent, useId, useState } from "react";
import { ApiError } from "../lib/api.js";
import { fieldProblems, problemText } from "../lib/problem-text.js";
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from "../lib/webhook-events.js";
import type { webhooksModule } from "../modules.js";
import { firstOverLimit, TextField } from "../text-field.js";

/** `order.accepted` → `accepted`: the dictionary key of an event type's name. */
export const eventKey = (type: string) => `event.${type.replace(/^order\./, "")}`;

interface EndpointFields {
  url: string;
  events: string[];
}

/**
 * Its partner's name, unseen, in a heading that names a landmark: the partners page has one
 * such region and form on every partner's card, each then named apart.
 */
export const OfPartner = ({ name }: { name: string }) => (
  <span className="visually-hidden"> ({name})</span>
);

/**
 * An endpoint's receiver URL and events: the form that adds one and the one that edits one
 * (`initial`: its current values; kept on screen after saving, where adding clears it).
 */
export const EndpointForm = ({
  title,
  partnerName,
  submitLabel,
  initial,
  onSubmit,
  onCancel,
}: {
  title: string;
  /** The partner's, when the title alone repeats on the page (the form that adds one). */
  partnerName?: string;
  submitLabel: string;
  initial?: EndpointFields;
  onSubmit(fields: EndpointFields): Promise<void>;
  onCancel?(): void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof webhooksModule>();
  const id = useId();
  const [all, setAll] = useState(initial ? initial.events.includes(ALL_EVENTS) : true);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(
    new Set(initial?.events.filter((e) => e !== ALL_EVENTS) ?? []),
  );
  const [error, setError] = useState<{ field: "url" | "events"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (firstOverLimit(form)) return;
    const url = String(new FormData(form).get("url") ?? "").trim();
    const events = all ? [ALL_EVENTS] : WEBHOOK_EVENT_TYPES.filter((e) => chosen.has(e));
    if (events.length === 0) {
      setError({ field: "events", text: t("add.eventsMissing") });
      document.getElementById(`${id}-all`)?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await onSubmit({ url, events });
      if (!initial) {
        form.reset();
        setAll(true);
        setChosen(new Set());
      }
    } catch (cause) {
      const fields = fieldProblems(cause, t);
      const events =
        fields.has("events") ||
        (cause instanceof ApiError && cause.code === "webhook_events_invalid");
      const field = events ? "events" : "url";
      setError({ field, text: fields.get(field) ?? problemText(cause, t) });
      document.getElementById(field === "url" ? `${id}-url` : `${id}-all`)?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="stack add-endpoint"
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <h4 id={`${id}-title`}>
        {title}
        {partnerName && <OfPartner name={partnerName} />}
      </h4>
      <TextField
        id={`${id}-url`}
        name="url"
        type="url"
        label={t("add.url")}
        limit={INPUT_LIMITS.webhookUrl}
        required
        spellCheck={false}
        placeholder="https://"
        hint={t("add.urlHint")}
        error={error?.field === "url" ? error.text : null}
        {...(initial ? { defaultValue: initial.url } : {})}
      />
      <fieldset
        className="events"
        aria-invalid={error?.field === "events" ? true : undefined}
        aria-describedby={error?.field === "events" ? `${id}-events-error` : undefined}
      >
        <legend>{t("add.events")}</legend>
        <label>
          <input
            id={`${id}-all`}
            type="checkbox"
            checked={all}
            onChange={(event) => setAll(event.target.checked)}
          />{" "}
          {t("event.all")}
        </label>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type}>
            <input
              type="checkbox"
              value={type}
              disabled={all}
              checked={all || chosen.has(type)}
              onChange={(event) => {
                const next = new Set(chosen);
                if (event.target.checked) next.add(type);
                else next.delete(type);
                setChosen(next);
              }}
            />{" "}
            {t(eventKey(type))} <code>{type}</code>
          </label>
        ))}
        {error?.field === "events" && (
          <small id={`${id}-events-error`} className="field-error">
            {error.text}
          </small>
        )}
      </fieldset>
      <p className="buttons">
        <button type="submit" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            {t("edit.cancel")}
          </button>
        )}
      </p>
    </form>
  );
};

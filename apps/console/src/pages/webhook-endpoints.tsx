import { INPUT_LIMITS } from "@orderline/gateway/contract";
import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useId, useState } from "react";
import { ActionButton } from "../action-button.js";
import { Failure } from "../components.js";
import { ApiError } from "../lib/api.js";
import { disabledReasonText } from "../lib/disabled-reason.js";
import { formatDateTime } from "../lib/format.js";
import { fieldProblems, problemText } from "../lib/problem-text.js";
import type { Said } from "../lib/said.js";
import { latest, useLoad } from "../lib/use-load.js";
import { ALL_EVENTS, WEBHOOK_EVENT_TYPES } from "../lib/webhook-events.js";
import { webhooksModule } from "../modules.js";
import { SecretOnce } from "../secret-once.js";
import { useSession } from "../session.js";
import { firstOverLimit, TextField } from "../text-field.js";
import { WebhookDeliveries } from "./webhook-deliveries.js";
import type { Endpoint } from "./webhook-types.js";

/** `order.accepted` → `accepted`: the dictionary key of an event type's name. */
const eventKey = (type: string) => `event.${type.replace(/^order\./, "")}`;

interface ShownSecret {
  endpoint: Endpoint;
  secret: string;
  previousValidUntil: string | null;
}

const EndpointItem = ({
  base,
  endpoint,
  onChanged,
  onSecret,
  onFailed,
}: {
  base: string;
  endpoint: Endpoint;
  onChanged(said: Said | null): void;
  onSecret(secret: ShownSecret): void;
  onFailed(text: string): void;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof webhooksModule>();
  const { api } = useSession();
  const id = useId();
  const [open, setOpen] = useState(false);
  const path = `${base}/${encodeURIComponent(endpoint.id)}`;
  const url = endpoint.url;
  const act = async (run: () => Promise<Said | null | undefined>) => {
    try {
      const said = await run();
      if (said !== undefined) onChanged(said);
    } catch (error) {
      onFailed(problemText(error, t));
    }
  };
  const context = <span className="visually-hidden"> {t("actions.endpoint", { url })}</span>;
  const why = endpoint.disabled_reason ? disabledReasonText(endpoint.disabled_reason, t) : null;
  return (
    <article className="endpoint" aria-labelledby={`${id}-url`}>
      <h4 id={`${id}-url`}>
        <code>{url}</code>{" "}
        <span className={`badge ${endpoint.enabled ? "status-accepted" : "status-cancelled"}`}>
          {t(endpoint.enabled ? "state.enabled" : "state.disabled")}
        </span>
      </h4>
      <dl className="facts">
        <dt>{t("list.events")}</dt>
        <dd>
          {endpoint.events.includes(ALL_EVENTS)
            ? t("list.allEvents")
            : endpoint.events.map((type) => t(eventKey(type), { defaultValue: type })).join(", ")}
        </dd>
        {!endpoint.enabled && endpoint.disabled_reason && (
          <>
            <dt>{t("list.why")}</dt>
            <dd data-testid="disabled-reason" lang={why?.lang}>
              {why?.text}
            </dd>
          </>
        )}
        <dt>{t("list.lastSuccess")}</dt>
        <dd>
          {endpoint.last_success_at
            ? formatDateTime(endpoint.last_success_at, i18n.language)
            : t("list.never")}
        </dd>
        {endpoint.failing_since && (
          <>
            <dt>{t("list.failingSince")}</dt>
            <dd className="status-disabled">
              {formatDateTime(endpoint.failing_since, i18n.language)}
            </dd>
          </>
        )}
        <dt>{t("list.created")}</dt>
        <dd>{formatDateTime(endpoint.created_at, i18n.language)}</dd>
      </dl>
      <p className="buttons">
        <ActionButton
          danger={endpoint.enabled}
          confirm={endpoint.enabled ? t("actions.disableConfirm", { url }) : undefined}
          onRun={() =>
            void act(async () => {
              const disable = endpoint.enabled;
              await api.request("PATCH", path, { body: { enabled: !disable } });
              return { key: disable ? "done.disabled" : "done.enabled", values: { url } };
            })
          }
        >
          {t(endpoint.enabled ? "actions.disable" : "actions.enable")}
          {context}
        </ActionButton>
        <ActionButton
          confirm={t("actions.rotateConfirm", { url })}
          onRun={() =>
            void act(async () => {
              const { body } = await api.request<{
                data: { secret: string; previous_valid_until: string | null };
              }>("POST", `${path}/secret`);
              onSecret({
                endpoint,
                secret: body.data.secret,
                previousValidUntil: body.data.previous_valid_until,
              });
              return null;
            })
          }
        >
          {t("actions.rotate")}
          {context}
        </ActionButton>
        <button
          type="button"
          className="secondary"
          aria-expanded={open}
          aria-controls={`${id}-deliveries`}
          onClick={() => setOpen((now) => !now)}
        >
          {t("actions.deliveries")}
          {context}
        </button>
        <ActionButton
          danger
          confirm={t("actions.deleteConfirm", { url })}
          onRun={() =>
            void act(async () => {
              await api.request("DELETE", path);
              return { key: "done.deleted", values: { url } };
            })
          }
        >
          {t("actions.delete")}
          {context}
        </ActionButton>
      </p>
      <div id={`${id}-deliveries`}>
        {open && (
          <WebhookDeliveries
            base={path}
            endpoint={endpoint}
            onRefresh={() => onChanged(null)}
            onResend={(eventId) =>
              act(async () => {
                await api.request(
                  "POST",
                  `${path}/deliveries/${encodeURIComponent(eventId)}/resend`,
                );
                return { key: "done.resent", values: { id: eventId } };
              })
            }
          />
        )}
      </div>
    </article>
  );
};

/** The form that adds an endpoint: its URL and the events it wants, refused ones at the field. */
const AddEndpoint = ({ base, onAdded }: { base: string; onAdded(created: ShownSecret): void }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof webhooksModule>();
  const { api } = useSession();
  const id = useId();
  const [all, setAll] = useState(true);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
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
      const { body } = await api.request<{ data: Endpoint & { secret: string } }>("POST", base, {
        body: { url, events },
      });
      const { secret, ...endpoint } = body.data;
      form.reset();
      setAll(true);
      setChosen(new Set());
      onAdded({ endpoint, secret, previousValidUntil: null });
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
      <h4 id={`${id}-title`}>{t("add.title")}</h4>
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
      <button type="submit" disabled={busy}>
        {t("add.submit")}
      </button>
    </form>
  );
};

const Endpoints = ({ clientId }: { clientId: string }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof webhooksModule>();
  const { api } = useSession();
  const id = useId();
  const base = `/v1/tenant/partners/${encodeURIComponent(clientId)}/webhook-endpoints`;
  const [load, reload] = useLoad(
    () => api.request<{ data: Endpoint[] }>("GET", base).then((r) => r.body.data),
    [base],
  );
  // Kept on screen while it reloads after a change, so open deliveries stay open.
  const endpoints = latest(load);
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [said, setSaid] = useState<Said | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const changed = (next: Said | null) => {
    setFailure(null);
    if (next) setSaid(next);
    reload();
  };
  return (
    <section className="webhooks" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t("title")}</h3>
      <p className="hint">{t("intro")}</p>
      {shown && (
        <SecretOnce
          level={4}
          title={t("secret.title", { url: shown.endpoint.url })}
          facts={[
            { label: t("secret.endpoint"), value: shown.endpoint.id, testId: "endpoint-id" },
            { label: t("secret.secret"), value: shown.secret, testId: "signing-secret" },
          ]}
          secret={shown.secret}
          note={
            shown.previousValidUntil && (
              <p>
                {t("secret.previous", {
                  date: formatDateTime(shown.previousValidUntil, i18n.language),
                })}
              </p>
            )
          }
          onDone={() => setShown(null)}
        />
      )}
      <p role="status">{said && t(said.key, said.values)}</p>
      {failure && (
        <p className="notice error" role="alert">
          {failure}
        </p>
      )}
      {!endpoints && load.state === "loading" && <p role="status">{t("common:status.loading")}</p>}
      {load.state === "failed" && <Failure error={load.error} retry={reload} />}
      {endpoints?.length === 0 && <p>{t("empty")}</p>}
      {endpoints?.map((endpoint) => (
        <EndpointItem
          key={endpoint.id}
          base={base}
          endpoint={endpoint}
          onChanged={changed}
          onSecret={(secret) => {
            setFailure(null);
            setShown(secret);
          }}
          onFailed={setFailure}
        />
      ))}
      <AddEndpoint
        base={base}
        onAdded={(created) => {
          setShown(created);
          changed({ key: "done.added", values: { url: created.endpoint.url } });
        }}
      />
    </section>
  );
};

/** A partner's webhook endpoints, on its card of the partners page (tenant admins). */
export const WebhookEndpoints = ({ clientId }: { clientId: string }) => (
  <EnterpriseModuleProvider module={webhooksModule}>
    <Endpoints clientId={clientId} />
  </EnterpriseModuleProvider>
);

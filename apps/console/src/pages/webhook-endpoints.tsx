import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { useId, useState } from "react";
import { ActionButton } from "../action-button.js";
import { Failure } from "../components.js";
import { disabledReasonText } from "../lib/disabled-reason.js";
import { formatDateTime } from "../lib/format.js";
import { problemText } from "../lib/problem-text.js";
import type { Said } from "../lib/said.js";
import { latest, useLoad } from "../lib/use-load.js";
import { ALL_EVENTS } from "../lib/webhook-events.js";
import { webhooksModule } from "../modules.js";
import { SecretOnce } from "../secret-once.js";
import { useSession } from "../session.js";
import { WebhookDeliveries } from "./webhook-deliveries.js";
import { EndpointForm, eventKey, OfPartner } from "./webhook-endpoint-form.js";
import type { Endpoint } from "./webhook-types.js";

interface ShownSecret {
  endpoint: Endpoint;
  secret: string;
  previousValidUntil: string | null;
}

/** What the console knows of an endpoint: its events, why it is off, its last success and failures. */
const EndpointFacts = ({ endpoint }: { endpoint: Endpoint }) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof webhooksModule>();
  const why = endpoint.disabled_reason ? disabledReasonText(endpoint.disabled_reason, t) : null;
  return (
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
  );
};

/** Runs an endpoint action: what it did goes to `onChanged`, a refusal in words to `onFailed`. */
const useEndpointAction = (
  onChanged: (said: Said | null) => void,
  onFailed: (text: string) => void,
) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof webhooksModule>();
  return async (run: () => Promise<Said | null | undefined>) => {
    try {
      const said = await run();
      if (said !== undefined) onChanged(said);
    } catch (error) {
      onFailed(problemText(error, t));
    }
  };
};

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
  const { t } = useEnterpriseModuleTranslationContext<typeof webhooksModule>();
  const { api } = useSession();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const path = `${base}/${encodeURIComponent(endpoint.id)}`;
  const url = endpoint.url;
  const act = useEndpointAction(onChanged, onFailed);
  const context = <span className="visually-hidden"> {t("actions.endpoint", { url })}</span>;
  return (
    <article className="endpoint" aria-labelledby={`${id}-url`}>
      <h4 id={`${id}-url`}>
        <code>{url}</code>{" "}
        <span className={`badge ${endpoint.enabled ? "status-accepted" : "status-cancelled"}`}>
          {t(endpoint.enabled ? "state.enabled" : "state.disabled")}
        </span>
      </h4>
      <EndpointFacts endpoint={endpoint} />
      {editing && (
        <EndpointForm
          title={t("edit.title", { url })}
          submitLabel={t("edit.submit")}
          initial={{ url: endpoint.url, events: endpoint.events }}
          onCancel={() => setEditing(false)}
          onSubmit={async (fields) => {
            // The same endpoint and secret: the receiver keeps verifying as before.
            await api.request("PATCH", path, { body: fields });
            setEditing(false);
            onChanged({ key: "done.edited", values: { url: fields.url } });
          }}
        />
      )}
      <p className="buttons">
        {!editing && (
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            {t("actions.edit")}
            {context}
          </button>
        )}
        <ActionButton
          onRun={() =>
            void act(async () => {
              const { body } = await api.request<{ data: { event_id: string } }>(
                "POST",
                `${path}/test`,
              );
              return { key: "done.testSent", values: { id: body.data.event_id, url } };
            })
          }
        >
          {t("actions.test")}
          {context}
        </ActionButton>
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
const AddEndpoint = ({
  base,
  partnerName,
  onAdded,
}: {
  base: string;
  partnerName: string;
  onAdded(created: ShownSecret): void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof webhooksModule>();
  const { api } = useSession();
  return (
    <EndpointForm
      title={t("add.title")}
      partnerName={partnerName}
      submitLabel={t("add.submit")}
      onSubmit={async (fields) => {
        const { body } = await api.request<{ data: Endpoint & { secret: string } }>("POST", base, {
          body: fields,
        });
        const { secret, ...endpoint } = body.data;
        onAdded({ endpoint, secret, previousValidUntil: null });
      }}
    />
  );
};

const Endpoints = ({ clientId, partnerName }: { clientId: string; partnerName: string }) => {
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
      {/* Named with its partner: the page has a region like it on every partner's card. */}
      <h3 id={`${id}-title`}>
        {t("title")}
        <OfPartner name={partnerName} />
      </h3>
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
        partnerName={partnerName}
        onAdded={(created) => {
          setShown(created);
          changed({ key: "done.added", values: { url: created.endpoint.url } });
        }}
      />
    </section>
  );
};

/** A partner's webhook endpoints, on its card of the partners page (tenant admins). */
export const WebhookEndpoints = ({
  clientId,
  partnerName,
}: {
  clientId: string;
  partnerName: string;
}) => (
  <EnterpriseModuleProvider module={webhooksModule}>
    <Endpoints clientId={clientId} partnerName={partnerName} />
  </EnterpriseModuleProvider>
);

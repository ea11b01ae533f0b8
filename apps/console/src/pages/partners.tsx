import { INPUT_LIMITS } from "@orderline/gateway/contract";
import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "@orderline/i18n/react";
import { type FormEvent, useState } from "react";
import { ActionButton } from "../action-button.js";
import { Failure, PageTitle } from "../components.js";
import { ApiError } from "../lib/api.js";
import { formatDateTime } from "../lib/format.js";
import { fieldProblems, problemText } from "../lib/problem-text.js";
import type { Said } from "../lib/said.js";
import { latest, useLoad } from "../lib/use-load.js";
import { partnersModule } from "../modules.js";
import { SecretOnce } from "../secret-once.js";
import { useSession } from "../session.js";
import { firstOverLimit, TextField } from "../text-field.js";
import { WebhookEndpoints } from "./webhook-endpoints.js";

interface PartnerKey {
  key_id: string;
  fingerprint: string;
  bits: number;
  created_at: string;
  revoked_at: string | null;
}

interface Partner {
  client_id: string;
  name: string;
  status: "active" | "disabled";
  secret_version: number;
  created_at: string;
  keys: PartnerKey[];
}

interface Credentials {
  name: string;
  client_id: string;
  client_secret: string;
}

/** The credentials of a new or rotated partner, shown this once. */
const PartnerSecret = ({ credentials, onDone }: { credentials: Credentials; onDone(): void }) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof partnersModule>();
  return (
    <SecretOnce
      title={t("secret.title", { name: credentials.name })}
      facts={[
        { label: t("secret.clientId"), value: credentials.client_id, testId: "client-id" },
        { label: t("secret.secret"), value: credentials.client_secret, testId: "client-secret" },
      ]}
      secret={credentials.client_secret}
      onDone={onDone}
    />
  );
};

/** A partner's keys, each active one with its revoke button. */
const KeyList = ({
  partner,
  base,
  act,
}: {
  partner: Partner;
  base: string;
  act: (run: () => Promise<Said | undefined>) => Promise<void>;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof partnersModule>();
  const { api } = useSession();
  const active = partner.keys.filter((k) => k.revoked_at === null);
  return (
    <>
      {active.length === 0 && <p>{t("list.noKeys")}</p>}
      <ul className="keys">
        {partner.keys.map((key) => (
          <li key={key.key_id}>
            <span>
              {t("list.key", {
                bits: key.bits,
                id: key.key_id,
                fingerprint: key.fingerprint,
              })}
              {key.revoked_at &&
                ` (${t("list.revoked", { date: formatDateTime(key.revoked_at, i18n.language) })})`}
            </span>
            {key.revoked_at === null && (
              <ActionButton
                danger
                confirm={t("actions.revokeConfirm", { id: key.key_id })}
                onRun={() =>
                  void act(async () => {
                    await api.request("DELETE", `${base}/keys/${encodeURIComponent(key.key_id)}`);
                    return { key: "done.keyRevoked", values: { id: key.key_id } };
                  })
                }
              >
                {t("actions.revoke", { id: key.key_id })}
              </ActionButton>
            )}
          </li>
        ))}
      </ul>
    </>
  );
};

/** The form that adds a public key (PEM) to a partner. */
const AddKeyForm = ({
  partner,
  base,
  onChanged,
}: {
  partner: Partner;
  base: string;
  onChanged(message: Said): void;
}) => {
  const { t } = useEnterpriseModuleTranslationContext<typeof partnersModule>();
  const { api } = useSession();
  const [keyError, setKeyError] = useState<string | null>(null);
  const pemId = `pem-${partner.client_id}`;
  const addKey = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (firstOverLimit(form)) return;
    const pem = String(new FormData(form).get("public_key") ?? "");
    setKeyError(null);
    try {
      const { body } = await api.request<{ data: { key_id: string } }>("POST", `${base}/keys`, {
        body: { public_key: pem },
      });
      form.reset();
      onChanged({ key: "done.keyAdded", values: { id: body.data.key_id } });
    } catch (error) {
      setKeyError(fieldProblems(error, t).get("public_key") ?? problemText(error, t));
      document.getElementById(pemId)?.focus();
    }
  };

  return (
    <form onSubmit={addKey} className="stack">
      <TextField
        id={pemId}
        name="public_key"
        control="textarea"
        label={t("actions.addKeyLabel", { name: partner.name })}
        limit={INPUT_LIMITS.publicKeyPem}
        rows={4}
        required
        spellCheck={false}
        error={keyError}
      />
      <button type="submit">{t("actions.addKey")}</button>
    </form>
  );
};

const PartnerCard = ({
  partner,
  onChanged,
  onSecret,
}: {
  partner: Partner;
  onChanged(message: Said): void;
  onSecret(credentials: Credentials): void;
}) => {
  const { t, i18n } = useEnterpriseModuleTranslationContext<typeof partnersModule>();
  const { api } = useSession();
  const [actionError, setActionError] = useState<string | null>(null);
  const base = `/v1/tenant/partners/${encodeURIComponent(partner.client_id)}`;

  const act = async (run: () => Promise<Said | undefined>) => {
    setActionError(null);
    try {
      const message = await run();
      if (message) onChanged(message);
    } catch (error) {
      setActionError(problemText(error, t));
    }
  };

  return (
    <article className="partner" aria-labelledby={`name-${partner.client_id}`}>
      <h2 id={`name-${partner.client_id}`}>{partner.name}</h2>
      <dl className="facts">
        <dt>{t("list.status")}</dt>
        <dd className={`status-${partner.status}`}>{t(`status.${partner.status}`)}</dd>
        <dt>{t("list.clientId")}</dt>
        <dd>
          <code>{partner.client_id}</code>
        </dd>
        <dt>{t("list.keys")}</dt>
        <dd>
          <KeyList partner={partner} base={base} act={act} />
        </dd>
        <dt>{t("list.secretVersion", { version: partner.secret_version })}</dt>
        <dd>{t("list.created", { date: formatDateTime(partner.created_at, i18n.language) })}</dd>
      </dl>
      <AddKeyForm partner={partner} base={base} onChanged={onChanged} />
      <p className="buttons">
        <ActionButton
          confirm={t("actions.rotateConfirm", { name: partner.name })}
          onRun={() =>
            void act(async () => {
              const { body } = await api.request<{ data: Credentials }>("POST", `${base}/secret`);
              onSecret({ ...body.data, name: partner.name });
              return undefined;
            })
          }
        >
          {t("actions.rotate", { name: partner.name })}
        </ActionButton>
        <ActionButton
          danger={partner.status === "active"}
          confirm={
            partner.status === "active"
              ? t("actions.disableConfirm", { name: partner.name })
              : undefined
          }
          onRun={() =>
            void act(async () => {
              const disable = partner.status === "active";
              await api.request("PATCH", base, {
                body: { status: disable ? "disabled" : "active" },
              });
              return {
                key: disable ? "done.disabled" : "done.enabled",
                values: { name: partner.name },
              };
            })
          }
        >
          {partner.status === "active"
            ? t("actions.disable", { name: partner.name })
            : t("actions.enable", { name: partner.name })}
        </ActionButton>
      </p>
      {actionError && (
        <p className="notice error" role="alert">
          {actionError}
        </p>
      )}
      <WebhookEndpoints clientId={partner.client_id} partnerName={partner.name} />
    </article>
  );
};

const Partners = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof partnersModule>();
  const { api } = useSession();
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const [message, setMessage] = useState<Said | null>(null);
  const [createError, setCreateError] = useState<{ field: "name" | "pem"; text: string } | null>(
    null,
  );
  const [load, reload] = useLoad(
    () => api.request<{ data: Partner[] }>("GET", "/v1/tenant/partners").then((r) => r.body.data),
    [],
  );

  // Kept on screen while it reloads after a change: the cards (and their webhook sections)
  // stay as they are instead of blinking out.
  const partners = latest(load);

  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (firstOverLimit(form)) return;
    const data = new FormData(form);
    const name = String(data.get("name") ?? "");
    const pem = String(data.get("public_key") ?? "").trim();
    setCreateError(null);
    setMessage(null);
    try {
      const { body } = await api.request<{ data: Credentials }>("POST", "/v1/tenant/partners", {
        body: { name, ...(pem ? { public_key: pem } : {}) },
      });
      form.reset();
      setCredentials({ ...body.data, name });
      reload();
    } catch (error) {
      const fields = fieldProblems(error, t);
      const pem =
        fields.has("public_key") ||
        (error instanceof ApiError && error.code === "partner_key_invalid");
      const field = pem ? "pem" : "name";
      const text = fields.get(pem ? "public_key" : "name") ?? problemText(error, t);
      setCreateError({ field, text });
      document.getElementById(field === "pem" ? "new-pem" : "new-name")?.focus();
    }
  };

  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{t("intro")}</p>
      {credentials && (
        <PartnerSecret credentials={credentials} onDone={() => setCredentials(null)} />
      )}
      <p role="status">{message && t(message.key, message.values)}</p>
      {!partners && load.state === "loading" && <p role="status">{t("common:status.loading")}</p>}
      {load.state === "failed" && <Failure error={load.error} retry={reload} />}
      {partners?.length === 0 && <p>{t("list.empty")}</p>}
      {partners?.map((partner) => (
        <PartnerCard
          key={partner.client_id}
          partner={partner}
          onChanged={(said) => {
            setMessage(said);
            reload();
          }}
          onSecret={(next) => {
            setCredentials(next);
            reload();
          }}
        />
      ))}
      <section aria-labelledby="create-title" className="partner">
        <h2 id="create-title">{t("create.title")}</h2>
        <form onSubmit={create} className="stack">
          <TextField
            id="new-name"
            name="name"
            label={t("create.name")}
            limit={INPUT_LIMITS.partnerName}
            required
            error={createError?.field === "name" ? createError.text : null}
          />
          <TextField
            id="new-pem"
            name="public_key"
            control="textarea"
            label={t("create.key")}
            limit={INPUT_LIMITS.publicKeyPem}
            rows={5}
            spellCheck={false}
            hint={t("create.keyHint")}
            error={createError?.field === "pem" ? createError.text : null}
          />
          <button type="submit">{t("create.submit")}</button>
        </form>
      </section>
    </>
  );
};

const AdminOnly = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof partnersModule>();
  return (
    <>
      <PageTitle>{t("title")}</PageTitle>
      <p>{t("adminOnly")}</p>
    </>
  );
};

export const PartnersPage = () => {
  const { profile } = useSession();
  return (
    <EnterpriseModuleProvider module={partnersModule}>
      {profile?.role === "admin" ? <Partners /> : <AdminOnly />}
    </EnterpriseModuleProvider>
  );
};

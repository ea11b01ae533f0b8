import { randomBytes } from "node:crypto";
import type { WebhooksConfig } from "../../config/config.js";
import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/random.js";
import type { ErrorCode } from "../../problems/catalogue.js";
import type { Shares } from "../../security/shares.js";
import type { PartnerRecord, Store } from "../../store/store.js";
import type { DeliveryAttemptRecord, WebhookEndpointRecord } from "../../store/webhook-store.js";
import { urlRefusal } from "./address-guard.js";
import {
  ALL_EVENTS,
  deliveredType,
  outboxEventId,
  publicEventId,
  TEST_EVENT_TYPE,
  WEBHOOK_EVENT_TYPES,
} from "./event-types.js";
import { generateSigningSecret, sealSecret } from "./signing-secret.js";

/** A refused webhook operation, with the catalogue code the HTTP API answers it with. */
export class WebhookError extends Error {
  override name = "WebhookError";
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Which partner an operation is on: by client id, and within a tenant when one is named. */
export interface PartnerScope {
  clientId: string;
  /** The tenant admin's tenant: another tenant's partner is reported as missing. */
  tenantId?: string;
}

/** An endpoint as the API and the CLI show it (the Endpoint of the webhook contract). */
export interface EndpointView {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
  last_success_at: string | null;
  failing_since: string | null;
}

export interface AttemptView {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: "succeeded" | "failed";
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  attempted_at: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

const endpointView = (e: WebhookEndpointRecord): EndpointView => ({
  id: e.id,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  disabled_reason: e.disabledReason,
  created_at: iso(e.createdAt),
  updated_at: iso(e.updatedAt),
  last_success_at: isoOrNull(e.lastSuccessAt),
  failing_since: isoOrNull(e.failingSince),
});

const attemptView = (a: DeliveryAttemptRecord): AttemptView => ({
  id: a.id,
  event_id: publicEventId(a.eventId),
  event_type: a.eventType,
  attempt: a.attempt,
  status: a.status,
  response_status: a.responseStatus,
  duration_ms: a.durationMs,
  error: a.error,
  attempted_at: iso(a.attemptedAt),
});

/** A test send's audit: one summary line per endpoint and UTC day, kept up to date. */
export interface TestSummary {
  /** Names the line (AuditEntry.summaryOf). */
  key: string;
  /** The line's details: the day, how many test events so far, the latest one. */
  details: { endpoint_id: string; day: string; test_events: number; last_event_id: string };
}

const DAY_MS = 86_400_000;

/** At most this many endpoints per partner: each one multiplies every event's deliveries. */
const MAX_ENDPOINTS_PER_PARTNER = 16;
export const MAX_ATTEMPTS_LISTED = 100;

/** The events list, checked and de-duplicated; `["*"]` stands alone. */
export function checkedEvents(events: readonly string[]): string[] {
  const unique = [...new Set(events)];
  if (unique.length === 0)
    throw new WebhookError(
      "webhook_events_invalid",
      'Name at least one event type, or "*" for all.',
    );
  if (unique.includes(ALL_EVENTS)) {
    if (unique.length > 1)
      throw new WebhookError(
        "webhook_events_invalid",
        '"*" (all events) cannot be combined with event types.',
      );
    return [ALL_EVENTS];
  }
  const unknown = unique.filter((e) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0)
    throw new WebhookError(
      "webhook_events_invalid",
      `Unknown event type${unknown.length > 1 ? "s" : ""} ${unknown.map((e) => `'${e}'`).join(", ")}; the types are ${WEBHOOK_EVENT_TYPES.join(", ")} or "*".`,
    );
  return unique;
}

/**
 * The operations on a partner's webhook endpoints, shared by the tenant-admin API and the admin
 * CLI: same checks, same messages. Secrets are returned once and stored sealed.
 */
export class WebhookEndpoints {
  constructor(
    private readonly store: Store,
    private readonly secretKey: Buffer,
    private readonly config: Pick<WebhooksConfig, "allowPrivate" | "secretGraceSeconds">,
    private readonly now: Clock,
    /** Counts test sends against the partner's and the endpoint's `test_sends` share. */
    private readonly shares: Shares,
  ) {}

  /**
   * Counts one test delivery of the partner to the endpoint: a 429 with Retry-After beyond
   * their `test_sends` share (config/shares.ts), whoever asks (the partner or an admin).
   * The share has no tenant level, so no tenant is looked up for it.
   */
  async #admitTest(partner: PartnerRecord, endpoint: WebhookEndpointRecord): Promise<void> {
    await this.shares.take("test_sends", {
      tenant: "",
      party: `partner:${partner.id}`,
      item: `endpoint:${endpoint.id}`,
    });
  }

  async #partner(scope: PartnerScope): Promise<PartnerRecord> {
    const partner = await this.store.findPartnerByClientId(scope.clientId);
    const inScope =
      partner !== undefined &&
      (scope.tenantId === undefined ||
        (await this.store.tenants.partnerTenant(partner.id)) === scope.tenantId);
    if (!partner || !inScope)
      throw new WebhookError(
        "partner_not_found",
        scope.tenantId === undefined
          ? `No partner with client_id '${scope.clientId}'.`
          : `No partner '${scope.clientId}' in your tenant.`,
      );
    return partner;
  }

  async #endpoint(partner: PartnerRecord, endpointId: string): Promise<WebhookEndpointRecord> {
    const endpoint = await this.store.webhooks.findEndpoint(partner.id, endpointId);
    if (!endpoint)
      throw new WebhookError(
        "webhook_endpoint_not_found",
        `No webhook endpoint '${endpointId}' for partner '${partner.clientId}'.`,
      );
    return endpoint;
  }

  #checkedUrl(url: string): string {
    const refusal = urlRefusal(url, this.config.allowPrivate);
    if (refusal !== undefined) throw new WebhookError("webhook_url_invalid", refusal);
    return url;
  }

  async list(scope: PartnerScope): Promise<EndpointView[]> {
    const partner = await this.#partner(scope);
    return (await this.store.webhooks.listEndpoints(partner.id)).map(endpointView);
  }

  async get(scope: PartnerScope, endpointId: string): Promise<EndpointView> {
    return endpointView(await this.#endpoint(await this.#partner(scope), endpointId));
  }

  async create(
    scope: PartnerScope,
    input: { url: string; events: readonly string[] },
  ): Promise<EndpointView & { secret: string }> {
    const partner = await this.#partner(scope);
    const url = this.#checkedUrl(input.url);
    const events = checkedEvents(input.events);
    const existing = await this.store.webhooks.listEndpoints(partner.id);
    if (existing.length >= MAX_ENDPOINTS_PER_PARTNER)
      throw new WebhookError(
        "webhook_endpoint_limit",
        `Partner '${partner.clientId}' already has ${MAX_ENDPOINTS_PER_PARTNER} webhook endpoints; remove one first.`,
      );
    const at = this.now();
    const id = `we_${randomBytes(12).toString("hex")}`;
    const secret = generateSigningSecret();
    const record: WebhookEndpointRecord = {
      id,
      partnerId: partner.id,
      url,
      events,
      secretSealed: sealSecret(this.secretKey, id, secret),
      previousSecretSealed: null,
      previousSecretUntil: null,
      enabled: true,
      disabledReason: null,
      createdAt: at,
      updatedAt: at,
      lastSuccessAt: null,
      failingSince: null,
    };
    await this.store.webhooks.createEndpoint(record);
    return { ...endpointView(record), secret };
  }

  /** `disabledBy` names who disables, for the endpoint's disabled_reason. */
  async update(
    scope: PartnerScope,
    endpointId: string,
    change: { url?: string; events?: readonly string[]; enabled?: boolean },
    disabledBy = "an administrator",
  ): Promise<EndpointView> {
    const partner = await this.#partner(scope);
    const url = change.url === undefined ? undefined : this.#checkedUrl(change.url);
    const events = change.events === undefined ? undefined : checkedEvents(change.events);
    const updated = await this.store.webhooks.updateEndpoint(partner.id, endpointId, {
      ...(url === undefined ? {} : { url }),
      ...(events === undefined ? {} : { events }),
      ...(change.enabled === undefined
        ? {}
        : { enabled: change.enabled, disabledReason: `Disabled by ${disabledBy}.` }),
      at: this.now(),
    });
    if (!updated) await this.#endpoint(partner, endpointId);
    return endpointView(updated as WebhookEndpointRecord);
  }

  async remove(scope: PartnerScope, endpointId: string): Promise<void> {
    const partner = await this.#partner(scope);
    if (!(await this.store.webhooks.deleteEndpoint(partner.id, endpointId)))
      await this.#endpoint(partner, endpointId);
  }

  /**
   * A new secret, returned once. The replaced one keeps signing beside it (a second `v1=`) for
   * `graceSeconds` (default: the configured grace), so receivers can switch without a gap.
   */
  async rotateSecret(
    scope: PartnerScope,
    endpointId: string,
    graceSeconds = this.config.secretGraceSeconds,
  ): Promise<{ secret: string; previous_valid_until: string | null }> {
    const partner = await this.#partner(scope);
    const secret = generateSigningSecret();
    const at = this.now();
    const until = graceSeconds > 0 ? at + graceSeconds * 1000 : null;
    const rotated = await this.store.webhooks.rotateEndpointSecret(
      partner.id,
      endpointId,
      sealSecret(this.secretKey, endpointId, secret),
      until,
      at,
    );
    if (!rotated) await this.#endpoint(partner, endpointId);
    return { secret, previous_valid_until: isoOrNull(until) };
  }

  async deliveries(scope: PartnerScope, endpointId: string, limit = 20): Promise<AttemptView[]> {
    const endpoint = await this.#endpoint(await this.#partner(scope), endpointId);
    const bounded = Math.min(Math.max(1, limit), MAX_ATTEMPTS_LISTED);
    return (await this.store.webhooks.listAttempts(endpoint.id, bounded)).map(attemptView);
  }

  /**
   * Queues one of the partner's events for the endpoint again, due now, whatever came before.
   * A test event is a test delivery again: it counts against the `test_sends` share.
   */
  async resend(scope: PartnerScope, endpointId: string, eventId: string): Promise<void> {
    const partner = await this.#partner(scope);
    const endpoint = await this.#endpoint(partner, endpointId);
    const id = outboxEventId(eventId);
    const event =
      id === undefined ? undefined : await this.store.webhooks.findEvent(partner.id, id);
    const test =
      id === undefined || event
        ? undefined
        : await this.store.webhooks.findTestEvent(partner.id, id);
    if (!event && !test)
      throw new WebhookError(
        "webhook_event_not_found",
        `No event '${eventId}' of partner '${partner.clientId}'.`,
      );
    if (!event) await this.#admitTest(partner, endpoint);
    const [queued, type] = event
      ? [event.id, deliveredType(event)]
      : [id as string, TEST_EVENT_TYPE];
    await this.store.webhooks.resend(endpoint.id, queued, type, this.now());
  }

  /**
   * Fires a `webhook.test` event at the endpoint, due now: delivered by the worker through the
   * same queue and delivery slots as any event (signed, listed among the deliveries,
   * resendable), but attempted once, never retried. Counts against the `test_sends` share.
   * Answers the event id and the endpoint's audit summary line for the day. A disabled
   * endpoint is refused: its deliveries wait until it is enabled.
   */
  async sendTest(
    scope: PartnerScope,
    endpointId: string,
  ): Promise<{ event_id: string; summary: TestSummary }> {
    const partner = await this.#partner(scope);
    const endpoint = await this.#endpoint(partner, endpointId);
    if (!endpoint.enabled)
      throw new WebhookError(
        "webhook_endpoint_disabled",
        `Webhook endpoint '${endpointId}' is disabled (${endpoint.disabledReason ?? "no reason recorded"}); enable it first (PATCH with {"enabled": true}).`,
      );
    await this.#admitTest(partner, endpoint);
    const at = this.now();
    const id = newId(at);
    await this.store.webhooks.queueTestEvent({
      id,
      partnerId: partner.id,
      endpointId: endpoint.id,
      createdAt: at,
    });
    const eventId = publicEventId(id);
    return { event_id: eventId, summary: await this.#testSummary(endpoint.id, eventId, at) };
  }

  /** The endpoint's test sends of the UTC day of `at`, counted after this one was written. */
  async #testSummary(endpointId: string, lastEventId: string, at: number): Promise<TestSummary> {
    const dayStart = at - (at % DAY_MS);
    const day = iso(dayStart).slice(0, 10);
    return {
      key: `webhook_test_sent:${endpointId}:${day}`,
      details: {
        endpoint_id: endpointId,
        day,
        test_events: await this.store.webhooks.countTestEvents(endpointId, dayStart),
        last_event_id: lastEventId,
      },
    };
  }
}

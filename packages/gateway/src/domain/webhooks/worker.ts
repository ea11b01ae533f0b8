import { randomUUID } from "node:crypto";
import type { WebhooksConfig } from "../../config/config.js";
import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/random.js";
import { countDelivery } from "../../observability/metrics.js";
import { eventTraceContext, inSpan } from "../../observability/tracing.js";
import type { Shares } from "../../security/shares.js";
import { GroupCommit } from "../../store/group-commit.js";
import type { Store } from "../../store/store.js";
import type {
  ClaimedDelivery,
  FinishedAttempt,
  WebhookEndpointRecord,
} from "../../store/webhook-store.js";
import type { AuditTrail } from "../audit/trail.js";
import { failingSinceLimit, nextAfterAttempt } from "./backoff.js";
import { createSender, type DeliveryResult, type Sender } from "./delivery.js";
import { eventPayload, testEventPayload } from "./event-payload.js";
import { TEST_EVENT_TYPE } from "./event-types.js";
import { signatureHeader } from "./signature.js";
import { unsealSecret } from "./signing-secret.js";

/** Outbox events fanned out per statement. */
const DISPATCH_BATCH = 200;

/** After failed rounds (the store is out) the poll interval doubles, up to this. */
const MAX_FAILURE_BACKOFF_MS = 30_000;

interface WorkerLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

const humanDuration = (seconds: number): string =>
  seconds % 86_400 === 0
    ? `${seconds / 86_400} day${seconds === 86_400 ? "" : "s"}`
    : seconds % 3600 === 0
      ? `${seconds / 3600} h`
      : `${seconds} s`;

/** Who a delivery's slot is held for: its partner, and its endpoint within the partner. */
const slotHolder = (partnerId: string, endpointId: string) => ({
  tenant: "",
  party: `partner:${partnerId}`,
  item: `endpoint:${endpointId}`,
});

/**
 * Delivers webhooks from this process: fans new outbox events out into the delivery queue,
 * claims due deliveries under a lease, POSTs them signed, and records each attempt. Any number
 * of instances may run one against the same PostgreSQL store: fan-out and claims skip the rows
 * another instance holds, and a lease that runs out (its instance died) frees the delivery for
 * the others. Polls every `pollMs` when idle, at once again while there is more to do.
 *
 * Each attempt holds a place of the `webhook_slots` share, nested instance → partner →
 * endpoint, real and test events alike: a partner with many slow endpoints fills its own
 * share, never the instance. A claimed delivery that finds its partner's share full is handed
 * back untried, and that partner's deliveries are left out of claims until one of its own
 * attempts ends.
 */
export class WebhookWorker {
  readonly #sender: Sender;
  /** Finished attempts are recorded together: one commit for all that finished meanwhile. */
  readonly #finishes: GroupCommit<FinishedAttempt, { disabled: boolean }>;
  /** Claims handed back for want of a slot, released together like the finishes. */
  readonly #handBacks: GroupCommit<ClaimedDelivery, null>;
  /** Partners whose share of the slots was full at their last try (store partner ids). */
  readonly #fullPartners = new Set<string>();
  readonly #slots: { instance: number; party: number; item: number };
  readonly #inFlight = new Set<Promise<void>>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;
  /** Rounds failed in a row: the store is out, so poll less often until it answers again. */
  #failedRounds = 0;
  #unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly store: Store,
    private readonly secretKey: Buffer,
    private readonly config: WebhooksConfig,
    private readonly now: Clock,
    private readonly log: WorkerLog,
    /** Where an endpoint's automatic disabling is audited (the tenant's Activity page). */
    private readonly audit: AuditTrail,
    /** Holds each attempt's place of `webhook_slots` (config/shares.ts). */
    private readonly shares: Shares,
    sender?: Sender,
  ) {
    const { instance = 1, party = instance, item = instance } = shares.budgets.webhook_slots;
    this.#slots = { instance, party: Math.min(party, instance), item: Math.min(item, instance) };
    this.#sender =
      sender ??
      createSender({
        policy: config.allowPrivate,
        timeoutMs: config.timeoutMs,
        maxSockets: instance,
        onRefused: (host, detail) =>
          log.warn(
            { event: "webhook_address_refused", host, detail },
            "webhook receiver refused by the address policy",
          ),
      });
    this.#finishes = new GroupCommit(async (finished) =>
      (await store.webhooks.finishAttempts(finished)).map((value) => ({ ok: true, value })),
    );
    this.#handBacks = new GroupCommit(async (claims) => {
      await store.webhooks.releaseClaims(claims);
      return claims.map(() => ({ ok: true, value: null }));
    });
  }

  /** Starts polling (a no-op when delivery is turned off with pollMs 0). */
  start(): void {
    if (this.config.pollMs <= 0 || !this.#stopped) return;
    this.#stopped = false;
    // PostgreSQL wakes the worker as work is written; polling stays for retries coming due.
    this.#unlisten = this.store.webhooks.onWork?.(() => this.wake());
    this.wake();
  }

  /** Stops polling and waits for the attempts in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#unlisten?.();
    await this.#running;
    await Promise.all(this.#inFlight);
    await this.#finishes.drain();
    await this.#handBacks.drain();
    this.#sender.close();
  }

  /** Looks for work now rather than at the next poll. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#tick().finally(() => {
      this.#running = undefined;
      if (this.#stopped) return;
      if (this.#again) {
        this.#again = false;
        setImmediate(() => this.wake());
      } else {
        const backoff = Math.min(
          MAX_FAILURE_BACKOFF_MS,
          this.config.pollMs * 2 ** Math.min(this.#failedRounds, 16),
        );
        this.#timer = setTimeout(() => this.wake(), Math.max(this.config.pollMs, backoff));
        this.#timer.unref();
      }
    });
  }

  async #tick(): Promise<void> {
    try {
      while (
        (await this.store.webhooks.dispatchEvents(DISPATCH_BATCH, this.now())) === DISPATCH_BATCH
      );
      this.#failedRounds = 0;
      const free = this.#slots.instance - this.#inFlight.size;
      if (free <= 0) return;
      // Nothing held: no partner's share can be full (whatever refused it last time).
      if (this.#inFlight.size === 0) this.#fullPartners.clear();
      const at = this.now();
      const claimed = await this.store.webhooks.claimDeliveries(
        at,
        at + this.config.leaseMs,
        randomUUID(),
        free,
        this.#slots.item,
        { perPartner: this.#slots.party, skipPartners: [...this.#fullPartners] },
      );
      for (const delivery of claimed) {
        const attempt: Promise<void> = this.#deliver(delivery)
          .catch((error: unknown) =>
            this.log.warn(
              {
                event: "webhook_delivery_error",
                endpoint_id: delivery.endpointId,
                event_id: delivery.eventId,
                err: (error as Error).message,
              },
              "webhook delivery could not be recorded",
            ),
          )
          .finally(() => {
            this.#inFlight.delete(attempt);
            // Claim again once half the slots are free: one claim (one commit) for several.
            if (this.#inFlight.size <= this.#slots.instance / 2) this.wake();
          });
        this.#inFlight.add(attempt);
      }
      if (claimed.length === free) this.#again = true;
    } catch (error) {
      this.#failedRounds += 1;
      this.#again = false;
      this.log.warn(
        {
          event: "webhook_worker_failed",
          err: (error as Error).message,
          failed_rounds: this.#failedRounds,
        },
        "webhook worker round failed",
      );
    }
  }

  async #deliver(delivery: ClaimedDelivery): Promise<void> {
    const target = await this.store.webhooks.endpointForDelivery(delivery.endpointId);
    if (!target) return; // deleted meanwhile: its queue went with it
    const { partnerId } = target.endpoint;
    const release = this.shares.tryHold(
      "webhook_slots",
      slotHolder(partnerId, delivery.endpointId),
    );
    if (!release) {
      this.#fullPartners.add(partnerId);
      await this.#handBacks.submit(delivery);
      return;
    }
    try {
      await this.#attempt(delivery, target);
    } finally {
      release();
      this.#fullPartners.delete(partnerId);
    }
  }

  async #attempt(
    delivery: ClaimedDelivery,
    { endpoint, clientId }: { endpoint: WebhookEndpointRecord; clientId: string },
  ): Promise<void> {
    const { payload, trace } =
      delivery.eventType === TEST_EVENT_TYPE
        ? await this.#testPayload(endpoint.partnerId, delivery.eventId)
        : await this.#orderPayload(endpoint.partnerId, delivery.eventId, clientId);
    const body = JSON.stringify(payload);
    const sentAt = this.now();
    const secrets = [unsealSecret(this.secretKey, endpoint.id, endpoint.secretSealed)];
    if (
      endpoint.previousSecretSealed !== null &&
      endpoint.previousSecretUntil !== null &&
      endpoint.previousSecretUntil > sentAt
    )
      secrets.push(unsealSecret(this.secretKey, endpoint.id, endpoint.previousSecretSealed));
    const headers = {
      "content-type": "application/json",
      "user-agent": "Orderline-Webhooks/1",
      "orderline-event-id": payload.id,
      "orderline-event-type": payload.type,
      "orderline-signature": signatureHeader(secrets, Math.floor(sentAt / 1000), body),
    };
    // In the trace of the request that made the event (the POST carries its traceparent).
    const result = await inSpan(
      "webhook.deliver",
      () => this.#sender.post(endpoint.url, body, headers),
      trace,
      { "orderline.event_type": payload.type, "orderline.attempt": delivery.attempt },
    );
    await this.#record(delivery, result, clientId, endpoint.partnerId);
  }

  /** An order event's body, and the trace of the request that made it. */
  async #orderPayload(partnerId: string, eventId: string, clientId: string) {
    const event = await this.store.webhooks.findEvent(partnerId, eventId);
    const order = event && (await this.store.findOrder(partnerId, event.orderId));
    if (!event || !order) throw new Error(`event ${eventId} or its order is missing`);
    const [orderEvents, history] = await Promise.all([
      this.store.webhooks.orderEvents(order.id),
      this.store.orderHistory(order.id),
    ]);
    return {
      payload: eventPayload(event, order, clientId, orderEvents, history),
      trace: eventTraceContext(order.id, event.to),
    };
  }

  async #testPayload(partnerId: string, eventId: string) {
    const event = await this.store.webhooks.findTestEvent(partnerId, eventId);
    if (!event) throw new Error(`test event ${eventId} is missing`);
    return { payload: testEventPayload(event), trace: undefined };
  }

  async #record(
    delivery: ClaimedDelivery,
    result: DeliveryResult,
    clientId: string,
    partnerId: string,
  ) {
    const at = this.now();
    const { disableAfterSeconds } = this.config;
    const next = nextAfterAttempt(delivery, result.ok, at, this.config);
    countDelivery(next.kind, result.durationMs);
    const { disabled } = await this.#finishes.submit({
      attempt: {
        id: `wa_${newId(at).replaceAll("-", "")}`,
        endpointId: delivery.endpointId,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        attempt: delivery.attempt,
        status: result.ok ? "succeeded" : "failed",
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: result.error === null ? null : result.error.slice(0, 500),
        attemptedAt: at,
      },
      lease: delivery.lease,
      lockedUntil: delivery.lockedUntil,
      next,
      disableFailingSince: failingSinceLimit(at, disableAfterSeconds),
      disabledReason: `Disabled after ${humanDuration(disableAfterSeconds)} of failed deliveries.`,
    });
    if (next.kind === "failed" && delivery.eventType !== TEST_EVENT_TYPE)
      this.log.warn(
        {
          event: "webhook_delivery_gave_up",
          client_id: clientId,
          endpoint_id: delivery.endpointId,
          event_id: delivery.eventId,
          attempts: delivery.attempt,
        },
        "webhook delivery given up after the retry window",
      );
    if (disabled) await this.#auditDisabled(delivery.endpointId, clientId, partnerId);
  }

  /** The gateway itself disabled an endpoint: a warning, and an event on the tenant's trail. */
  async #auditDisabled(endpointId: string, clientId: string, partnerId: string): Promise<void> {
    const details = {
      client_id: clientId,
      endpoint_id: endpointId,
      failing_for_seconds: this.config.disableAfterSeconds,
    };
    const message = "webhook endpoint disabled after failing for the whole window";
    // Logged as a warning, as before the trail: an operator should notice it.
    const warn = { info: this.log.warn.bind(this.log), error: this.log.warn.bind(this.log) };
    const tenantId = await this.store.tenants.partnerTenant(partnerId).catch(() => null);
    await this.audit.record(
      {
        tenantId,
        actor: { kind: "system", id: "webhook-delivery" },
        action: "webhook_endpoint_disabled",
        details,
        message,
      },
      warn,
    );
  }
}

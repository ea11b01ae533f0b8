import type { OrderEventRecord } from "./records.js";

/**
 * Persistence of webhook endpoints, their delivery queue and the attempts made: composed into
 * `Store` as `store.webhooks`, implemented over the same SQL by both stores (migration 010).
 * Times are Unix ms.
 */

export interface WebhookEndpointRecord {
  /** `we_…` */
  id: string;
  partnerId: string;
  url: string;
  /** Event types the endpoint receives, or `["*"]` for all. */
  events: string[];
  /** The signing secret, sealed with the webhook key (lib/seal.ts, the endpoint id as AAD). */
  secretSealed: string;
  /** The secret before the last rotation; it signs deliveries too until `previousSecretUntil`. */
  previousSecretSealed: string | null;
  previousSecretUntil: number | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: number;
  updatedAt: number;
  lastSuccessAt: number | null;
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failingSince: number | null;
}

/** The type a test event is delivered as. */
export const TEST_EVENT_TYPE = "webhook.test";

/** A `webhook.test` event: fired by the partner at one endpoint, belonging to no order. */
export interface WebhookTestEventRecord {
  id: string;
  partnerId: string;
  endpointId: string;
  createdAt: number;
}

export interface WebhookEndpointChange {
  url?: string;
  events?: string[];
  /** Enabling clears the disabled reason and the failure streak. */
  enabled?: boolean;
  disabledReason?: string | null;
  at: number;
}

/** A delivery a worker has claimed: it owns it until the lease runs out. */
export interface ClaimedDelivery {
  endpointId: string;
  eventId: string;
  eventType: string;
  /** The number of this attempt (1 for the first). */
  attempt: number;
  /** Start of the retry window. */
  createdAt: number;
  /** This claim's token: finishing the attempt applies only while the claim is still ours. */
  lease: string;
  /** The end of this claim's lock. */
  lockedUntil: number;
}

/** How a claim shares an instance's slots among partners (the `webhook_slots` share). */
export interface ClaimShares {
  /** At most this many deliveries of one partner in one claim (default: the claim's limit). */
  perPartner?: number;
  /** Partners the claiming instance has no free slot for: none of theirs is claimed. */
  skipPartners?: readonly string[];
}

export interface DeliveryAttemptRecord {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: "succeeded" | "failed";
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  attemptedAt: number;
}

/** What follows an attempt: done, another attempt at `at`, or given up. */
export type DeliveryNext =
  | { kind: "succeeded" }
  | { kind: "retry"; at: number }
  | { kind: "failed" };

export interface FinishedAttempt {
  attempt: DeliveryAttemptRecord;
  lease: string;
  /** The claim's lockedUntil: frees the delivery when a resend took the claim over meanwhile. */
  lockedUntil: number;
  next: DeliveryNext;
  /** On failure: disable the endpoint when it has been failing since at or before this time. */
  disableFailingSince: number;
  disabledReason: string;
}

export interface WebhookStore {
  createEndpoint(endpoint: WebhookEndpointRecord): Promise<void>;
  /** A partner's endpoints, oldest first. */
  listEndpoints(partnerId: string): Promise<WebhookEndpointRecord[]>;
  findEndpoint(partnerId: string, endpointId: string): Promise<WebhookEndpointRecord | undefined>;
  /** An endpoint by id alone, with its partner's client_id (what a delivery needs). */
  endpointForDelivery(
    endpointId: string,
  ): Promise<{ endpoint: WebhookEndpointRecord; clientId: string } | undefined>;
  /** Applies the change; undefined when the partner has no such endpoint. */
  updateEndpoint(
    partnerId: string,
    endpointId: string,
    change: WebhookEndpointChange,
  ): Promise<WebhookEndpointRecord | undefined>;
  /** Deletes the endpoint with its queue and attempts; false when there was none. */
  deleteEndpoint(partnerId: string, endpointId: string): Promise<boolean>;
  /**
   * Stores a new sealed secret. With `previousUntil`, the replaced one keeps signing until then;
   * with null, it is dropped. False when the partner has no such endpoint.
   */
  rotateEndpointSecret(
    partnerId: string,
    endpointId: string,
    secretSealed: string,
    previousUntil: number | null,
    at: number,
  ): Promise<boolean>;
  /** An endpoint's attempts, newest first. */
  listAttempts(endpointId: string, limit: number): Promise<DeliveryAttemptRecord[]>;
  /** One of the partner's outbox events, by its id (without the `evt_` prefix). */
  findEvent(partnerId: string, eventId: string): Promise<OrderEventRecord | undefined>;
  /** Writes the test event and queues it for its endpoint, due now, in one transaction. */
  queueTestEvent(event: WebhookTestEventRecord): Promise<void>;
  /** How many test events were fired at the endpoint since `since` (for their audit summary). */
  countTestEvents(endpointId: string, since: number): Promise<number>;
  /** One of the partner's test events, by its id (without the `evt_` prefix). */
  findTestEvent(partnerId: string, eventId: string): Promise<WebhookTestEventRecord | undefined>;
  /** The outbox events of one order, oldest first. */
  orderEvents(orderId: string): Promise<OrderEventRecord[]>;
  /**
   * Queues the event for the endpoint again, due now, with a fresh retry window: a new delivery
   * or a finished one made pending.
   */
  resend(endpointId: string, eventId: string, eventType: string, at: number): Promise<void>;
  /**
   * Fans out at most `limit` outbox events not yet dispatched: one pending delivery per enabled
   * endpoint of the event's partner that subscribes to its type. Returns how many events.
   */
  dispatchEvents(limit: number, at: number): Promise<number>;
  /**
   * Claims at most `limit` due deliveries of enabled endpoints whose lease has run out, leasing
   * them until `lockedUntil` under the token `lease`. Instances claiming at once get disjoint rows.
   * Partners take turns, and within each its endpoints (each one's oldest due first, then each
   * one's second); an endpoint never has more than `perEndpoint` deliveries in flight across
   * instances; `shares` bounds and skips partners.
   */
  claimDeliveries(
    now: number,
    lockedUntil: number,
    lease: string,
    limit: number,
    perEndpoint?: number,
    shares?: ClaimShares,
  ): Promise<ClaimedDelivery[]>;
  /** Hands claimed deliveries back untried (no slot for them): unlocked, the attempt uncounted. */
  releaseClaims(claims: ClaimedDelivery[]): Promise<void>;
  /**
   * Calls `listener` whenever work may have been written (by any instance), where the store can
   * tell (PostgreSQL LISTEN/NOTIFY); returns how to stop. Absent: the worker polls only.
   */
  onWork?(listener: () => void): () => Promise<void>;
  /**
   * Records each attempt and moves its delivery on (while the lease is still that claim's),
   * keeps the endpoints' success and failure times, and disables an endpoint failing for too
   * long; all in one transaction (one commit for a batch of attempts). Resolves, per attempt,
   * whether it disabled its endpoint.
   */
  finishAttempts(finished: FinishedAttempt[]): Promise<{ disabled: boolean }[]>;
  /**
   * For metrics: deliveries pending (counted up to BACKLOG_COUNT_LIMIT), and since when the
   * oldest due work waits: an event not fanned out yet (its creation), or a delivery whose next
   * attempt is due (that time); null when nothing is due. A receiver failing is backlog, not lag.
   */
  backlog(now: number): Promise<{ pending: number; oldestDueAt: number | null }>;
}

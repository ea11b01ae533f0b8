import type { EventsConfig } from "../../config/config.js";
import { ApiError } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import type { FeedEventRecord, TenantSignal } from "../../store/event-feed-store.js";
import type { Store } from "../../store/store.js";
import { toOrderData } from "../orders/service.js";
import { eventPayload, orderAtEvent } from "../webhooks/event-payload.js";
import { deliveredType, outboxEventId, publicEventId } from "../webhooks/event-types.js";
import {
  encodeTenantCursor,
  PARTNER_EVENT_ID,
  parseTenantCursor,
  type TenantCursor,
} from "./cursor.js";
import { EventFeed } from "./feed.js";
import { EventSession, type StreamMessage, type StreamSink, type StreamSpec } from "./session.js";

/** Who holds a stream, for the per-client and per-tenant limits. */
export interface StreamHolder {
  /** `partner:<id>` or `user:<id>`. */
  client: string;
  tenant?: string;
}

/** A place taken among the open streams; given back when the stream ends. */
export type StreamLease = () => void;

/** Clock skew between instances a resumed tenant stream allows for when replaying vocabulary. */
const VOCABULARY_SKEW_MS = 5000;

const lastEventIdInvalid = (detail: string) => new ApiError("last_event_id_invalid", detail);

/**
 * The live event streams of this process: the partner's (`GET /api/v1/events/stream`, the same
 * events and bodies as its webhooks) and the tenant console's (`GET /v1/tenant/events`, order
 * summaries and vocabulary changes), over one shared outbox feed, within the configured limits.
 */
export class EventStreams {
  readonly #feed: EventFeed;
  readonly #sessions = new Set<EventSession>();
  readonly #counts = new Map<string, number>();
  #total = 0;
  #closing = false;

  constructor(
    private readonly store: Store,
    private readonly config: EventsConfig,
    private readonly now: Clock,
    log: { warn(object: object, message: string): void },
  ) {
    this.#feed = new EventFeed(store.events, now, config, log);
  }

  /** The partner's stream: its webhook event bodies, of `types` only when given. */
  async partnerSpec(
    partner: { id: string; clientId: string },
    lastEventId: string | undefined,
    types: ReadonlySet<string> | undefined,
  ): Promise<StreamSpec> {
    const scope = { partnerId: partner.id };
    let afterSeq: number | undefined;
    if (lastEventId !== undefined) {
      const seq = !PARTNER_EVENT_ID.test(lastEventId)
        ? undefined
        : lastEventId === "-"
          ? 0
          : await this.store.events.eventSeq(outboxEventId(lastEventId) as string, scope);
      if (seq === undefined)
        throw lastEventIdInvalid(
          "Last-Event-ID is not the id of one of your events that the gateway still keeps; open the stream without it.",
        );
      afterSeq = seq;
    }
    return {
      scope,
      afterSeq,
      start: async (head) => {
        const id = await this.store.events.latestEventId(head, scope);
        return { id: id === undefined ? "-" : publicEventId(id) };
      },
      render: async (event) => {
        if (types && !types.has(deliveredType(event))) return undefined;
        const order = await this.store.findOrder(partner.id, event.orderId);
        if (!order) return undefined; // purged since
        const [orderEvents, history] = await Promise.all([
          this.store.webhooks.orderEvents(order.id),
          this.store.orderHistory(order.id),
        ]);
        const payload = eventPayload(event, order, partner.clientId, orderEvents, history);
        return { id: payload.id, event: payload.type, data: payload };
      },
    };
  }

  /** A tenant's stream: its partners' order events as list summaries, and vocabulary changes. */
  async tenantSpec(tenantId: string, lastEventId: string | undefined): Promise<StreamSpec> {
    const scope = { tenantId };
    const cursor: TenantCursor = { eventId: null, vocabularyAt: this.now() };
    let afterSeq: number | undefined;
    let resumedFrom: number | undefined;
    if (lastEventId !== undefined) {
      const given = parseTenantCursor(lastEventId);
      const seq =
        given?.eventId == null
          ? 0
          : await this.store.events.eventSeq(outboxEventId(given.eventId) as string, scope);
      if (given === undefined || seq === undefined)
        throw lastEventIdInvalid(
          "Last-Event-ID is not an id this stream sent, or its event is no longer kept; open the stream without it.",
        );
      Object.assign(cursor, given);
      afterSeq = seq;
      resumedFrom = given.vocabularyAt;
    }
    const message = (event: string, data: unknown): StreamMessage => ({
      id: encodeTenantCursor(cursor),
      event,
      data,
    });
    const vocabulary = (namespace: string, language: string, at: number) => {
      cursor.vocabularyAt = Math.max(cursor.vocabularyAt, at);
      return message("vocabulary.changed", { namespace, language });
    };
    return {
      scope,
      afterSeq,
      start: async (head) => {
        const id = await this.store.events.latestEventId(head, scope);
        cursor.eventId = id === undefined ? null : publicEventId(id);
        return { id: encodeTenantCursor(cursor) };
      },
      render: async (event: FeedEventRecord) => {
        const summary = await this.#tenantOrderAt(tenantId, event);
        if (!summary) return undefined;
        cursor.eventId = publicEventId(event.id);
        return message(deliveredType(event), { order: summary });
      },
      resume: async () => {
        if (resumedFrom === undefined) return [];
        const changes = await this.store.events.vocabularyChangedSince(
          tenantId,
          resumedFrom - VOCABULARY_SKEW_MS,
        );
        return changes.map((c) => vocabulary(c.namespace, c.language, c.updatedAt));
      },
      signal: (signal: TenantSignal) => vocabulary(signal.namespace, signal.language, signal.at),
    };
  }

  /** The order as the tenant's order list shows it, right after `event`. */
  async #tenantOrderAt(tenantId: string, event: FeedEventRecord) {
    const order = await this.store.tenants.findTenantOrder(tenantId, event.orderId);
    if (!order) return undefined;
    const [orderEvents, history] = await Promise.all([
      this.store.webhooks.orderEvents(order.id),
      this.store.orderHistory(order.id),
    ]);
    return toOrderData(orderAtEvent(event, order, orderEvents, history).then, order.clientId);
  }

  /** Takes a place for a new stream; 429 too_many_streams when a limit is reached. */
  acquire(holder: StreamHolder): StreamLease {
    const { maxStreams, maxStreamsPerClient, maxStreamsPerTenant } = this.config;
    const refuse = (detail: string) =>
      new ApiError("too_many_streams", detail, { retry_after: 5 }, { "retry-after": "5" });
    if (this.#closing)
      throw new ApiError(
        "shutting_down",
        "This gateway instance is shutting down; open the stream again (another instance answers).",
        { retry_after: 1 },
        { "retry-after": "1" },
      );
    if (this.#total >= maxStreams)
      throw refuse(`This gateway instance holds its most event streams (${maxStreams}).`);
    if ((this.#counts.get(holder.client) ?? 0) >= maxStreamsPerClient)
      throw refuse(
        `At most ${maxStreamsPerClient} event streams at once per client on one instance; close one or share it.`,
      );
    if (holder.tenant && (this.#counts.get(holder.tenant) ?? 0) >= maxStreamsPerTenant)
      throw refuse(`At most ${maxStreamsPerTenant} event streams at once per tenant.`);
    const keys = holder.tenant ? [holder.client, holder.tenant] : [holder.client];
    for (const key of keys) this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    this.#total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total -= 1;
      for (const key of keys) {
        const left = (this.#counts.get(key) ?? 1) - 1;
        if (left === 0) this.#counts.delete(key);
        else this.#counts.set(key, left);
      }
    };
  }

  /** Starts a stream on `sink`; returns how to end it (the client went away). */
  start(spec: StreamSpec, sink: StreamSink, lease: StreamLease): () => void {
    const session = new EventSession(this.#feed, this.store.events, spec, {
      send: (message) => sink.send(message),
      end: () => {
        this.#sessions.delete(session);
        lease();
        sink.end();
      },
    });
    this.#sessions.add(session);
    session.start();
    return () => session.close();
  }

  /** How many streams this instance holds (metrics, tests). */
  get open(): number {
    return this.#total;
  }

  /** Shutdown: refuses new streams and ends the open ones (clients resume elsewhere). */
  closeAll(): void {
    this.#closing = true;
    for (const session of [...this.#sessions]) session.close();
  }

  async stop(): Promise<void> {
    this.closeAll();
    await this.#feed.stop();
  }
}

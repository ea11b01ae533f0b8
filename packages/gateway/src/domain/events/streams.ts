import type { EventsConfig } from "../../config/config.js";
import type { Clock } from "../../lib/clock.js";
import { ApiError } from "../../problems/api-error.js";
import type { Release, Sharer, Shares } from "../../security/shares.js";
import type { EventOrder, FeedEventRecord, TenantSignal } from "../../store/event-feed-store.js";
import type { Store } from "../../store/store.js";
import { toTenantOrderData } from "../orders/tenant-orders.js";
import type { VocabularyChanged } from "../vocabulary/service.js";
import { eventPayload, orderAtEvent } from "../webhooks/event-payload.js";
import { deliveredType, outboxEventId, publicEventId } from "../webhooks/event-types.js";
import {
  encodeTenantCursor,
  PARTNER_EVENT_ID,
  parseTenantCursor,
  type TenantCursor,
} from "./cursor.js";
import { EventOrderReads } from "./event-orders.js";
import { EventFeed } from "./feed.js";
import { EventSession, type StreamMessage, type StreamSink, type StreamSpec } from "./session.js";

/** The order as the tenant's order list shows it, right after `event`. */
function tenantOrderAt(event: FeedEventRecord, found: EventOrder) {
  // The listing's shape (partner name, totals), so the console can show it as a list row.
  return toTenantOrderData({
    ...orderAtEvent(event, found.order, found.events, found.history).then,
    clientId: found.clientId,
    partnerName: found.partnerName,
  });
}

/** Clock skew between instances a resumed tenant stream allows for when replaying vocabulary. */
const VOCABULARY_SKEW_MS = 5000;

const lastEventIdInvalid = (detail: string) => new ApiError("last_event_id_invalid", detail);

/**
 * The live event streams of this process: the partner's (`GET /api/v1/events/stream`, the same
 * events and bodies as its webhooks) and the tenant console's (`GET /v1/tenant/events`, order
 * summaries and vocabulary changes), over one shared outbox feed, within the holder's shares
 * (`stream_opens`, `streams`, `replay_events`: config/shares.ts).
 */
export class EventStreams {
  readonly #feed: EventFeed;
  readonly #orders: EventOrderReads;
  readonly #sessions = new Set<EventSession>();
  #closing = false;

  constructor(
    private readonly store: Store,
    readonly config: EventsConfig,
    private readonly now: Clock,
    private readonly log: { warn(object: object, message: string): void },
    private readonly shares: Shares,
  ) {
    this.#feed = new EventFeed(store.events, now, config, log);
    this.#orders = new EventOrderReads(store.events);
  }

  /**
   * Tells the tenant's streams on every instance that its words changed (VocabularyService's
   * listener). The write has committed: a failed signal is logged, never the writer's error.
   */
  readonly announceVocabulary = (change: VocabularyChanged): void => {
    this.store.events
      .publish({ type: "vocabulary.changed", ...change })
      .catch((error: unknown) =>
        this.log.warn(
          { event: "vocabulary_signal_failed", err: (error as Error).message },
          "vocabulary change not signalled to event streams",
        ),
      );
  };

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
      replayLimit: this.replayLimit,
      render: async (events, page) => {
        const wanted = types ? events.filter((e) => types.has(deliveredType(e))) : events;
        const orders = await this.#orderReads(page, wanted);
        return events.map((event) => {
          const found = orders.get(event.orderId);
          // Filtered out, or purged since.
          if (!wanted.includes(event) || found?.order.partnerId !== partner.id) return undefined;
          const { order, events: orderEvents, history } = found;
          const payload = eventPayload(event, order, partner.clientId, orderEvents, history);
          return { id: payload.id, event: payload.type, data: payload };
        });
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
      replayLimit: this.replayLimit,
      render: async (events, page) => {
        const orders = await this.#orderReads(page, events);
        return events.map((event) => {
          const found = orders.get(event.orderId);
          if (found?.tenantId !== tenantId) return undefined; // purged, or moved to another tenant
          cursor.eventId = publicEventId(event.id);
          return message(deliveredType(event), { order: tenantOrderAt(event, found) });
        });
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

  /** The orders `events` are rendered from, read once for their page. */
  #orderReads(page: readonly FeedEventRecord[], events: readonly FeedEventRecord[]) {
    return this.#orders.of(
      page,
      events.map((event) => event.orderId),
    );
  }

  /**
   * Counts an open of `holder`'s against its `stream_opens` share (429 rate_limited past it):
   * before the resume point is looked up, so a flood of opens costs no store read.
   */
  async countOpen(holder: Sharer): Promise<void> {
    this.#refuseWhileClosing();
    await this.shares.take("stream_opens", holder);
  }

  /**
   * Takes a place for a new stream in the `streams` share: the instance's, the tenant's (its
   * partners' and users' streams together) and the holder's; 429 too_many_streams naming the
   * level that is full.
   */
  acquire(holder: Sharer): Release {
    this.#refuseWhileClosing();
    return this.shares.hold("streams", holder);
  }

  #refuseWhileClosing(): void {
    if (this.#closing)
      throw new ApiError(
        "shutting_down",
        "This gateway instance is shutting down; open the stream again (another instance answers).",
        { retry_after: 1 },
        { retryAfterSeconds: 1 },
      );
  }

  /** The most events one stream open replays (the `replay_events` share). */
  get replayLimit(): number {
    return this.shares.bound("replay_events").party ?? 0;
  }

  /**
   * Starts a stream of `holder` on `sink`; returns how to end it (the client went away). A
   * change of the holder's credentials, signalled from any instance, re-checks them at once.
   */
  start(
    spec: StreamSpec,
    sink: StreamSink & { recheck(): void },
    holder: Sharer,
    lease: Release,
  ): () => void {
    const turn = () => this.shares.tryHold("replays", holder);
    const session = new EventSession(
      this.#feed,
      this.store.events,
      spec,
      {
        send: (message) => sink.send(message),
        end: () => {
          this.#sessions.delete(session);
          lease();
          sink.end();
        },
        accessChanged: (party) => {
          if (party === holder.party) sink.recheck();
        },
      },
      turn,
    );
    this.#sessions.add(session);
    session.start();
    return () => session.close();
  }

  /** How many streams this instance holds (tests; /metrics has orderline_share_held). */
  get open(): number {
    return this.#sessions.size;
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

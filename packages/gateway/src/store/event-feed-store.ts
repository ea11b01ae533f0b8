import type { OrderChangeRecord, OrderEventRecord, SalesOrderRecord } from "./records.js";

/**
 * What the live event streams read (domain/events/): the order outbox in commit order, scoped to
 * a partner or a tenant, and tenant signals (`vocabulary.changed`) passed between instances.
 * Composed into `Store` as `store.events`; the SQL is shared (sql-event-feed-store.ts), the
 * signalling is each dialect's own (PostgreSQL NOTIFY, or in-process for the embedded store).
 */

/** An outbox event with the tenant its partner belonged to when read (null: none). */
export interface FeedEventRecord extends OrderEventRecord {
  tenantId: string | null;
}

/** Whose events: one partner's, or those of every partner of one tenant. */
export type EventScope = { partnerId: string } | { tenantId: string };

/** A change other than an order's that a tenant's open streams are told of. */
export interface TenantSignal {
  type: "vocabulary.changed";
  tenantId: string;
  namespace: string;
  language: string;
  /** When it was written (Unix ms): the resume cursor of the tenant stream. */
  at: number;
}

/**
 * A partner's or user's credentials changed (disabled, key revoked, secret rotated, password
 * set): every instance's open streams of that party check their credentials again at once.
 */
interface AccessSignal {
  type: "access.changed";
  /** `partner:<id>` or `user:<id>`. */
  party: string;
  at: number;
}

/** What instances tell each other's open streams. */
export type StreamSignal = TenantSignal | AccessSignal;

/**
 * What a stream renders an event of `order` from: the order as it is now, the partner it
 * belongs to, and its outbox events and history rows, from which the order at the event is
 * rebuilt (webhooks/event-payload.ts).
 */
export interface EventOrder {
  order: SalesOrderRecord;
  clientId: string;
  partnerName: string;
  tenantId: string | null;
  events: OrderEventRecord[];
  history: OrderChangeRecord[];
}

export interface VocabularyChange {
  namespace: string;
  language: string;
  updatedAt: number;
}

export interface EventFeedStore {
  /** The newest outbox events, newest first (where a feed starts reading). */
  latestEvents(limit: number): Promise<FeedEventRecord[]>;
  /** Outbox events after `afterSeq` in seq order, of `scope` when given. */
  eventsAfter(afterSeq: number, limit: number, scope?: EventScope): Promise<FeedEventRecord[]>;
  /** The id of the scope's newest outbox event at or before `seq` (where a new stream stands). */
  latestEventId(atOrBefore: number, scope: EventScope): Promise<string | undefined>;
  /** The seq of an outbox event (id without `evt_`) when it belongs to `scope`. */
  eventSeq(eventId: string, scope: EventScope): Promise<number | undefined>;
  /**
   * The orders of `orderIds` with what rendering their events needs, in three queries whatever
   * their number (a replayed page costs the same as one event). A purged order is absent.
   */
  eventOrders(orderIds: readonly string[]): Promise<Map<string, EventOrder>>;
  /** The tenant's vocabulary (namespace, language) pairs written after `since`. */
  vocabularyChangedSince(tenantId: string, since: number): Promise<VocabularyChange[]>;
  /** Tells every instance's listeners (this one's included) of `signal`. */
  publish(signal: StreamSignal): Promise<void>;
  /** Calls `listener` for every signal published on any instance; returns how to stop. */
  onSignal(listener: (signal: StreamSignal) => void): () => Promise<void>;
  /**
   * Calls `listener` when outbox events may have been written by any instance, where the store
   * can tell (PostgreSQL, the webhook worker's notification); absent: readers poll.
   */
  onEvents?(listener: () => void): () => Promise<void>;
}

import type { OrderEventRecord } from "./records.js";

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
  /** The tenant's vocabulary (namespace, language) pairs written after `since`. */
  vocabularyChangedSince(tenantId: string, since: number): Promise<VocabularyChange[]>;
  /** Tells every instance's listeners (this one's included) of `signal`. */
  publish(signal: TenantSignal): Promise<void>;
  /** Calls `listener` for every signal published on any instance; returns how to stop. */
  onSignal(listener: (signal: TenantSignal) => void): () => Promise<void>;
  /**
   * Calls `listener` when outbox events may have been written by any instance, where the store
   * can tell (PostgreSQL, the webhook worker's notification); absent: readers poll.
   */
  onEvents?(listener: () => void): () => Promise<void>;
}

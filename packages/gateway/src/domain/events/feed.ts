import type { Clock } from "../../lib/clock.js";
import type {
  EventFeedStore,
  FeedEventRecord,
  StreamSignal,
} from "../../store/event-feed-store.js";
import { initialHead, settledEvents } from "./cursor.js";

/** What a feed tells each open stream of this process. */
export interface FeedSubscriber {
  /** New outbox events of every partner, in seq order (each stream keeps its own). */
  events(batch: readonly FeedEventRecord[]): void;
  signal(signal: StreamSignal): void;
}

interface FeedOptions {
  /** How often the outbox is read while streams are open (PostgreSQL also wakes it at once). */
  pollMs: number;
  /** How long a seq gap holds the feed back (cursor.ts). */
  settleMs: number;
}

interface FeedLog {
  warn(object: object, message: string): void;
}

const BATCH = 500;
/** How soon a feed held back by a gap looks again. */
const GAP_RECHECK_MS = 250;

/**
 * The one reader of the outbox in a process, for all its open streams: one query per wake-up
 * whatever the number of streams, each batch handed to every subscriber in seq order. Runs only
 * while someone subscribes. Every instance runs its own over the shared store, so an event
 * written through any instance reaches the streams held on all of them.
 */
export class EventFeed {
  readonly #subscribers = new Set<FeedSubscriber>();
  #head: number | undefined;
  #starting: Promise<void> | undefined;
  #stops: (() => Promise<void>)[] = [];
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;

  constructor(
    private readonly store: EventFeedStore,
    private readonly now: Clock,
    private readonly options: FeedOptions,
    private readonly log: FeedLog,
  ) {}

  /**
   * Adds a subscriber; resolves the seq up to which it is told nothing: it reads its own events
   * up to there from the store, and is told every event after.
   */
  async subscribe(subscriber: FeedSubscriber): Promise<number> {
    this.#subscribers.add(subscriber);
    this.#starting ??= this.#start();
    await this.#starting;
    return this.#head ?? 0;
  }

  async unsubscribe(subscriber: FeedSubscriber): Promise<void> {
    this.#subscribers.delete(subscriber);
    if (this.#subscribers.size > 0) return;
    await this.#starting?.catch(() => {});
    if (this.#subscribers.size > 0) return;
    await this.stop();
  }

  /** Stops reading (no subscriber left, or the process closes). */
  async stop(): Promise<void> {
    this.#starting = undefined;
    this.#head = undefined;
    clearTimeout(this.#timer);
    const stops = this.#stops.splice(0);
    await Promise.all(stops.map((stop) => stop().catch(() => {})));
    await this.#running;
  }

  async #start(): Promise<void> {
    try {
      const recent = await this.store.latestEvents(200);
      this.#head = initialHead(recent, this.now(), this.options.settleMs);
    } catch (error) {
      this.#starting = undefined; // the next subscriber tries again
      throw error;
    }
    this.#stops.push(
      this.store.onSignal((signal) => {
        for (const subscriber of this.#subscribers) subscriber.signal(signal);
      }),
    );
    const unlisten = this.store.onEvents?.(() => this.wake());
    if (unlisten) this.#stops.push(unlisten);
    this.#schedule(this.options.pollMs);
  }

  /** Reads the outbox now rather than at the next poll. */
  wake(): void {
    if (this.#head === undefined) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#running = this.#read()
      .catch((error: unknown) => {
        this.log.warn(
          { event: "event_feed_failed", err: (error as Error).message },
          "event stream feed could not read the outbox",
        );
        return this.options.pollMs;
      })
      .then((next) => {
        this.#running = undefined;
        if (this.#head === undefined) return;
        if (this.#again) {
          this.#again = false;
          setImmediate(() => this.wake());
        } else this.#schedule(next);
      });
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.wake(), ms);
    this.#timer.unref();
  }

  /** Passes on what is settled; resolves when to look again. */
  async #read(): Promise<number> {
    for (;;) {
      const head = this.#head;
      if (head === undefined) return this.options.pollMs;
      const rows = await this.store.eventsAfter(head, BATCH);
      if (this.#head !== head) return this.options.pollMs; // stopped meanwhile
      const settled = settledEvents(rows, head, this.now(), this.options.settleMs);
      if (settled.length > 0) {
        this.#head = (settled.at(-1) as FeedEventRecord).seq;
        for (const subscriber of this.#subscribers) subscriber.events(settled);
      }
      if (settled.length < rows.length) return Math.min(GAP_RECHECK_MS, this.options.pollMs);
      if (rows.length < BATCH) return this.options.pollMs;
    }
  }
}

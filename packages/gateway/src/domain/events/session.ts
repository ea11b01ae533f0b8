import type {
  EventFeedStore,
  EventScope,
  FeedEventRecord,
  TenantSignal,
} from "../../store/event-feed-store.js";
import type { EventFeed, FeedSubscriber } from "./feed.js";

/** One server-sent event; with an id only, it moves the client's Last-Event-ID and no more. */
export interface StreamMessage {
  id?: string;
  event?: string;
  /** Sent as one line of JSON. */
  data?: unknown;
}

/** Where a session writes: an HTTP response (http/event-stream.ts) or anything alike. */
export interface StreamSink {
  /** Resolves once the message is handed to the connection (waits while it is backed up). */
  send(message: StreamMessage): Promise<void>;
  /** Ends the stream; the client resumes with the last id it got. */
  end(): void;
}

/** What one kind of stream (partner, tenant) makes of the feed. */
export interface StreamSpec {
  scope: EventScope;
  /** Resume after this outbox seq; undefined: from now on. */
  afterSeq: number | undefined;
  /** The message for an event of the scope, or undefined to pass over it (a filter). */
  render(event: FeedEventRecord): Promise<StreamMessage | undefined>;
  /** Messages to send before the missed events on a resume (the tenant's vocabulary). */
  resume?(): Promise<StreamMessage[]>;
  /**
   * On a new stream (no resume point): the id-only message saying where it starts, so a client
   * that loses the connection before any event resumes without missing one.
   */
  start?(head: number): Promise<StreamMessage>;
  /** The message for a signal of the scope's tenant, if the stream carries signals. */
  signal?(signal: TenantSignal): StreamMessage | undefined;
}

const CATCH_UP_BATCH = 200;
/** Events waiting for a slow client before its stream is ended (it resumes where it was). */
const MAX_BACKLOG = 2000;

const inScope = (scope: EventScope, event: FeedEventRecord): boolean =>
  "partnerId" in scope ? event.partnerId === scope.partnerId : event.tenantId === scope.tenantId;

/**
 * One open stream: first the scope's events after the resume point (read from the store up to
 * where the feed stands), then what the feed passes on, each event once and in seq order. Work
 * runs one step at a time on a chain; a client too slow to keep up is disconnected rather than
 * buffered without bound, and resumes from its Last-Event-ID.
 */
export class EventSession implements FeedSubscriber {
  #chain: Promise<void> = Promise.resolve();
  #backlog = 0;
  #lastSeq = 0;
  #closed = false;

  constructor(
    private readonly feed: EventFeed,
    private readonly store: EventFeedStore,
    private readonly spec: StreamSpec,
    private readonly sink: StreamSink,
  ) {}

  /** Subscribes and catches up; problems end the stream (the client resumes). */
  start(): void {
    let headKnown!: (head: number) => void;
    const head = new Promise<number>((resolve) => {
      headKnown = resolve;
    });
    this.#enqueue(0, () => head.then((at) => this.#catchUp(at)));
    this.feed.subscribe(this).then(headKnown, () => this.close());
  }

  /** Ends the stream and leaves the feed (idempotent). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    void this.feed.unsubscribe(this);
    this.sink.end();
  }

  events(batch: readonly FeedEventRecord[]): void {
    const mine = batch.filter((event) => inScope(this.spec.scope, event));
    if (mine.length === 0) return;
    this.#enqueue(mine.length, async () => {
      for (const event of mine) await this.#deliver(event);
    });
  }

  signal(signal: TenantSignal): void {
    const scope = this.spec.scope;
    if (!("tenantId" in scope) || signal.tenantId !== scope.tenantId) return;
    const message = this.spec.signal?.(signal);
    if (message) this.#enqueue(1, () => this.sink.send(message));
  }

  async #catchUp(head: number): Promise<void> {
    for (const message of (await this.spec.resume?.()) ?? []) await this.sink.send(message);
    if (this.spec.afterSeq === undefined && this.spec.start)
      await this.sink.send(await this.spec.start(head));
    let cursor = this.spec.afterSeq ?? head;
    while (cursor < head && !this.#closed) {
      const rows = await this.store.eventsAfter(cursor, CATCH_UP_BATCH, this.spec.scope);
      const upToHead = rows.filter((row) => row.seq <= head);
      for (const event of upToHead) await this.#deliver(event);
      if (upToHead.length < CATCH_UP_BATCH) break;
      cursor = (upToHead.at(-1) as FeedEventRecord).seq;
    }
    // A resume point ahead of this instance's feed (another instance read further): the feed's
    // events up to there were sent already.
    this.#lastSeq = Math.max(this.#lastSeq, this.spec.afterSeq ?? 0, head);
  }

  async #deliver(event: FeedEventRecord): Promise<void> {
    if (this.#closed || event.seq <= this.#lastSeq) return;
    const message = await this.spec.render(event);
    if (message) await this.sink.send(message);
    this.#lastSeq = event.seq;
  }

  #enqueue(size: number, step: () => Promise<void>): void {
    if (this.#closed) return;
    this.#backlog += size;
    if (this.#backlog > MAX_BACKLOG) {
      this.close();
      return;
    }
    this.#chain = this.#chain
      .then(() => (this.#closed ? undefined : step()))
      .then(
        () => {
          this.#backlog -= size;
        },
        () => this.close(),
      );
  }
}

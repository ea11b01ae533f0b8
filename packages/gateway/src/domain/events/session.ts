import type {
  EventFeedStore,
  EventScope,
  FeedEventRecord,
  StreamSignal,
  TenantSignal,
} from "../../store/event-feed-store.js";
import type { EventFeed, FeedSubscriber } from "./feed.js";

/** One server-sent event; with an id only, it moves the client's Last-Event-ID and no more. */
export interface StreamMessage {
  id?: string;
  event?: string;
  /** Sent as one line of JSON. */
  data?: unknown;
  /** A comment line before the fields: for people reading the stream, ignored by clients. */
  comment?: string;
}

/** Where a session writes: an HTTP response (http/event-stream.ts) or anything alike. */
export interface StreamSink {
  /** Resolves once the message is handed to the connection (waits while it is backed up). */
  send(message: StreamMessage): Promise<void>;
  /** Ends the stream; the client resumes with the last id it got. */
  end(): void;
  /** Some party's credentials changed (an `access.changed` signal, from any instance). */
  accessChanged?(party: string): void;
}

/** What one kind of stream (partner, tenant) makes of the feed. */
export interface StreamSpec {
  scope: EventScope;
  /** Resume after this outbox seq; undefined: from now on. */
  afterSeq: number | undefined;
  /**
   * The message of each of `events` (of the scope, in seq order), or undefined to pass over one
   * (a filter, a purged order). `page` is the batch they came from: the unit whose orders are
   * read together (event-orders.ts).
   */
  render(
    events: readonly FeedEventRecord[],
    page: readonly FeedEventRecord[],
  ): Promise<(StreamMessage | undefined)[]>;
  /** Messages to send before the missed events on a resume (the tenant's vocabulary). */
  resume?(): Promise<StreamMessage[]>;
  /**
   * On a new stream (no resume point), and after a replay cut short: the id-only message saying
   * where it stands, so a client that loses the connection before any event resumes from there.
   */
  start(head: number): Promise<StreamMessage>;
  /** The most events of the scope a resume replays; past it the stream goes on from now. */
  replayLimit: number;
  /** The message for a signal of the scope's tenant, if the stream carries signals. */
  signal?(signal: TenantSignal): StreamMessage | undefined;
}

const CATCH_UP_BATCH = 100;
/**
 * Messages sent between two turns of the event loop: a page is rendered and written in slices,
 * so other requests (another tenant's orders) are served between them, not after a whole page.
 */
const SEND_SLICE = 25;
/** How often a replay waiting for its turn (the `replays` share) asks again. */
const REPLAY_TURN_POLL_MS = 25;

/** What a replay cut short says (a comment: clients that do not read it lose nothing). */
const replayTruncated = (limit: number) =>
  `replay-truncated: ${limit} events replayed, the most one stream open replays; ` +
  "the stream continues from now (list the orders to catch up on the rest)";
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
    /** A place among the replays running (the `replays` share), or undefined when none is free. */
    private readonly replayTurn: () => (() => void) | undefined = () => () => {},
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
    this.#enqueue(mine.length, () => this.#deliver(mine, batch));
  }

  signal(signal: StreamSignal): void {
    if (signal.type === "access.changed") {
      this.sink.accessChanged?.(signal.party);
      return;
    }
    this.#tenantSignal(signal);
  }

  #tenantSignal(signal: TenantSignal): void {
    const scope = this.spec.scope;
    if (!("tenantId" in scope) || signal.tenantId !== scope.tenantId) return;
    const message = this.spec.signal?.(signal);
    if (message) this.#enqueue(1, () => this.sink.send(message));
  }

  async #catchUp(head: number): Promise<void> {
    for (const message of (await this.spec.resume?.()) ?? []) await this.sink.send(message);
    if (this.spec.afterSeq === undefined) await this.sink.send(await this.spec.start(head));
    else await this.#replay(this.spec.afterSeq, head);
    // A resume point ahead of this instance's feed (another instance read further): the feed's
    // events up to there were sent already.
    this.#lastSeq = Math.max(this.#lastSeq, this.spec.afterSeq ?? 0, head);
  }

  /**
   * The scope's events after `from` up to `head`, a page at a time, at most `replayLimit` of
   * them: past that the stream says so and stands at `head` (what the feed passes on next).
   */
  async #replay(from: number, head: number): Promise<void> {
    const release = await this.#turn();
    try {
      await this.#replayPages(from, head);
    } finally {
      release();
    }
  }

  /**
   * Waits for a place among the replays running: one tenant's replays take turns (its streams
   * reconnecting at once, or one reopening in a loop), so the store reads and rendering of one
   * tenant's history never take every other tenant's share of the process.
   */
  async #turn(): Promise<() => void> {
    for (;;) {
      if (this.#closed) return () => {};
      const release = this.replayTurn();
      if (release) return release;
      await new Promise((resolve) => setTimeout(resolve, REPLAY_TURN_POLL_MS));
    }
  }

  async #replayPages(from: number, head: number): Promise<void> {
    const limit = this.spec.replayLimit;
    let cursor = from;
    let replayed = 0;
    while (cursor < head && !this.#closed) {
      const room = limit - replayed;
      // One row past the room tells whether the limit cuts anything off.
      const wanted = Math.min(CATCH_UP_BATCH, room + 1);
      const rows = await this.store.eventsAfter(cursor, wanted, this.spec.scope);
      const upToHead = rows.filter((row) => row.seq <= head);
      await this.#deliver(upToHead.slice(0, room), rows);
      if (upToHead.length > room) {
        if (this.#closed) return;
        await this.sink.send({ ...(await this.spec.start(head)), comment: replayTruncated(limit) });
        return;
      }
      replayed += upToHead.length;
      if (upToHead.length < rows.length || rows.length < wanted) return;
      cursor = (upToHead.at(-1) as FeedEventRecord).seq;
    }
  }

  /** `events` of `page`, those not sent yet, rendered together and sent in order. */
  async #deliver(
    events: readonly FeedEventRecord[],
    page: readonly FeedEventRecord[],
  ): Promise<void> {
    const fresh = events.filter((event) => event.seq > this.#lastSeq);
    if (this.#closed || fresh.length === 0) return;
    const messages = await this.spec.render(fresh, page);
    for (const [i, event] of fresh.entries()) {
      if (this.#closed) return;
      const message = messages[i];
      if (message) await this.sink.send(message);
      this.#lastSeq = event.seq;
      if ((i + 1) % SEND_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
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

import type pg from "pg";
import type { StreamSignal } from "../event-feed-store.js";
import { parseSignal, SqlEventFeedStore } from "../sql-event-feed-store.js";
import { listenOn } from "./listen.js";
import { PostgresRunner } from "./runner.js";

/** Tenant signals between instances: NOTIFY payloads (small JSON, well under 8000 bytes). */
const SIGNAL_CHANNEL = "orderline_tenant_events";

/** What migration 018's trigger notifies for every statement that writes outbox rows. */
const EVENTS_CHANNEL = "orderline_events";

/**
 * The event feed on PostgreSQL: signals travel by NOTIFY to every instance, and new outbox rows
 * wake readers on their own channel (the webhook workers' channel is only for webhook work).
 * A feed that wants both holds one connection for both (`onEvents` with `onSignal`).
 */
export class PostgresEventFeedStore extends SqlEventFeedStore {
  readonly #signalListeners = new Set<(signal: StreamSignal) => void>();
  readonly #eventListeners = new Set<() => void>();
  #stop: (() => Promise<void>) | undefined;

  constructor(
    private readonly pool: pg.Pool,
    /**
     * False behind a transaction pooler (pool.ts): no LISTEN. Streams then read the outbox every
     * GATEWAY_EVENTS_POLL_MS, signals reach this instance's streams directly, and other
     * instances' streams check credentials again on their periodic recheck.
     */
    private readonly listens = true,
  ) {
    super(new PostgresRunner(pool));
  }

  async publish(signal: StreamSignal): Promise<void> {
    if (!this.listens) {
      for (const tell of this.#signalListeners) tell(signal);
      return;
    }
    await this.pool.query("SELECT pg_notify($1, $2)", [SIGNAL_CHANNEL, JSON.stringify(signal)]);
  }

  onSignal(listener: (signal: StreamSignal) => void): () => Promise<void> {
    return this.#add(this.#signalListeners, listener);
  }

  onEvents(listener: () => void): () => Promise<void> {
    return this.#add(this.#eventListeners, listener);
  }

  /** One LISTEN connection while anyone listens, to both channels. */
  #add<L>(set: Set<L>, listener: L): () => Promise<void> {
    set.add(listener);
    if (!this.listens) return async () => void set.delete(listener);
    this.#stop ??= listenOn(
      this.pool,
      [EVENTS_CHANNEL, SIGNAL_CHANNEL],
      (channel, payload) => {
        if (channel === EVENTS_CHANNEL) for (const wake of this.#eventListeners) wake();
        const signal = channel === SIGNAL_CHANNEL ? parseSignal(payload) : undefined;
        if (signal) for (const tell of this.#signalListeners) tell(signal);
      },
      () => {
        for (const wake of this.#eventListeners) wake();
      },
    );
    return async () => {
      set.delete(listener);
      if (this.#signalListeners.size + this.#eventListeners.size > 0) return;
      const stop = this.#stop;
      this.#stop = undefined;
      await stop?.();
    };
  }
}

import { EventEmitter } from "node:events";
import type Database from "better-sqlite3";
import type { StreamSignal } from "../event-feed-store.js";
import { SqlEventFeedStore } from "../sql-event-feed-store.js";
import type { SqlRunner } from "../sql-runner.js";
import { SqliteRunner } from "./runner.js";

/**
 * The event feed on the embedded store: one process owns the file, so signals stay in it, and
 * the store tells the feed when an order or a move of this process committed (`written`);
 * readers poll too, for rows written by another process (the admin CLI).
 */
export class SqliteEventFeedStore extends SqlEventFeedStore {
  readonly #signals = new EventEmitter().setMaxListeners(0);

  /** `readers`: the store's reader threads, where streams' catch-up reads run. */
  constructor(db: Database.Database, readers?: Pick<SqlRunner, "rows">) {
    const runner = new SqliteRunner(db);
    super(runner, readers ?? runner);
  }

  async publish(signal: StreamSignal): Promise<void> {
    this.#signals.emit("signal", { ...signal });
  }

  /** Called by the store once an outbox row of this process committed. */
  written(): void {
    this.#signals.emit("written");
  }

  onEvents(listener: () => void): () => Promise<void> {
    this.#signals.on("written", listener);
    return async () => {
      this.#signals.off("written", listener);
    };
  }

  onSignal(listener: (signal: StreamSignal) => void): () => Promise<void> {
    this.#signals.on("signal", listener);
    return async () => {
      this.#signals.off("signal", listener);
    };
  }
}

import { EventEmitter } from "node:events";
import type Database from "better-sqlite3";
import type { TenantSignal } from "../event-feed-store.js";
import { SqlEventFeedStore } from "../sql-event-feed-store.js";
import { SqliteRunner } from "./runner.js";

/**
 * The event feed on the embedded store: one process owns the file, so signals stay in it. No
 * notification of new outbox rows (the order writer runs in its own thread): readers poll.
 */
export class SqliteEventFeedStore extends SqlEventFeedStore {
  readonly #signals = new EventEmitter().setMaxListeners(0);

  constructor(db: Database.Database) {
    super(new SqliteRunner(db));
  }

  async publish(signal: TenantSignal): Promise<void> {
    this.#signals.emit("signal", { ...signal });
  }

  onSignal(listener: (signal: TenantSignal) => void): () => Promise<void> {
    this.#signals.on("signal", listener);
    return async () => {
      this.#signals.off("signal", listener);
    };
  }
}

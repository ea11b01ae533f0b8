import type { EventFeedStore, EventOrder, FeedEventRecord } from "../../store/event-feed-store.js";

type Loading = Promise<EventOrder | undefined>;

/**
 * The orders that events of one page (a replay page, or a batch the feed hands to every stream)
 * are rendered from, read together: one `eventOrders` call per page and stream, and streams
 * rendering the same feed batch (a tenant's consoles) share the reads of orders another already
 * asked for. Kept only as long as the page itself.
 */
export class EventOrderReads {
  readonly #pages = new WeakMap<readonly FeedEventRecord[], Map<string, Loading>>();

  constructor(private readonly store: Pick<EventFeedStore, "eventOrders">) {}

  async of(
    page: readonly FeedEventRecord[],
    orderIds: readonly string[],
  ): Promise<Map<string, EventOrder>> {
    let known = this.#pages.get(page);
    if (known === undefined) {
      known = new Map();
      this.#pages.set(page, known);
    }
    const missing = [...new Set(orderIds)].filter((id) => !known.has(id));
    if (missing.length > 0) {
      const loading = this.store.eventOrders(missing);
      for (const id of missing) {
        const one = loading.then((found) => found.get(id));
        // A failed read ends the streams that await it; the others must not see it unhandled.
        one.catch(() => {});
        known.set(id, one);
      }
    }
    const found = new Map<string, EventOrder>();
    for (const id of new Set(orderIds)) {
      const order = await known.get(id);
      if (order) found.set(id, order);
    }
    return found;
  }
}

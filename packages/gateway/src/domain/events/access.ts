import type { EventFeedStore } from "../../store/event-feed-store.js";

/**
 * Tells the open streams of `party` (`partner:<id>` or `user:<id>`), on every instance, that its
 * credentials changed: each checks its token and signature again at once and ends if they no
 * longer hold. The change has committed already, so a signal that cannot go out is not the
 * caller's error: those streams then end at their periodic re-check (GATEWAY_EVENTS_RECHECK_MS).
 */
export async function announceAccessChange(
  events: Pick<EventFeedStore, "publish">,
  party: string,
  at: number,
): Promise<void> {
  await events.publish({ type: "access.changed", party, at }).catch(() => {});
}

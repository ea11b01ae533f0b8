import { useEffect, useRef } from "react";
import { subscribeTenantEvents } from "./tenant-events.js";

/** Order events arriving close together (a bulk move, a burst of orders) cause one reload. */
const SETTLE_MS = 400;

/**
 * Calls `onChange` when an order of the tenant is created or moves, from the tenant event
 * stream (one shared connection, no polling), at most once per SETTLE_MS; `created` counts
 * the new orders among them.
 */
export const useOrderEvents = (onChange: (created: number) => void): void => {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let created = 0;
    const unsubscribe = subscribeTenantEvents((event) => {
      if (!event.type.startsWith("order.")) return;
      if (event.type === "order.created") created += 1;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const count = created;
        created = 0;
        latest.current(count);
      }, SETTLE_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, []);
};

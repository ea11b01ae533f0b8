import type { Store } from "../store/store.js";
import { countStoreError } from "./metrics.js";
import { spanAround, tracingEnabled } from "./tracing.js";

const isThenable = (value: unknown): value is Promise<unknown> =>
  typeof (value as { then?: unknown })?.then === "function";

/**
 * Calls `method` and counts its failure by kind, sync throw or rejection alike. What it returns
 * is passed on as it is: a synchronous method (`events.onSignal`, whose stop function the feed
 * calls) must stay synchronous, or its caller gets a Promise where it expects a value.
 */
function counted(method: () => unknown): unknown {
  try {
    const result = method();
    return isThenable(result)
      ? result.then(undefined, (error: unknown) => {
          countStoreError(error);
          throw error;
        })
      : result;
  } catch (error) {
    countStoreError(error);
    throw error;
  }
}

/**
 * Wraps each method of `target` so that a failure is counted by kind (metrics) and, while
 * tracing runs, the call is a span `<prefix>.<method>` that ends when the call does (at once
 * for a synchronous method, on settling for an async one). Methods run on the real object (its
 * private fields stay reachable); other properties pass through.
 */
function probed<T extends object>(target: T, prefix: string): T {
  const wrappers = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (typeof value !== "function" || typeof property !== "string") return value;
      let wrapper = wrappers.get(property);
      if (wrapper === undefined) {
        const name = `${prefix}.${property}`;
        wrapper = (...args: unknown[]) => {
          const call = () => counted(() => value.apply(object, args));
          return tracingEnabled() ? spanAround(name, call) : call();
        };
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}

/** The store as the gateway's services see it: failures counted, calls traced when on. */
export function probedStore(store: Store): Store {
  const tenants = probed(store.tenants, "store.tenants");
  const webhooks = probed(store.webhooks, "store.webhooks");
  const events = probed(store.events, "store.events");
  const audit = probed(store.audit, "store.audit");
  const team = probed(store.team, "store.team");
  const requestLog = probed(store.requestLog, "store.requestLog");
  const top = probed(store, "store");
  return new Proxy(top, {
    get(object, property, receiver) {
      if (property === "tenants") return tenants;
      if (property === "webhooks") return webhooks;
      if (property === "events") return events;
      if (property === "audit") return audit;
      if (property === "team") return team;
      if (property === "requestLog") return requestLog;
      return Reflect.get(object, property, receiver);
    },
  });
}

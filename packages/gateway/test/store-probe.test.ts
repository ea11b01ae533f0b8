import { afterEach, describe, expect, it } from "vitest";
import { probedStore } from "../src/observability/store-probe.js";
import { tempDir } from "./helpers.js";
import { freshStore, storeKinds } from "./support/stores.js";
import { spanNames, tracingOff, tracingOn } from "./support/tracing.js";

afterEach(tracingOff);

type Outcome = "throws" | "promise" | "value";

/** What a call came to, with any promise settled (or left after 5 s) and any stop called. */
async function outcomeOf(
  call: () => unknown,
): Promise<{ outcome: Outcome; type: string; settled: boolean }> {
  let result: unknown;
  try {
    result = call();
  } catch {
    return { outcome: "throws", type: "error", settled: true };
  }
  if (result instanceof Promise) {
    const settled = await Promise.race([
      result.then(
        () => true,
        () => true,
      ),
      new Promise<false>((r) => setTimeout(() => r(false), 5000)),
    ]);
    return { outcome: "promise", type: "promise", settled };
  }
  // A subscription's stop: it must be callable as the interface says, and releases the listener.
  if (typeof result === "function") await (result as () => Promise<void>)();
  return { outcome: "value", type: typeof result, settled: true };
}

/** Every method an object answers to, own and inherited, `close` last (it ends the store). */
function methodsOf(object: object): string[] {
  const names = new Set<string>();
  for (
    let proto = object;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  )
    for (const name of Object.getOwnPropertyNames(proto))
      if (name !== "constructor" && typeof (object as Record<string, unknown>)[name] === "function")
        names.add(name);
  return [...names].filter((name) => name !== "close").sort();
}

const PARTS = ["tenants", "webhooks", "events", "audit", "team", "requestLog"] as const;

describe.each(storeKinds)("the store probe keeps every method's contract (%s store)", (kind) => {
  it("with tracing on, every method of every Store interface returns what it returns unprobed (sync stays sync), in a span", async () => {
    const { dir, cleanup } = tempDir();
    const raw = await freshStore(kind, dir);
    try {
      tracingOn();
      const probed = probedStore(raw);
      const targets: [
        string,
        Record<string, (...a: unknown[]) => unknown>,
        Record<string, (...a: unknown[]) => unknown>,
      ][] = [
        ["store", raw as never, probed as never],
        ...PARTS.map(
          (part) =>
            [`store.${part}`, raw[part] as never, probed[part] as never] as [string, never, never],
        ),
      ];
      const differences: string[] = [];
      let synchronous = 0;
      for (const [prefix, unprobed, wrapped] of targets) {
        for (const method of methodsOf(unprobed)) {
          // Arguments the methods cannot use: each call fails or does nothing, the same way
          // with and without the probe, which is all this compares.
          const plain = await outcomeOf(() => unprobed[method]?.(() => {}));
          const through = await outcomeOf(() => wrapped[method]?.(() => {}));
          if (plain.outcome === "value") synchronous += 1;
          if (plain.outcome !== through.outcome || plain.type !== through.type)
            differences.push(`${prefix}.${method}: ${plain.type} unprobed, ${through.type} probed`);
          // A span ends when its call does (a call these arguments leave hanging has none yet).
          if (through.settled)
            expect(spanNames(), `${prefix}.${method} made no span`).toContain(
              `${prefix}.${method}`,
            );
        }
      }
      expect(differences).toEqual([]);
      // The subscriptions (events.onSignal, events.onEvents, webhooks.onWork) are synchronous.
      expect(synchronous).toBeGreaterThanOrEqual(2);
    } finally {
      await tracingOff();
      await raw.close();
      cleanup();
    }
  }, 120_000);
});

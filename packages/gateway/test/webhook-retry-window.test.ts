/**
 * The retry-or-give-up rule of webhook deliveries (domain/webhooks/backoff.ts), walked over the
 * whole retry window with a simulated clock and the shipped settings: a receiver that is down
 * keeps getting retries until the window (3 days) has passed, never after, and never gives up
 * early. A unit slip (seconds taken for milliseconds) gives up within minutes and fails here.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { failingSinceLimit, nextAfterAttempt } from "../src/domain/webhooks/backoff.js";
import { TEST_EVENT_TYPE } from "../src/domain/webhooks/event-types.js";

const rules = loadConfig({ GATEWAY_MASTER_KEY: undefined }, {}).webhooks;
const HOUR = 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);

/** Every attempt of one event to a receiver that never answers well, with `random` jitter. */
function attemptsUntilGivenUp(random: () => number) {
  const at: number[] = [];
  let now = T0;
  for (let attempt = 1; attempt < 10_000; attempt++) {
    at.push(now);
    const next = nextAfterAttempt(
      { attempt, createdAt: T0, eventType: "order.created" },
      false,
      now,
      rules,
      random,
    );
    if (next.kind !== "retry") return { at, gaveUpAt: now, outcome: next.kind };
    expect(next.at).toBeGreaterThan(now);
    now = next.at;
  }
  throw new Error("never gave up");
}

describe("webhook retries over the whole window", () => {
  it("the shipped window is 3 days, with waits growing from seconds to the cap", () => {
    expect(rules.retryWindowSeconds).toBe(3 * 24 * 60 * 60);
    expect(rules.backoffMaxMs).toBe(HOUR);
  });

  for (const [name, random] of [
    ["shortest waits", () => 0],
    ["longest waits", () => 1],
    ["middle waits", () => 0.5],
  ] as const)
    it(`a receiver down for good is retried until 3 days have passed, then given up (${name})`, () => {
      const { at, gaveUpAt, outcome } = attemptsUntilGivenUp(random);
      expect(outcome).toBe("failed");
      const window = rules.retryWindowSeconds * 1000;
      // Given up at the first attempt at or after the window, no sooner and no later than one
      // wait (at most the cap) past it.
      expect(gaveUpAt - T0).toBeGreaterThanOrEqual(window);
      expect(gaveUpAt - T0).toBeLessThanOrEqual(window + rules.backoffMaxMs);
      const beforeEnd = at.filter((t) => t - T0 < window);
      expect(beforeEnd.length).toBe(at.length - 1);
      // Retries keep coming through the third day: none is more than the cap apart.
      for (let i = 1; i < at.length; i++)
        expect((at[i] ?? 0) - (at[i - 1] ?? 0)).toBeLessThanOrEqual(rules.backoffMaxMs);
      // The first waits are short (a receiver back after a blip gets its event in seconds).
      expect((at[1] ?? 0) - T0).toBeLessThanOrEqual(rules.backoffBaseMs);
      expect(at.length).toBeGreaterThan(70);
    });

  it("an attempt at any moment inside the window is retried; at its end it is not", () => {
    const window = rules.retryWindowSeconds * 1000;
    for (const elapsed of [0, 259_000, HOUR, 24 * HOUR, 71 * HOUR, window - 1]) {
      const next = nextAfterAttempt(
        { attempt: 20, createdAt: T0, eventType: "order.created" },
        false,
        T0 + elapsed,
        rules,
      );
      expect(next.kind, `after ${elapsed} ms`).toBe("retry");
    }
    expect(
      nextAfterAttempt(
        { attempt: 20, createdAt: T0, eventType: "order.created" },
        false,
        T0 + window,
        rules,
      ).kind,
    ).toBe("failed");
  });

  it("a success ends it; a test event gets one attempt", () => {
    const delivery = { attempt: 1, createdAt: T0, eventType: "order.created" };
    expect(nextAfterAttempt(delivery, true, T0, rules).kind).toBe("succeeded");
    expect(
      nextAfterAttempt({ ...delivery, eventType: TEST_EVENT_TYPE }, false, T0, rules).kind,
    ).toBe("failed");
  });

  it("an endpoint is disabled only after failing for the configured seconds", () => {
    const now = T0 + 10 * 24 * HOUR;
    expect(now - failingSinceLimit(now, rules.disableAfterSeconds)).toBe(
      rules.disableAfterSeconds * 1000,
    );
  });
});

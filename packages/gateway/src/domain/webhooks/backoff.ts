import type { DeliveryNext } from "../../store/webhook-store.js";
import { TEST_EVENT_TYPE } from "./event-types.js";

/**
 * The wait before the next attempt after `attempt` failed: base × 2^(attempt−1), capped at max,
 * then "equal jitter" (a random point in its upper half), so receivers coming back up are not
 * hit by every queued delivery in the same second, yet each wait stays at least half the curve.
 */
export function backoffMs(
  attempt: number,
  options: { baseMs: number; maxMs: number },
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 40);
  const full = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  return Math.round(full / 2 + random() * (full / 2));
}

/** The settings the retry rule reads (WebhooksConfig's). */
interface RetryRules {
  retryWindowSeconds: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/**
 * What follows an attempt made at `at` (ms) on an event queued at `createdAt` (ms): done, a retry
 * after backoff while the retry window lasts, or given up once it has passed. A test event gets
 * one attempt, its outcome listed among the deliveries: retrying it would turn each test into a
 * hundred requests at whatever URL the endpoint names.
 */
export function nextAfterAttempt(
  delivery: { attempt: number; createdAt: number; eventType: string },
  succeeded: boolean,
  at: number,
  rules: RetryRules,
  random: () => number = Math.random,
): DeliveryNext {
  if (succeeded) return { kind: "succeeded" };
  if (delivery.eventType === TEST_EVENT_TYPE) return { kind: "failed" };
  if (at - delivery.createdAt >= rules.retryWindowSeconds * 1000) return { kind: "failed" };
  const wait = backoffMs(
    delivery.attempt,
    { baseMs: rules.backoffBaseMs, maxMs: rules.backoffMaxMs },
    random,
  );
  return { kind: "retry", at: at + wait };
}

/** Endpoints failing since before this moment (ms), without a success, are disabled. */
export function failingSinceLimit(at: number, disableAfterSeconds: number): number {
  return at - disableAfterSeconds * 1000;
}

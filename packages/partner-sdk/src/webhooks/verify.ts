import { timingSafeEqual } from "node:crypto";
import { WebhookSignatureError } from "../errors.js";
import { parseSignatureHeader } from "./parse-header.js";
import { payloadBytes, secretsOf, v1Signature } from "./signature.js";
import type { WebhookEvent } from "./types.js";

export interface VerifyWebhookOptions {
  /** The raw body exactly as received, before any JSON parsing (string as UTF-8, or bytes). */
  payload: string | Uint8Array;
  /** The `Orderline-Signature` header's value. */
  header: string | null | undefined;
  /** The endpoint's secret (`whsec_…`). */
  secret?: string;
  /** Several secrets, e.g. the new and the old one while the sender rotates: any may match. */
  secrets?: readonly string[];
  /** The replay window: how far `t` may be from now, either way (default 300 s). */
  toleranceSeconds?: number;
  /** The current time (Unix ms or a Date), for tests and replays of stored deliveries. */
  now?: number | Date;
}

const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Checks a webhook delivery and returns its event: the header must carry a `v1` signature that
 * one of the secrets produces over `<t>.<raw body>` (compared in constant time), and `t` must be
 * within the tolerance of now. Anything else throws WebhookSignatureError with its `reason`.
 */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (typeof tolerance !== "number" || Number.isNaN(tolerance) || tolerance < 0) {
    throw new TypeError("toleranceSeconds must be a number of seconds, 0 or more");
  }
  const secrets = secretsOf(options);
  const body = payloadBytes(options.payload);
  const { timestamp, signatures } = parseSignatureHeader(options.header);

  // Every secret against every signature: a rotation sends one v1 per active secret.
  const matched = secrets.some((secret) => {
    const expected = v1Signature(secret, timestamp, body);
    return signatures.some((candidate) => timingSafeEqual(candidate, expected));
  });
  if (!matched) {
    throw new WebhookSignatureError(
      "no_matching_signature",
      "No v1 signature matches the body with the given secret(s): a forged or altered delivery, " +
        "the wrong secret, or a body changed before verification (parsed and re-serialised?).",
    );
  }

  // Checked after the signature, so only an authentic delivery is reported as old.
  const nowMs = options.now === undefined ? Date.now() : Number(options.now);
  const ageSeconds = Math.abs(nowMs / 1000 - Number(timestamp));
  if (ageSeconds > tolerance) {
    throw new WebhookSignatureError(
      "timestamp_outside_tolerance",
      `The delivery's timestamp (t=${timestamp}) is ${Math.round(ageSeconds)} s from now, beyond the ${tolerance} s tolerance: a replay, or a clock that is off.`,
    );
  }

  try {
    return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
  } catch {
    throw new WebhookSignatureError(
      "payload_not_json",
      "The signature matches but the body is not JSON.",
    );
  }
}

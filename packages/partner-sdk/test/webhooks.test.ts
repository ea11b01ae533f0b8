/**
 * verifyWebhook and signWebhook against the webhook contract. The expected signatures are
 * computed here with node:crypto straight from the contract's words, not with the SDK's signer.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook, WebhookSignatureError } from "../src/index.js";
import { ACCEPTED_BODY, ACCEPTED_EVENT, webhookSecret } from "./support/webhook-event.js";

const secret = webhookSecret();
const now = Date.UTC(2026, 10, 22, 18, 0, 5);
const t = Math.floor(now / 1000);

/** The contract: hex(HMAC-SHA256(key = secret as UTF-8, message = "<t>.<raw body>")). */
function contractV1(key: string, timestamp: number, body: string | Buffer): string {
  return createHmac("sha256", Buffer.from(key, "utf8"))
    .update(Buffer.concat([Buffer.from(`${timestamp}.`), Buffer.from(body)]))
    .digest("hex");
}

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookSignatureError) return error.reason;
    throw error;
  }
  return "verified";
}

describe("verifyWebhook", () => {
  const header = `t=${t},v1=${contractV1(secret, t, ACCEPTED_BODY)}`;

  it("returns the event of a delivery signed as the contract says, from a string or bytes", () => {
    expect(verifyWebhook({ payload: ACCEPTED_BODY, header, secret, now })).toEqual(ACCEPTED_EVENT);
    const bytes = Buffer.from(ACCEPTED_BODY, "utf8");
    expect(verifyWebhook({ payload: bytes, header, secret, now }).id).toBe(ACCEPTED_EVENT.id);
    expect(verifyWebhook({ payload: new Uint8Array(bytes), header, secret, now }).type).toBe(
      "order.accepted",
    );
  });

  it("signWebhook writes the header the contract describes", () => {
    expect(signWebhook({ payload: ACCEPTED_BODY, secret, timestamp: t })).toBe(header);
    const two = signWebhook({
      payload: ACCEPTED_BODY,
      secrets: [secret, "whsec_old"],
      timestamp: t,
    });
    expect(two).toBe(`${header},v1=${contractV1("whsec_old", t, ACCEPTED_BODY)}`);
  });

  it("accepts any matching v1 entry and any of several secrets (rotation)", () => {
    const oldSecret = webhookSecret();
    const rotating = `t=${t},v1=${contractV1(oldSecret, t, ACCEPTED_BODY)},v1=${contractV1(secret, t, ACCEPTED_BODY)}`;
    expect(
      reasonOf(() => verifyWebhook({ payload: ACCEPTED_BODY, header: rotating, secret, now })),
    ).toBe("verified");
    const signedWithOld = `t=${t},v1=${contractV1(oldSecret, t, ACCEPTED_BODY)}`;
    expect(
      reasonOf(() =>
        verifyWebhook({
          payload: ACCEPTED_BODY,
          header: signedWithOld,
          secrets: [secret, oldSecret],
          now,
        }),
      ),
    ).toBe("verified");
    expect(
      reasonOf(() => verifyWebhook({ payload: ACCEPTED_BODY, header: signedWithOld, secret, now })),
    ).toBe("no_matching_signature");
  });

  it("refuses an altered body, a wrong secret and a signature moved to another timestamp", () => {
    const altered = ACCEPTED_BODY.replace('"quantity":2', '"quantity":20');
    expect(reasonOf(() => verifyWebhook({ payload: altered, header, secret, now }))).toBe(
      "no_matching_signature",
    );
    // Re-serialised JSON is other bytes, even when it means the same.
    const reformatted = JSON.stringify(ACCEPTED_EVENT, null, 2);
    expect(reasonOf(() => verifyWebhook({ payload: reformatted, header, secret, now }))).toBe(
      "no_matching_signature",
    );
    expect(
      reasonOf(() =>
        verifyWebhook({ payload: ACCEPTED_BODY, header, secret: webhookSecret(), now }),
      ),
    ).toBe("no_matching_signature");
    const moved = header.replace(`t=${t}`, `t=${t + 1}`);
    expect(
      reasonOf(() => verifyWebhook({ payload: ACCEPTED_BODY, header: moved, secret, now })),
    ).toBe("no_matching_signature");
  });

  it("refuses a timestamp outside the window either way, and honours the tolerance", () => {
    const at = (seconds: number) =>
      signWebhook({ payload: ACCEPTED_BODY, secret, timestamp: t + seconds });
    const verify = (h: string, toleranceSeconds?: number) =>
      reasonOf(() =>
        verifyWebhook({
          payload: ACCEPTED_BODY,
          header: h,
          secret,
          now,
          ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
        }),
      );
    expect(verify(at(-300))).toBe("verified");
    expect(verify(at(-301))).toBe("timestamp_outside_tolerance");
    expect(verify(at(301))).toBe("timestamp_outside_tolerance");
    expect(verify(at(-3600), 7200)).toBe("verified");
    expect(verify(at(-31), 30)).toBe("timestamp_outside_tolerance");
    expect(verify(at(-86_400 * 365), Number.POSITIVE_INFINITY)).toBe("verified");
  });

  it("tells a missing header from a malformed one", () => {
    const v1 = contractV1(secret, t, ACCEPTED_BODY);
    const verify = (h: string | undefined | null) =>
      reasonOf(() => verifyWebhook({ payload: ACCEPTED_BODY, header: h, secret, now }));
    expect(verify(undefined)).toBe("header_missing");
    expect(verify(null)).toBe("header_missing");
    expect(verify("  ")).toBe("header_missing");
    for (const bad of [
      `v1=${v1}`,
      `t=${t}`,
      `t=${t},v0=${v1}`,
      `t=yesterday,v1=${v1}`,
      `t=${t},t=${t},v1=${v1}`,
      `t=${t},v1=${v1.slice(2)}`,
      `t=${t},v1=${"z".repeat(64)}`,
      `t=${t};v1=${v1}`,
    ]) {
      expect(verify(bad), bad).toBe("header_malformed");
    }
    // Spaces after commas and entries of other schemes are fine.
    expect(verify(`t=${t}, v2=abc, v1=${v1}`)).toBe("verified");
  });

  it("refuses a signed body that is not JSON, saying so", () => {
    const header2 = signWebhook({ payload: "not json", secret, timestamp: t });
    expect(
      reasonOf(() => verifyWebhook({ payload: "not json", header: header2, secret, now })),
    ).toBe("payload_not_json");
  });

  it("refuses programming mistakes with a TypeError: a parsed body, no secret, a bad tolerance", () => {
    const parsed = ACCEPTED_EVENT as unknown as string;
    expect(() => verifyWebhook({ payload: parsed, header, secret, now })).toThrow(/raw body/);
    expect(() => verifyWebhook({ payload: ACCEPTED_BODY, header, now })).toThrow(TypeError);
    expect(() => verifyWebhook({ payload: ACCEPTED_BODY, header, secret: "", now })).toThrow(
      TypeError,
    );
    expect(() =>
      verifyWebhook({ payload: ACCEPTED_BODY, header, secret, now, toleranceSeconds: -1 }),
    ).toThrow(/toleranceSeconds/);
  });

  it("uses the current time by default", () => {
    const fresh = signWebhook({ payload: ACCEPTED_BODY, secret });
    expect(verifyWebhook({ payload: ACCEPTED_BODY, header: fresh, secret }).id).toBe(
      ACCEPTED_EVENT.id,
    );
  });
});

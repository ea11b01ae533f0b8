import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  FakeClock,
  json,
  login,
  order,
  type RsaKeys,
  rsaKeys,
  signatureOf,
  signedHeaders,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { storeKinds } from "./support/stores.js";

let clock: FakeClock;
let gw: Gateway;
let partner: TestPartner;
let token: string;
let otherKeys: RsaKeys;

describe.each(storeKinds)("%s store", (kind) => {
  beforeAll(async () => {
    otherKeys = rsaKeys();
    clock = new FakeClock();
    // No partner cache, so status and key changes made in a test apply to its next request.
    gw = await startGateway({ store: kind, clock, config: { partnerCacheMs: 0 } });
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(async () => {
    partner = await createPartner(gw);
    token = await login(gw, partner);
  });

  const ts = () => String(clock.seconds);
  const create = (headers: Record<string, string>) =>
    gw.app.inject({ method: "POST", url: "/api/v1/sales-orders", headers, payload: order() });

  async function expectRefused(headers: Record<string, string>, status: number, code: string) {
    const response = await create(headers);
    expect(response.statusCode).toBe(status);
    expect(response.headers["content-type"]).toContain("application/problem+json");
    const body = json(response);
    expect(body.code).toBe(code);
    expect(body.type).toBe(`urn:orderline:problem:${code}`);
    expect(body.request_id).toBe(response.headers["x-request-id"]);
    return body;
  }

  describe("signed order requests", () => {
    it("accept a correctly signed request", async () => {
      const response = await create(signedHeaders(partner, token, ts()));
      expect(response.statusCode).toBe(201);
    });

    it("refuse a missing token", async () => {
      const { authorization: _, ...headers } = signedHeaders(partner, token, ts());
      await expectRefused(headers, 401, "token_missing");
    });

    it("refuse a malformed or foreign token", async () => {
      await expectRefused(
        { ...signedHeaders(partner, token, ts()), authorization: "Basic abc" },
        401,
        "token_invalid",
      );
      await expectRefused(
        { ...signedHeaders(partner, token, ts()), authorization: "Bearer abc.def.ghi" },
        401,
        "token_invalid",
      );
    });

    it("refuse an expired token, and accept it one second before expiry", async () => {
      clock.advanceSeconds(12 * 3600 - 1);
      expect((await create(signedHeaders(partner, token, ts()))).statusCode).toBe(201);
      clock.advanceSeconds(1);
      const body = await expectRefused(signedHeaders(partner, token, ts()), 401, "token_expired");
      expect(body.detail).toContain("/api/v1/auth/refresh");
    });

    it.each(["x-client-id", "x-timestamp", "x-signature"])(
      "refuse a request without %s, naming it",
      async (name) => {
        const headers: Record<string, string> = signedHeaders(partner, token, ts());
        delete headers[name];
        const body = await expectRefused(headers, 401, "header_missing");
        expect(body.missing_headers).toEqual([name.toUpperCase()]);
      },
    );

    it("refuse an X-CLIENT-ID that differs from the token's client_id, even with a valid signature for it", async () => {
      const other = await createPartner(gw, otherKeys, "Other");
      const headers = { ...signedHeaders(other, token, ts()), authorization: `Bearer ${token}` };
      await expectRefused(headers, 401, "client_id_mismatch");
    });

    it("refuse a signature by another key, giving the expected string to sign", async () => {
      const headers = signedHeaders(partner, token, ts(), otherKeys.privateKey);
      const body = await expectRefused(headers, 401, "signature_invalid");
      expect(body.string_to_sign).toBe(`${partner.clientId}|${headers["x-timestamp"]}`);
    });

    it("refuse a signature over a different timestamp than the header", async () => {
      const headers = signedHeaders(partner, token, ts());
      headers["x-timestamp"] = String(clock.seconds - 1);
      await expectRefused(headers, 401, "signature_invalid");
    });

    it("refuse a signature that is not base64", async () => {
      await expectRefused(
        { ...signedHeaders(partner, token, ts()), "x-signature": "not base64!" },
        401,
        "signature_malformed",
      );
    });

    it("refuse an unreadable timestamp", async () => {
      const body = await expectRefused(
        signedHeaders(partner, token, "yesterday"),
        401,
        "timestamp_invalid",
      );
      expect(body.server_time).toBe(clock.seconds);
    });

    it("accept a skew of exactly 300 s either way and refuse 301 s, saying which way", async () => {
      expect(
        (await create(signedHeaders(partner, token, String(clock.seconds - 300)))).statusCode,
      ).toBe(201);
      expect(
        (await create(signedHeaders(partner, token, String(clock.seconds + 300)))).statusCode,
      ).toBe(201);
      const old = await expectRefused(
        signedHeaders(partner, token, String(clock.seconds - 301)),
        401,
        "timestamp_too_old",
      );
      expect(old.server_time).toBe(clock.seconds);
      expect(old.detail).toContain("301 s behind");
      const future = await expectRefused(
        signedHeaders(partner, token, String(clock.seconds + 301)),
        401,
        "timestamp_in_future",
      );
      expect(future.server_time).toBe(clock.seconds);
    });

    it("accept millisecond and ISO-8601 timestamps, signed exactly as sent", async () => {
      expect((await create(signedHeaders(partner, token, String(clock.ms)))).statusCode).toBe(201);
      const iso = new Date(clock.ms).toISOString();
      expect((await create(signedHeaders(partner, token, iso))).statusCode).toBe(201);
      // The same instant written in UTC+09:00.
      const offset = `${new Date(clock.ms + 9 * 3600_000).toISOString().slice(0, 19)}+09:00`;
      expect((await create(signedHeaders(partner, token, offset))).statusCode).toBe(201);
      // Without an offset the instant is ambiguous.
      await expectRefused(
        signedHeaders(partner, token, iso.slice(0, 19)),
        401,
        "timestamp_invalid",
      );
    });

    it("verify with either of two active keys, and stop accepting a revoked one", async () => {
      const secondKeyId = await gw.partners.addKey(partner.clientId, otherKeys.publicPem);
      expect((await create(signedHeaders(partner, token, ts()))).statusCode).toBe(201);
      expect(
        (await create(signedHeaders(partner, token, ts(), otherKeys.privateKey))).statusCode,
      ).toBe(201);
      await gw.partners.revokeKey(partner.clientId, partner.keyId);
      await expectRefused(signedHeaders(partner, token, ts()), 401, "signature_invalid");
      expect(
        (await create(signedHeaders(partner, token, ts(), otherKeys.privateKey))).statusCode,
      ).toBe(201);
      await gw.partners.revokeKey(partner.clientId, secondKeyId);
      await expectRefused(
        signedHeaders(partner, token, ts(), otherKeys.privateKey),
        403,
        "no_active_key",
      );
    });

    it("refuse a disabled partner's valid token at once", async () => {
      await gw.partners.setStatus(partner.clientId, "disabled");
      await expectRefused(signedHeaders(partner, token, ts()), 403, "partner_disabled");
    });

    it("refuse tokens issued before an immediate secret rotation", async () => {
      await gw.partners.rotateSecret(partner.clientId, 0);
      await expectRefused(signedHeaders(partner, token, ts()), 401, "credentials_rotated");
    });

    it("accept URL-safe base64 signatures", async () => {
      const headers = signedHeaders(partner, token, ts());
      const urlSafe = signatureOf(
        partner.keys.privateKey,
        partner.clientId,
        headers["x-timestamp"] as string,
      )
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
      expect((await create({ ...headers, "x-signature": urlSafe })).statusCode).toBe(201);
    });

    it("check authentication before the body, so an anonymous caller learns nothing about it", async () => {
      const response = await gw.app.inject({
        method: "POST",
        url: "/api/v1/sales-orders",
        payload: { nonsense: true },
      });
      expect(json(response).code).toBe("token_missing");
    });
  });
});

import { createHmac } from "node:crypto";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  FakeClock,
  json,
  LogCapture,
  login,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { storeKinds } from "./support/stores.js";

const HOUR = 3600;
const DAY = 24 * HOUR;

let clock: FakeClock;
let logs: LogCapture;
let gw: Gateway & { dir: string };
let partner: TestPartner;

describe.each(storeKinds)("%s store", (kind) => {
  beforeEach(async () => {
    clock = new FakeClock();
    logs = new LogCapture();
    gw = await startGateway({ store: kind, clock, logs });
    partner = await createPartner(gw);
  });
  afterEach(async () => {
    await gw.close();
  });

  const post = (url: string, payload: unknown) =>
    gw.app.inject({ method: "POST", url, payload: payload as object });
  const refresh = (token: string) => post("/api/v1/auth/refresh", { token });

  function b64url(value: unknown): string {
    return Buffer.from(JSON.stringify(value)).toString("base64url");
  }

  describe("POST /api/v1/auth/login", () => {
    it("returns a token that expires exactly 12 hours after issue and embeds the client_id", async () => {
      const response = await post("/api/v1/auth/login", {
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(["expired_at", "token"]);
      expect(body.expired_at).toBe(clock.seconds + 12 * HOUR);
      const claims = decodeJwt(body.token);
      expect(claims).toMatchObject({
        client_id: partner.clientId,
        sub: partner.clientId,
        iss: "orderline-gateway",
        aud: "orderline-partner-api",
        iat: clock.seconds,
        exp: body.expired_at,
      });
      expect(typeof claims.jti).toBe("string");
      const header = decodeProtectedHeader(body.token);
      expect(header.alg).toBe("EdDSA");
      expect(typeof header.kid).toBe("string");
    });

    it("answers an unknown client and a wrong secret with the same 401", async () => {
      const wrongSecret = await post("/api/v1/auth/login", {
        client_id: partner.clientId,
        client_secret: "ols_wrong",
      });
      const unknown = await post("/api/v1/auth/login", {
        client_id: "olc_nobody",
        client_secret: partner.clientSecret,
      });
      for (const response of [wrongSecret, unknown]) {
        expect(response.statusCode).toBe(401);
        expect(response.headers["content-type"]).toContain("application/problem+json");
      }
      const strip = (r: typeof unknown) => ({ ...r.json(), request_id: undefined });
      expect(strip(wrongSecret)).toEqual(strip(unknown));
      expect(json(unknown).code).toBe("invalid_client");
    });

    it("refuses a disabled partner, and accepts it again once enabled", async () => {
      await gw.partners.setStatus(partner.clientId, "disabled");
      const refused = await post("/api/v1/auth/login", {
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
      });
      expect(refused.statusCode).toBe(403);
      expect(json(refused).code).toBe("partner_disabled");
      await gw.partners.setStatus(partner.clientId, "active");
      expect(
        (
          await post("/api/v1/auth/login", {
            client_id: partner.clientId,
            client_secret: partner.clientSecret,
          })
        ).statusCode,
      ).toBe(200);
    });

    it("refuses the old secret after an immediate rotation and accepts the new one", async () => {
      const { clientSecret: newSecret } = await gw.partners.rotateSecret(partner.clientId, 0);
      const old = await post("/api/v1/auth/login", {
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
      });
      expect(json(old).code).toBe("invalid_client");
      const fresh = await post("/api/v1/auth/login", {
        client_id: partner.clientId,
        client_secret: newSecret,
      });
      expect(fresh.statusCode).toBe(200);
    });

    it("names missing and unknown fields", async () => {
      const response = await post("/api/v1/auth/login", {
        client_id: partner.clientId,
        password: "x",
      });
      expect(response.statusCode).toBe(400);
      const body = json(response);
      expect(body.code).toBe("validation_failed");
      expect(body.errors).toEqual(
        expect.arrayContaining([
          { in: "body", pointer: "/client_secret", message: "is required" },
          {
            in: "body",
            pointer: "/password",
            message: "is not a known property (known: client_id, client_secret)",
          },
        ]),
      );
    });
  });

  describe("POST /api/v1/auth/refresh", () => {
    it("renews a valid token without credentials, keeping the session", async () => {
      const token = await login(gw, partner);
      clock.advanceSeconds(HOUR);
      const response = await refresh(token);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.expired_at).toBe(clock.seconds + 12 * HOUR);
      const before = decodeJwt(token);
      const after = decodeJwt(body.token);
      expect(after.jti).not.toBe(before.jti);
      expect(after.sid).toBe(before.sid);
      expect(after.auth_time).toBe(before.auth_time);
    });

    it("renews an expired token up to the end of the grace window, and not a second later", async () => {
      const token = await login(gw, partner);
      const second = await login(gw, partner);
      clock.advanceSeconds(12 * HOUR + DAY); // exactly at exp + 24 h
      expect((await refresh(token)).statusCode).toBe(200);
      clock.advanceSeconds(1);
      const late = await refresh(second);
      expect(late.statusCode).toBe(401);
      expect(json(late).code).toBe("refresh_window_closed");
    });

    it("honours a configured grace window", async () => {
      await gw.close();
      gw = await startGateway({
        store: kind,
        clock,
        config: { jwt: { ...gw.config.jwt, refreshGraceSeconds: 60 } },
      });
      partner = await createPartner(gw);
      const token = await login(gw, partner);
      const other = await login(gw, partner);
      clock.advanceSeconds(12 * HOUR + 60);
      expect((await refresh(token)).statusCode).toBe(200);
      clock.advanceSeconds(1);
      expect(json(await refresh(other)).code).toBe("refresh_window_closed");
    });

    it("refreshes each token once; a second refresh is refused, logged and revokes the session", async () => {
      const token = await login(gw, partner);
      const first = await refresh(token);
      expect(first.statusCode).toBe(200);
      const again = await refresh(token);
      expect(again.statusCode).toBe(401);
      expect(json(again).code).toBe("refresh_token_reused");
      const warning = logs.lines
        .map((l) => JSON.parse(l))
        .find((l) => l.event === "refresh_reused");
      expect(warning).toMatchObject({
        level: 40,
        client_id: partner.clientId,
        jti: decodeJwt(token).jti,
        sid: decodeJwt(token).sid,
      });
      // Two parties held the chain: the token the first refresh returned is revoked too.
      const revoked = await refresh(first.json().token);
      expect(revoked.statusCode).toBe(401);
      expect(json(revoked).code).toBe("session_revoked");
    });

    it("caps a refresh chain at 30 days after the original login", async () => {
      let token = await login(gw, partner);
      for (let elapsed = 0; elapsed + 12 * HOUR <= 30 * DAY; elapsed += 12 * HOUR) {
        clock.advanceSeconds(12 * HOUR);
        const response = await refresh(token);
        expect(response.statusCode).toBe(200);
        token = response.json().token;
      }
      clock.advanceSeconds(1);
      const capped = await refresh(token);
      expect(capped.statusCode).toBe(401);
      expect(json(capped).code).toBe("session_expired");
    });

    it("refuses refresh after the secret was rotated or the partner disabled", async () => {
      const token = await login(gw, partner);
      const other = await login(gw, partner);
      await gw.partners.setStatus(partner.clientId, "disabled");
      expect(json(await refresh(token)).code).toBe("partner_disabled");
      await gw.partners.setStatus(partner.clientId, "active");
      await gw.partners.rotateSecret(partner.clientId, 0);
      const rotated = await refresh(other);
      expect(rotated.statusCode).toBe(401);
      expect(json(rotated).code).toBe("credentials_rotated");
    });

    it("refuses a token that is not the gateway's", async () => {
      const response = await refresh("not.a.jwt");
      expect(response.statusCode).toBe(401);
      expect(json(response).code).toBe("token_invalid");
    });
  });

  describe("JWT hardening", () => {
    async function attempt(token: string) {
      return refresh(token);
    }

    it("refuses alg none", async () => {
      const good = await login(gw, partner);
      const claims = decodeJwt(good);
      const none = `${b64url({ alg: "none", typ: "JWT" })}.${b64url(claims)}.`;
      expect(json(await attempt(none)).code).toBe("token_invalid");
    });

    it("refuses HS256 signed with the published public key (algorithm confusion)", async () => {
      const good = await login(gw, partner);
      const { kid } = decodeProtectedHeader(good);
      const jwks = await gw.signingKeys.jwks();
      const publicKeyMaterial = JSON.stringify(jwks.keys[0]);
      const header = b64url({ alg: "HS256", typ: "JWT", kid });
      const payload = b64url(decodeJwt(good));
      const mac = createHmac("sha256", publicKeyMaterial)
        .update(`${header}.${payload}`)
        .digest("base64url");
      expect(json(await attempt(`${header}.${payload}.${mac}`)).code).toBe("token_invalid");
    });

    it("refuses a tampered payload", async () => {
      const good = await login(gw, partner);
      const [header, , signature] = good.split(".");
      const forged = b64url({
        ...decodeJwt(good),
        client_id: "olc_someone_else",
        sub: "olc_someone_else",
      });
      expect(json(await attempt(`${header}.${forged}.${signature}`)).code).toBe("token_invalid");
    });

    it("refuses a token for another audience, even when signed with the gateway's key", async () => {
      const other = await startGateway({
        store: kind,
        clock,
        dir: gw.dir,
        config: {
          databaseUrl: gw.config.databaseUrl,
          jwt: { ...gw.config.jwt, audience: "someone-else" },
        },
      });
      const otherPartner = await createPartner(other, undefined, "Other");
      const foreign = await login(other, otherPartner);
      await other.close();
      expect(json(await attempt(foreign)).code).toBe("token_invalid");
    });

    it("publishes the verification keys in the JWKS, and they verify issued tokens", async () => {
      const token = await login(gw, partner);
      const response = await gw.app.inject({ method: "GET", url: "/.well-known/jwks.json" });
      expect(response.statusCode).toBe(200);
      const jwks = response.json();
      expect(jwks.keys[0]).not.toHaveProperty("d");
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
        algorithms: ["EdDSA"],
        currentDate: new Date(clock.ms),
        audience: "orderline-partner-api",
      });
      expect(payload.client_id).toBe(partner.clientId);
    });

    it("publishes a rotated key at once, signs with it once cached JWKS have expired, and keeps verifying older tokens", async () => {
      const before = await login(gw, partner);
      const oldKid = decodeProtectedHeader(before).kid;
      const { kid: newKid, signsFrom } = await gw.signingKeys.rotate();
      expect(newKid).not.toBe(oldKid);
      // The JWKS is cached for max-age (300 s), and instances re-read keys every 60 s at most.
      expect(signsFrom - clock.ms).toBe((300 + 60) * 1000);
      const jwks = await gw.app.inject({ method: "GET", url: "/.well-known/jwks.json" });
      expect(jwks.headers["cache-control"]).toBe("public, max-age=300");
      const published = jwks.json().keys.map((k: { kid: string }) => k.kid);
      expect(published.sort()).toEqual([oldKid, newKid].sort());
      expect(decodeProtectedHeader(await login(gw, partner)).kid).toBe(oldKid);
      clock.advanceSeconds(359);
      expect(decodeProtectedHeader(await login(gw, partner)).kid).toBe(oldKid);
      clock.advanceSeconds(1);
      expect(decodeProtectedHeader(await login(gw, partner)).kid).toBe(newKid);
      // The retired key stays published while its tokens can still be refreshed.
      const keys = (await gw.signingKeys.jwks()).keys.map((k) => k.kid);
      expect(keys.sort()).toEqual([oldKid, newKid].sort());
      expect((await refresh(before)).statusCode).toBe(200);
    });
  });
});

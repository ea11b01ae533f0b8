import { decodeJwt } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { purgeExpired } from "../src/store/purge.js";
import {
  createPartner,
  FakeClock,
  LogCapture,
  signedHeaders,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { httpRequest } from "./support/http.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, PASSWORD, TEST_USERS_CONFIG, type TestTenant } from "./support/tenants.js";

let gw: Gateway & { dir: string };
let base: string;
let clock: FakeClock;
let logs: LogCapture;

describe.each(storeKinds)("a reused refresh token revokes its session (%s store)", (kind) => {
  beforeEach(async () => {
    clock = new FakeClock();
    logs = new LogCapture();
    gw = await startGateway({ store: kind, clock, logs, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterEach(async () => {
    await gw.close();
  });

  describe("partner tokens", () => {
    let partner: TestPartner;
    beforeEach(async () => {
      partner = await createPartner(gw);
    });

    const login = async () => {
      const answer = await httpRequest(base, "POST", "/api/v1/auth/login", {
        body: { client_id: partner.clientId, client_secret: partner.clientSecret },
      });
      expect(answer.status).toBe(200);
      return answer.body.token as string;
    };
    const refresh = (token: string) =>
      httpRequest(base, "POST", "/api/v1/auth/refresh", { body: { token } });
    const listOrders = (token: string) =>
      httpRequest(base, "GET", "/api/v1/sales-orders", {
        headers: signedHeaders(partner, token, String(clock.seconds)),
      });

    it("stops the token the first refresh returned, and every other token of that session", async () => {
      const first = await login();
      const second = await refresh(first);
      expect(second.status).toBe(200);
      const secondToken = second.body.token as string;
      const third = await refresh(secondToken);
      expect(third.status).toBe(200);
      const thirdToken = third.body.token as string;
      expect((await listOrders(thirdToken)).status).toBe(200);
      // Another session of the same partner, which must not be touched.
      const otherSession = await login();

      // Someone presents the first token again: the chain has two holders.
      const reused = await refresh(first);
      expect(reused.status).toBe(401);
      expect(reused.headers["content-type"]).toContain("application/problem+json");
      expect(reused.body.code).toBe("refresh_token_reused");

      for (const token of [secondToken, thirdToken]) {
        const refused = await listOrders(token);
        expect(refused.status).toBe(401);
        expect(refused.body.code).toBe("session_revoked");
        const refreshRefused = await refresh(token);
        expect(refreshRefused.status).toBe(401);
        expect(refreshRefused.body.code).toBe("session_revoked");
      }

      // The other session and a new login work.
      expect((await listOrders(otherSession)).status).toBe(200);
      expect((await listOrders(await login())).status).toBe(200);

      // Logged without secrets: the session id, not a token or the secret.
      const line = logs.lines.map((l) => JSON.parse(l)).find((l) => l.event === "refresh_reused");
      expect(line).toMatchObject({ client_id: partner.clientId, sid: decodeJwt(first).sid });
      for (const secret of [first, secondToken, thirdToken, partner.clientSecret])
        expect(logs.text).not.toContain(secret);
    });

    it("revokes the session when a token is refreshed twice at once, whichever wins", async () => {
      const first = await login();
      const answers = await Promise.all([refresh(first), refresh(first), refresh(first)]);
      const won = answers.filter((a) => a.status === 200);
      expect(won).toHaveLength(1);
      // The first loser revokes the session; a later one may find it revoked already.
      const lost = answers.filter((a) => a.status !== 200).map((a) => a.body.code);
      expect(lost).toContain("refresh_token_reused");
      for (const code of lost) expect(["refresh_token_reused", "session_revoked"]).toContain(code);
      expect((await listOrders(won[0]?.body.token as string)).body.code).toBe("session_revoked");
    });

    it("records the revocation until the session's last possible token has expired", async () => {
      const first = await login();
      const second = (await refresh(first)).body.token as string;
      await refresh(first);
      const subject = `partner:${(await gw.store.findPartnerByClientId(partner.clientId))?.id}`;
      expect(await gw.store.tenants.revokedSessions(subject, clock.ms)).toEqual([
        decodeJwt(first).sid,
      ]);
      expect((await listOrders(second)).body.code).toBe("session_revoked");
      // Refreshable for 30 days after login, each token valid 12 h: nothing of it lives longer.
      clock.advanceSeconds(30 * 24 * 3600 + 12 * 3600 - 1);
      expect(await gw.store.tenants.revokedSessions(subject, clock.ms)).toHaveLength(1);
      clock.advanceSeconds(1);
      expect(await gw.store.tenants.revokedSessions(subject, clock.ms)).toEqual([]);
      // …and the periodic purge deletes the row once past its end.
      clock.advanceSeconds(1);
      expect((await purgeExpired(gw.store, gw.config.retention, clock.ms)).revoked_sessions).toBe(
        1,
      );
    });
  });

  describe("tenant user tokens", () => {
    let tenant: TestTenant;
    beforeEach(async () => {
      tenant = await createTenant(gw, "Revocation");
    });

    const login = async (email: string) => {
      const answer = await httpRequest(base, "POST", "/v1/auth/login", {
        body: { email, password: PASSWORD },
      });
      expect(answer.status).toBe(200);
      return answer.body.token as string;
    };
    const refresh = (token: string) =>
      httpRequest(base, "POST", "/v1/auth/refresh", { body: { token } });
    const profile = (token: string) =>
      httpRequest(base, "GET", "/v1/user/profile", {
        headers: { authorization: `Bearer ${token}` },
      });

    it("stops the token the first refresh returned, and only that session", async () => {
      const first = await login(tenant.member.email);
      const other = await login(tenant.member.email);
      const second = (await refresh(first)).body.token as string;
      expect((await profile(second)).status).toBe(200);

      const reused = await refresh(first);
      expect(reused.status).toBe(401);
      expect(reused.body.code).toBe("refresh_token_reused");

      const refused = await profile(second);
      expect(refused.status).toBe(401);
      expect(refused.headers["content-type"]).toContain("application/problem+json");
      expect(refused.body.code).toBe("session_revoked");
      expect((await refresh(second)).body.code).toBe("session_revoked");
      expect((await profile(other)).status).toBe(200);

      const line = logs.lines
        .map((l) => JSON.parse(l))
        .find((l) => l.event === "user_refresh_reused");
      expect(line).toMatchObject({ user_id: tenant.member.id, sid: decodeJwt(first).sid });
      for (const secret of [first, second, PASSWORD]) expect(logs.text).not.toContain(secret);
    });
  });
});

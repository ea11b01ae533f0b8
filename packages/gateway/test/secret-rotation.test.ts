import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  FakeClock,
  signedHeaders,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { httpRequest } from "./support/http.js";
import { runCaptured } from "./support/processes.js";
import { storeKinds } from "./support/stores.js";

const HOUR = 3600;

let gw: Gateway & { dir: string };
let base: string;
let clock: FakeClock;
let partner: TestPartner;

describe.each(storeKinds)("secret rotation with a grace period (%s store)", (kind) => {
  beforeEach(async () => {
    clock = new FakeClock();
    gw = await startGateway({ store: kind, clock });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    partner = await createPartner(gw);
  });
  afterEach(async () => {
    await gw.close();
  });

  const login = (secret: string) =>
    httpRequest(base, "POST", "/api/v1/auth/login", {
      body: { client_id: partner.clientId, client_secret: secret },
    });
  const tokenOf = async (secret: string) => {
    const answer = await login(secret);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.token as string;
  };
  const listOrders = (token: string) =>
    httpRequest(base, "GET", "/api/v1/sales-orders", {
      headers: signedHeaders(partner, token, String(clock.seconds)),
    });
  const refresh = (token: string) =>
    httpRequest(base, "POST", "/api/v1/auth/refresh", { body: { token } });

  it("keeps the old secret and its tokens working for 24 hours by default, then stops them", async () => {
    const oldToken = await tokenOf(partner.clientSecret);
    const { clientSecret: newSecret, previousValidUntil } = await gw.partners.rotateSecret(
      partner.clientId,
    );
    expect(previousValidUntil).toBe(clock.ms + 24 * HOUR * 1000);

    // During the grace period: both secrets log in, old tokens work and refresh.
    expect((await listOrders(oldToken)).status).toBe(200);
    const newToken = await tokenOf(newSecret);
    clock.advanceSeconds(13 * HOUR); // the first old token has expired by now
    const lateOldToken = await tokenOf(partner.clientSecret);
    expect((await listOrders(lateOldToken)).status).toBe(200);
    const refreshed = await refresh(oldToken);
    expect(refreshed.status).toBe(200);
    const refreshedOld = refreshed.body.token as string;
    expect((await listOrders(refreshedOld)).status).toBe(200);

    // The grace period ends 24 h after the rotation.
    clock.advanceSeconds(11 * HOUR - 1);
    expect((await login(partner.clientSecret)).status).toBe(200);
    clock.advanceSeconds(1);
    const refusedLogin = await login(partner.clientSecret);
    expect(refusedLogin.status).toBe(401);
    expect(refusedLogin.body.code).toBe("invalid_client");
    for (const token of [lateOldToken, refreshedOld]) {
      const refused = await listOrders(token);
      expect(refused.status).toBe(401);
      expect(refused.body.code).toBe("credentials_rotated");
      expect((await refresh(token)).body.code).toBe("credentials_rotated");
    }
    // A token refreshed from an old one during the grace period did not become a new-secret one.
    expect((await listOrders(await tokenOf(newSecret))).status).toBe(200);
    expect((await refresh(newToken)).status).toBe(200);
  });

  it("takes a shorter grace period, and a second rotation ends the first one's", async () => {
    const oldToken = await tokenOf(partner.clientSecret);
    const { clientSecret: second } = await gw.partners.rotateSecret(
      partner.clientId,
      2 * HOUR * 1000,
    );
    clock.advanceSeconds(2 * HOUR - 1);
    expect((await listOrders(oldToken)).status).toBe(200);
    clock.advanceSeconds(1);
    expect((await listOrders(oldToken)).body.code).toBe("credentials_rotated");

    const secondToken = await tokenOf(second);
    const { clientSecret: third } = await gw.partners.rotateSecret(partner.clientId);
    // The second secret is now the previous one; the first is gone for good.
    expect((await listOrders(secondToken)).status).toBe(200);
    expect((await login(second)).status).toBe(200);
    expect((await login(third)).status).toBe(200);
    expect((await login(partner.clientSecret)).status).toBe(401);
  });

  it("cuts the old secret and its tokens at once with the CLI's --immediately", async () => {
    const oldToken = await tokenOf(partner.clientSecret);
    expect((await listOrders(oldToken)).status).toBe(200);
    const rotated = await runCaptured(
      ["partners", "rotate-secret", partner.clientId, "--immediately", "--json"],
      {
        env: {
          DATABASE_URL: gw.config.databaseUrl,
          GATEWAY_DATA_DIR: gw.config.dataDir,
          GATEWAY_MASTER_KEY: undefined,
        },
        cwd: gw.dir,
      },
    );
    expect(rotated.code, rotated.output).toBe(0);
    const answer = JSON.parse(rotated.output);
    expect(answer.previous_secret_valid_until).toBeNull();

    const refusedLogin = await login(partner.clientSecret);
    expect(refusedLogin.status).toBe(401);
    expect(refusedLogin.body.code).toBe("invalid_client");
    // Another process changed the partner: this instance sees it once its 1 s cache runs out.
    clock.advanceSeconds(1);
    const refused = await listOrders(oldToken);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("credentials_rotated");
    expect((await refresh(oldToken)).body.code).toBe("credentials_rotated");
    expect((await listOrders(await tokenOf(answer.client_secret))).status).toBe(200);
  });
});

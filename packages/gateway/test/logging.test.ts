import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  LogCapture,
  order,
  rsaKeys,
  signedHeaders,
  startGateway,
  type TestPartner,
} from "./helpers.js";

let gw: Gateway;
let logs: LogCapture;
let partner: TestPartner;

beforeAll(async () => {
  logs = new LogCapture();
  gw = await startGateway({ logs });
  partner = await createPartner(gw);
});
afterAll(async () => {
  await gw.close();
});

describe("logs", () => {
  it("record requests with ids but never secrets, tokens or signatures", async () => {
    const inject = gw.app.inject.bind(gw.app);
    const secrets: string[] = [partner.clientSecret];

    const login = await inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { client_id: partner.clientId, client_secret: partner.clientSecret },
    });
    const token = login.json().token as string;
    secrets.push(token);
    await inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { client_id: partner.clientId, client_secret: "ols_wrong-guess" },
    });
    secrets.push("ols_wrong-guess");
    // The secret pasted into the client_id field: the refusal is logged, the secret is not.
    await inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { client_id: partner.clientSecret, client_secret: partner.clientSecret },
    });

    const headers = signedHeaders(partner, token, String(Math.floor(Date.now() / 1000)));
    secrets.push(headers["x-signature"] as string);
    expect(
      (await inject({ method: "POST", url: "/api/v1/sales-orders", headers, payload: order() }))
        .statusCode,
    ).toBe(201);

    const forged = signedHeaders(
      partner,
      token,
      String(Math.floor(Date.now() / 1000)),
      rsaKeys().privateKey,
    );
    secrets.push(forged["x-signature"] as string);
    expect(
      (
        await inject({
          method: "POST",
          url: "/api/v1/sales-orders",
          headers: forged,
          payload: order(),
        })
      ).statusCode,
    ).toBe(401);

    // Bodies that fail parsing or validation must not leak into logs through error messages.
    await inject({
      method: "POST",
      url: "/api/v1/auth/login",
      headers: { "content-type": "application/json" },
      payload: `{"client_id":"x","client_secret":"${partner.clientSecret}"`,
    });
    await inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { client_id: 1, client_secret: partner.clientSecret },
    });

    const refreshed = await inject({
      method: "POST",
      url: "/api/v1/auth/refresh",
      payload: { token },
    });
    secrets.push(refreshed.json().token);
    await inject({ method: "POST", url: "/api/v1/auth/refresh", payload: { token } });

    const text = logs.text;
    // The logs did record all this: request ids, refusals and the refresh reuse.
    expect(text).toContain('"reqId"');
    expect(text).toContain('"event":"login"');
    expect(text).toContain('"event":"refresh_reused"');
    expect(text).toContain(`"client_id":"ols_…(${partner.clientSecret.length} chars)"`);
    expect(text).toContain(`"client_id":"${partner.clientId}"`);
    expect(text).toContain('"code":"signature_invalid"');
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      // Nor a recognisable part of it.
      expect(text).not.toContain(secret.slice(-24));
    }
  });
});

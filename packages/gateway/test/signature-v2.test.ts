import { createHash, createPublicKey, type KeyObject, sign } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  FakeClock,
  login,
  order,
  rsaKeys,
  signatureOf,
  startGateway,
  type TestPartner,
} from "./helpers.js";
import { storeKinds } from "./support/stores.js";

/** The documented version 2 string-to-sign, written out here independently of the gateway. */
function v2String(clientId: string, ts: string, method: string, target: string, body: string) {
  const digest = createHash("sha256").update(body).digest("hex");
  return `v2\n${clientId}\n${ts}\n${method}\n${target}\n${digest}`;
}

const sig = (key: KeyObject, text: string) => sign("sha256", Buffer.from(text), key);

let clock: FakeClock;
let gw: Gateway;
let base: string;
let partner: TestPartner;
let token: string;

describe.each(storeKinds)("signature version 2 (%s store)", (kind) => {
  beforeAll(async () => {
    clock = new FakeClock();
    gw = await startGateway({ store: kind, clock, config: { partnerCacheMs: 0 } });
    await gw.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await gw.close();
  });
  beforeEach(async () => {
    partner = await createPartner(gw);
    token = await login(gw, partner);
  });

  const ts = () => String(clock.seconds);

  function v1Headers(t = ts()): Record<string, string> {
    return {
      authorization: `Bearer ${token}`,
      "x-client-id": partner.clientId,
      "x-timestamp": t,
      "x-signature": signatureOf(partner.keys.privateKey, partner.clientId, t),
    };
  }

  function v2Headers(method: string, target: string, body = ""): Record<string, string> {
    const t = ts();
    const text = v2String(partner.clientId, t, method, target, body);
    return {
      authorization: `Bearer ${token}`,
      "x-client-id": partner.clientId,
      "x-timestamp": t,
      "x-signature-version": "2",
      "x-signature": sig(partner.keys.privateKey, text).toString("base64"),
    };
  }

  async function send(
    method: string,
    target: string,
    headers: Record<string, string>,
    body?: string,
  ) {
    const response = await fetch(`${base}${target}`, {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown> };
  }

  const orderBody = (po: string) => JSON.stringify(order({ purchase_order_no: po }));

  describe("a partner not moved to version 2", () => {
    it("keeps accepting version 1 exactly as the seed defines it", async () => {
      const created = await send("POST", "/api/v1/sales-orders", v1Headers(), orderBody("V1-1"));
      expect(created.status).toBe(201);
    });

    it("accepts a version 2 signature sent of its own accord", async () => {
      const body = orderBody("V2-OPT");
      const created = await send(
        "POST",
        "/api/v1/sales-orders",
        v2Headers("POST", "/api/v1/sales-orders", body),
        body,
      );
      expect(created.status).toBe(201);
    });

    it("refuses a version 2 header over a version 1 signature (no downgrade by header)", async () => {
      const response = await send(
        "POST",
        "/api/v1/sales-orders",
        { ...v1Headers(), "x-signature-version": "2" },
        orderBody("V2-DOWN"),
      );
      expect(response.status).toBe(401);
      expect(response.json.code).toBe("signature_invalid");
    });

    it("refuses an unknown signature version", async () => {
      const response = await send("GET", "/api/v1/sales-orders", {
        ...v1Headers(),
        "x-signature-version": "3",
      });
      expect(response.status).toBe(401);
      expect(response.json.code).toBe("signature_version_unsupported");
    });
  });

  describe("a partner required to sign version 2", () => {
    beforeEach(async () => {
      await gw.partners.setSignatureVersion(partner.clientId, 2);
    });

    it("refuses version 1 with a code the SDK switches on", async () => {
      const response = await send("POST", "/api/v1/sales-orders", v1Headers(), orderBody("R-1"));
      expect(response.status).toBe(401);
      expect(response.json.code).toBe("signature_version_required");
      expect(response.json.required_signature_version).toBe(2);
    });

    it("accepts a version 2 request and lists the version in partners list", async () => {
      const body = orderBody("R-2");
      const target = "/api/v1/sales-orders";
      expect((await send("POST", target, v2Headers("POST", target, body), body)).status).toBe(201);
      const listed = (await gw.partners.list()).find((p) => p.client_id === partner.clientId);
      expect(listed?.signature_version).toBe(2);
    });

    it("refuses a captured request replayed with another body", async () => {
      const target = "/api/v1/sales-orders";
      const captured = v2Headers("POST", target, orderBody("R-3"));
      const response = await send("POST", target, captured, orderBody("EVIL-3"));
      expect(response.status).toBe(401);
      expect(response.json.code).toBe("signature_invalid");
      // Even a change invisible to JSON (whitespace) changes the digest.
      const spaced = await send("POST", target, captured, ` ${orderBody("R-3")}`);
      expect(spaced.json.code).toBe("signature_invalid");
      // The original goes through: the refusal was the replay's, not the signature's.
      expect((await send("POST", target, captured, orderBody("R-3"))).status).toBe(201);
    });

    it("refuses a captured request replayed on another path or query", async () => {
      const created = await send(
        "POST",
        "/api/v1/sales-orders",
        v2Headers("POST", "/api/v1/sales-orders", orderBody("R-4")),
        orderBody("R-4"),
      );
      const id = (created.json.data as { id: string }).id;
      const captured = v2Headers("GET", `/api/v1/sales-orders/${id}`);
      expect((await send("GET", `/api/v1/sales-orders/${id}`, captured)).status).toBe(200);
      const otherPath = await send("GET", "/api/v1/sales-orders", captured);
      expect(otherPath.json.code).toBe("signature_invalid");
      const listCaptured = v2Headers("GET", "/api/v1/sales-orders?limit=1");
      const otherQuery = await send("GET", "/api/v1/sales-orders?limit=100", listCaptured);
      expect(otherQuery.json.code).toBe("signature_invalid");
    });

    it("refuses a captured request replayed with another method", async () => {
      const captured = v2Headers("GET", "/api/v1/sales-orders");
      expect((await send("GET", "/api/v1/sales-orders", captured)).status).toBe(200);
      // Same path, same (empty) body, only the method changed.
      const posted = await send("POST", "/api/v1/sales-orders", captured);
      expect(posted.status).toBe(401);
      expect(posted.json.code).toBe("signature_invalid");
    });

    it("goes back to accepting version 1 when allowed again", async () => {
      await gw.partners.setSignatureVersion(partner.clientId, 1);
      expect((await send("GET", "/api/v1/sales-orders", v1Headers())).status).toBe(200);
    });
  });

  describe("signature errors name what the request shows, never the signature", () => {
    const get = (headers: Record<string, string>) =>
      send("GET", "/api/v1/sales-orders", headers).then((r) => {
        expect(r.status).toBe(401);
        expect(r.json.code).toBe("signature_invalid");
        expect(r.text).not.toContain(headers["x-signature"]);
        return r.json as { detail: string; hints: { code: string; detail: string }[] };
      });

    it("a hex-encoded signature", async () => {
      const t = ts();
      const hex = sig(partner.keys.privateKey, `${partner.clientId}|${t}`).toString("hex");
      const problem = await get({ ...v1Headers(t), "x-signature": hex });
      expect(problem.hints.map((h) => h.code)).toEqual(["signature_hex_encoded"]);
      expect(problem.detail).toContain("base64");
    });

    it("a signature by a key of another size", async () => {
      const big = rsaKeys(3072);
      const t = ts();
      const other = sig(big.privateKey, `${partner.clientId}|${t}`).toString("base64");
      const problem = await get({ ...v1Headers(t), "x-signature": other });
      expect(problem.hints.map((h) => h.code)).toEqual(["signature_length"]);
      expect(problem.hints[0]?.detail).toContain("384 bytes");
      expect(problem.hints[0]?.detail).toContain("256 bytes (2048-bit key)");
    });

    it("a string-to-sign with a trailing newline", async () => {
      const t = ts();
      const text = `${partner.clientId}|${t}\n`;
      const problem = await get({
        ...v1Headers(t),
        "x-signature": sig(partner.keys.privateKey, text).toString("base64"),
      });
      expect(problem.hints.map((h) => h.code)).toEqual(["trailing_newline"]);
      expect(problem.detail).toContain("printf");
    });

    it("a version 2 signature sent without its header", async () => {
      const { "x-signature-version": _, ...headers } = v2Headers("GET", "/api/v1/sales-orders");
      const problem = await get(headers);
      expect(problem.hints.map((h) => h.code)).toEqual(["other_version"]);
      expect(problem.hints[0]?.detail).toContain("X-SIGNATURE-VERSION: 2");
    });

    it("the right string signed with another key: the registered key's fingerprint", async () => {
      const t = ts();
      const wrong = sig(rsaKeys().privateKey, `${partner.clientId}|${t}`).toString("base64");
      const problem = await get({ ...v1Headers(t), "x-signature": wrong });
      const registered = createHash("sha256")
        .update(createPublicKey(partner.keys.publicPem).export({ type: "spki", format: "der" }))
        .digest("hex");
      expect(problem.hints).toEqual([
        {
          code: "key_mismatch",
          detail: expect.stringContaining(`fingerprint ${registered}`),
          registered_keys: [{ fingerprint: registered, bits: 2048 }],
        },
      ]);
      expect(problem.detail).toContain(
        "the private key is not the pair of a registered public key",
      );
    });
  });
});

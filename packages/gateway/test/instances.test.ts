import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { order, rsaKeys, tempDir } from "./helpers.js";
import {
  CLI,
  cli,
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  type ProcessPartner,
  type RunningGateway,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

// Two built gateway processes on two ports, one PostgreSQL database, driven over real sockets.
const onPostgres = storeKinds.includes("postgres");

let env: ProcessEnv;
let a: RunningGateway;
let b: RunningGateway;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  expect(existsSync(CLI), "build the package first (npm run build)").toBe(true);
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  env = { databaseUrl: await freshDatabaseUrl("postgres", dir), dataDir: dir };
  // Both start on an empty database at once: the migrations run once, under the advisory lock.
  [a, b] = await Promise.all([startProcess(env), startProcess(env)]);
  cleanups.push(
    () => a.child.kill("SIGKILL"),
    () => b.child.kill("SIGKILL"),
  );
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function post(url: string, path: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as { code?: string; token?: string; data?: { id: string } },
  };
}

const newPartner = (name: string): Promise<ProcessPartner> =>
  createPartnerWithCli(env, rsaKeys(), name);

/** Polls until `check` holds on both instances; returns how long that took. */
async function untilBoth(check: (gw: RunningGateway) => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if ((await check(a)) && (await check(b))) return Date.now() - started;
    if (Date.now() - started > 10_000) throw new Error("not on both instances after 10 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(onPostgres)("two gateway instances on one PostgreSQL database", () => {
  it("accepts on B a token issued by A, even one signed with a key B has not loaded yet", async () => {
    const partner = await newPartner("Tokens");
    // A new signing key, made by the admin CLI while both instances run: B has not seen it.
    // (Without a JWKS cache time to wait out, it signs at once.)
    cli({ ...env, extra: { GATEWAY_JWKS_MAX_AGE_SECONDS: "0" } }, ["signing-keys", "rotate"]);
    const c = await startProcess(env); // signs with the new key
    cleanups.push(() => c.child.kill("SIGKILL"));
    const token = await loginOver(c.url, partner);
    for (const gw of [a, b]) {
      const created = await post(
        gw.url,
        "/api/v1/sales-orders",
        order(),
        signedOver(partner, token),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  });

  it("refreshes a token once across instances", async () => {
    const partner = await newPartner("Refresh");
    const token = await loginOver(a.url, partner);
    const results = await Promise.all(
      [a, b, a, b, a, b].map((gw) => post(gw.url, "/api/v1/auth/refresh", { token }, {})),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    // The first refused one revokes the session; later ones may find it revoked already.
    const refused = results.filter((r) => r.status !== 200).map((r) => r.body.code);
    expect(refused).toContain("refresh_token_reused");
    for (const code of refused) expect(["refresh_token_reused", "session_revoked"]).toContain(code);
  });

  it("revokes the whole session on both instances when a refreshed token is refreshed again", async () => {
    const partner = await newPartner("Reuse");
    const first = await loginOver(a.url, partner);
    const refreshed = await post(a.url, "/api/v1/auth/refresh", { token: first }, {});
    expect(refreshed.status).toBe(200);
    const second = refreshed.body.token as string;
    const codeOn = async (gw: RunningGateway) =>
      (await post(gw.url, "/api/v1/sales-orders", order(), signedOver(partner, second))).body.code;
    expect(await codeOn(a)).toBeUndefined();
    expect(await codeOn(b)).toBeUndefined();

    // The first token comes back, on the other instance.
    const reused = await post(b.url, "/api/v1/auth/refresh", { token: first }, {});
    expect(reused.body.code).toBe("refresh_token_reused");
    expect(await untilBoth(async (gw) => (await codeOn(gw)) === "session_revoked")).toBeLessThan(
      5000,
    );
    const again = await post(a.url, "/api/v1/auth/refresh", { token: second }, {});
    expect(again.body.code).toBe("session_revoked");
  });

  it("makes one order of a purchase_order_no and of an Idempotency-Key raced on both", async () => {
    const partner = await newPartner("Races");
    const token = await loginOver(a.url, partner);
    const po = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        post(
          [a, b][i % 2]?.url ?? "",
          "/api/v1/sales-orders",
          order({ purchase_order_no: "PO-RACE" }),
          signedOver(partner, token),
        ),
      ),
    );
    expect(po.filter((r) => r.status === 201)).toHaveLength(1);
    expect(po.filter((r) => r.status === 409)).toHaveLength(23);

    const idem = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        post(
          [a, b][i % 2]?.url ?? "",
          "/api/v1/sales-orders",
          order({ purchase_order_no: "PO-IDEM" }),
          {
            ...signedOver(partner, token),
            "idempotency-key": "race-key-1",
          },
        ),
      ),
    );
    expect(
      idem.every((r) => r.status === 201),
      JSON.stringify(idem.map((r) => r.status)),
    ).toBe(true);
    expect(new Set(idem.map((r) => r.body.data?.id)).size).toBe(1);
    const list = await fetch(`${b.url}/api/v1/sales-orders?limit=100`, {
      headers: signedOver(partner, token),
    });
    expect(((await list.json()) as { data: unknown[] }).data).toHaveLength(2);
  });

  it("stops a revoked key and a disabled partner on every instance within 5 seconds", async () => {
    const partner = await newPartner("Revocation");
    const token = await loginOver(a.url, partner);
    const codeOn = async (gw: RunningGateway) =>
      (await post(gw.url, "/api/v1/sales-orders", order(), signedOver(partner, token))).body.code;
    expect(await codeOn(a)).toBeUndefined();
    expect(await codeOn(b)).toBeUndefined();

    await cli(env, ["partners", "disable", partner.clientId]);
    expect(await untilBoth(async (gw) => (await codeOn(gw)) === "partner_disabled")).toBeLessThan(
      5000,
    );
    await cli(env, ["partners", "enable", partner.clientId]);
    expect(await untilBoth(async (gw) => (await codeOn(gw)) === undefined)).toBeLessThan(5000);

    await cli(env, ["partners", "revoke-key", partner.clientId, partner.keyId]);
    expect(await untilBoth(async (gw) => (await codeOn(gw)) === "no_active_key")).toBeLessThan(
      5000,
    );
  });

  it("refuses on B the exact replay of a create A accepted", async () => {
    const partner = await newPartner("Replays");
    const token = await loginOver(a.url, partner);
    const headers = signedOver(partner, token);
    expect((await post(a.url, "/api/v1/sales-orders", order(), headers)).status).toBe(201);
    const replayed = await post(b.url, "/api/v1/sales-orders", order(), headers);
    expect(replayed.status).toBe(409);
    expect(replayed.body.code).toBe("request_replayed");
  });
});

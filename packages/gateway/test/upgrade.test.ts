/**
 * Upgrading from the previous release: a store that release be4d266 wrote (through its own CLI
 * and API: test/fixtures/upgrade-from-be4d266/regenerate.mjs), one per store kind, is migrated
 * by this build's `migrate`; then everything an operator and a partner rely on reads back:
 * orders with their history, webhook endpoints and their signing secret, the partner's secret,
 * key and the tokens the old release signed, users' passwords, and order numbering continuing.
 */
import { execFileSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { latestVersion } from "../src/store/migrations.js";
import { order } from "./helpers.js";
import {
  cli,
  loginOver,
  type ProcessEnv,
  type ProcessPartner,
  type RunningGateway,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { Receiver, verifyDelivery } from "./support/receiver.js";
import { freshPostgresUrl, type StoreKind, storeKinds } from "./support/stores.js";

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field by the assertions
const read = (response: Response): Promise<any> => response.json();

const FIXTURES = fileURLToPath(new URL("./fixtures/upgrade-from-be4d266/", import.meta.url));

interface FixtureOrder {
  id: string;
  order_number: string;
  purchase_order_no: string;
  status: string;
  history: { from: string | null; to: string; reason: string | null }[];
  products: unknown[];
}
interface FixtureStore {
  tenant_id: string;
  users: { email: string; role: string; password: string }[];
  partner: {
    client_id: string;
    client_secret: string;
    key_id: string;
    private_key_pem: string;
    refreshed_token: string;
    token: string;
  };
  webhook_endpoint: { id: string; url: string; secret: string };
  orders: FixtureOrder[];
}
const fixture = JSON.parse(readFileSync(join(FIXTURES, "fixture.json"), "utf8")) as {
  release: string;
  master_key: string;
  stores: Record<StoreKind, FixtureStore>;
};

/** Puts the release's store where a fresh database URL points, as an operator restores it. */
async function restoredStore(kind: StoreKind, dir: string): Promise<string> {
  if (kind === "sqlite") {
    const file = join(dir, "gateway.db");
    copyFileSync(join(FIXTURES, "store.sqlite"), file);
    return `sqlite:${file}`;
  }
  const url = await freshPostgresUrl();
  execFileSync("pg_restore", ["--no-owner", `--dbname=${url}`, join(FIXTURES, "store.pgdump")]);
  return url;
}

let running: RunningGateway | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  running?.child.kill("SIGTERM");
  await running?.exited;
  running = undefined;
  await receiver?.stop();
  receiver = undefined;
});

describe.each(storeKinds)(`a store written by release ${fixture.release} (%s)`, (kind) => {
  const old = fixture.stores[kind];

  it("migrates, then every record reads back, signs in and numbering continues", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orderline-upgrade-"));
    const env: ProcessEnv = {
      databaseUrl: await restoredStore(kind, dir),
      dataDir: dir,
      extra: { GATEWAY_MASTER_KEY: fixture.master_key, GATEWAY_WEBHOOK_ALLOW_PRIVATE: "loopback" },
    };
    expect(JSON.parse(await cli(env, ["migrate", "--json"]))).toEqual({
      store: kind,
      schema_version: latestVersion(kind),
    });
    running = await startProcess(env);
    const base = running.url;

    // The partner's secret (hashed with the master key) signs in; the key the old release
    // signed tokens with is still published, and its tokens' signatures verify.
    const partner: ProcessPartner = {
      clientId: old.partner.client_id,
      clientSecret: old.partner.client_secret,
      keyId: old.partner.key_id,
      privateKey: createPrivateKey(old.partner.private_key_pem),
    };
    const token = await loginOver(base, partner);
    const jwks = await read(await fetch(`${base}/.well-known/jwks.json`));
    const oldKid = decodeProtectedHeader(old.partner.token).kid;
    expect(jwks.keys.map((key: { kid: string }) => key.kid)).toContain(oldKid);
    await compactVerify(old.partner.token, createLocalJWKSet(jwks));
    expect(decodeProtectedHeader(token).kid).toBe(oldKid);
    // A token the old release already refreshed is never refreshed again (reused, or by now
    // past its grace); a fresh one refreshes once.
    const again = await fetch(`${base}/api/v1/auth/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: old.partner.refreshed_token }),
    });
    expect(again.status).toBe(401);
    const refreshed = await fetch(`${base}/api/v1/auth/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });
    expect(refreshed.status).toBe(200);

    // Every order, with its lines, status and history.
    for (const expected of old.orders) {
      const answer = await fetch(`${base}/api/v1/sales-orders/${expected.id}`, {
        headers: signedOver(partner, token),
      });
      expect(answer.status).toBe(200);
      const { data } = await read(answer);
      expect(data).toMatchObject({
        id: expected.id,
        order_number: expected.order_number,
        purchase_order_no: expected.purchase_order_no,
        status: expected.status,
        products: expected.products,
      });
      expect(
        data.history.map((change: FixtureOrder["history"][number]) => ({
          from: change.from,
          to: change.to,
          reason: change.reason,
        })),
      ).toEqual(expected.history);
    }
    // A purchase order number the old release took is still taken.
    const duplicate = await fetch(`${base}/api/v1/sales-orders`, {
      method: "POST",
      headers: signedOver(partner, token),
      body: JSON.stringify(order({ purchase_order_no: old.orders[0]?.purchase_order_no })),
    });
    expect(duplicate.status).toBe(409);

    // The webhook endpoint, with its signing secret: pointed at a receiver, the next order's
    // event arrives signed with the secret the old release issued.
    const endpoints = await fetch(`${base}/api/v1/webhook-endpoints`, {
      headers: signedOver(partner, token),
    });
    expect(endpoints.status).toBe(200);
    const listed = (await read(endpoints)).data;
    expect(listed).toEqual([
      expect.objectContaining({ id: old.webhook_endpoint.id, url: old.webhook_endpoint.url }),
    ]);
    // A receiver of this store's own: each store's endpoint has its own secret.
    const hooks = await new Receiver().start();
    receiver = hooks;
    const moved = await fetch(`${base}/api/v1/webhook-endpoints/${old.webhook_endpoint.id}`, {
      method: "PATCH",
      headers: signedOver(partner, token),
      body: JSON.stringify({ url: hooks.url }),
    });
    expect(moved.status, await moved.clone().text()).toBe(200);

    // Numbering continues after the old release's last number.
    const created = await fetch(`${base}/api/v1/sales-orders`, {
      method: "POST",
      headers: signedOver(partner, token),
      body: JSON.stringify(order({ purchase_order_no: "PO-AFTER-UPGRADE" })),
    });
    expect(created.status).toBe(201);
    const next = (await read(created)).data;
    const lastNumber = Math.max(...old.orders.map((o) => Number(o.order_number.slice(3))));
    expect(next.order_number).toBe(`SO-${String(lastNumber + 1).padStart(8, "0")}`);
    // The event names the order in its payload (data.order or data itself, by event version).
    const carriesNext = (r: { raw: Buffer }) => r.raw.toString("utf8").includes(next.id);
    await hooks.until((received) => received.some(carriesNext), "the new order's event");
    // Every delivery, the new order's and those the old release had left pending, is signed with
    // the secret the old release issued.
    for (const delivery of hooks.received)
      expect(
        verifyDelivery(
          delivery.headers["orderline-signature"] as string | undefined,
          delivery.raw,
          old.webhook_endpoint.secret,
        ),
      ).toBe(true);

    // Every user signs in with the password set under the old release and sees the orders.
    for (const user of old.users) {
      const login = await fetch(`${base}/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      expect(login.status, user.email).toBe(200);
      const { token: userToken } = await read(login);
      const orders = await fetch(`${base}/v1/orders`, {
        headers: { authorization: `Bearer ${userToken}` },
      });
      expect(orders.status).toBe(200);
      expect((await read(orders)).data).toHaveLength(old.orders.length + 1);
      // The overview's tallies: built by migration 026 from what the old release wrote, then
      // kept by the new order's create.
      const overview = await fetch(`${base}/v1/tenant/overview`, {
        headers: { authorization: `Bearer ${userToken}` },
      });
      expect(overview.status).toBe(200);
      expect((await read(overview)).data.awaiting.count).toBe(
        old.orders.filter((o) => o.status === "received").length + 1,
      );
    }
    // Two stores, two processes, password checks and a webhook delivery: generous on a busy
    // machine, reached only by a hang.
  }, 240_000);
});

import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { order, rsaKeys, tempDir } from "./helpers.js";
import {
  CLI,
  cli,
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { Receiver, verifyDelivery } from "./support/receiver.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Quick polls and a 1 s attempt timeout (so a dead instance's 3 s lease runs out soon). */
const DELIVERY = {
  GATEWAY_WEBHOOK_ALLOW_PRIVATE: "loopback",
  GATEWAY_WEBHOOK_POLL_MS: "50",
  GATEWAY_WEBHOOK_TIMEOUT_MS: "1000",
  GATEWAY_WEBHOOK_BACKOFF_BASE_MS: "100",
};

describe.each(storeKinds)("webhooks of the built gateway process (%s store)", (kind) => {
  it("loses no event when killed with SIGKILL after the commit, or while the receiver has not answered", async () => {
    expect(existsSync(CLI), "build the package first (npm run build)").toBe(true);
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const receiver = await new Receiver().start();
    cleanups.push(() => receiver.stop());
    const env: ProcessEnv = {
      databaseUrl: await freshDatabaseUrl(kind, dir),
      dataDir: dir,
      extra: DELIVERY,
    };
    await cli(env, ["migrate"]);
    const partner = await createPartnerWithCli(env, rsaKeys());
    const endpoint = JSON.parse(
      await cli(env, [
        "webhooks",
        "add",
        partner.clientId,
        "--url",
        receiver.url,
        "--events",
        "order.created",
        "--json",
      ]),
    ) as { id: string; secret: string };
    const start = async (extra: Record<string, string> = {}) => {
      const gateway = await startProcess({ ...env, extra: { ...DELIVERY, ...extra } });
      cleanups.push(() => gateway.child.kill("SIGKILL"));
      return gateway;
    };

    // 1. Delivery off: the order commits, then the process dies before any delivery.
    const first = await start({ GATEWAY_WEBHOOK_POLL_MS: "0" });
    const token = await loginOver(first.url, partner);
    const placed = await fetch(`${first.url}/api/v1/sales-orders`, {
      method: "POST",
      headers: signedOver(partner, token),
      body: JSON.stringify(order({ purchase_order_no: "PO-CRASH-1" })),
    });
    expect(placed.status).toBe(201);
    const orderId = ((await placed.json()) as { data: { id: string } }).data.id;
    first.child.kill("SIGKILL");
    await first.exited;
    expect(receiver.received).toHaveLength(0);

    // 2. The next process sends it; the receiver holds the request; the process dies too.
    receiver.answer = () => "hold";
    const second = await start();
    await receiver.until((got) => got.length === 1, "the held delivery");
    second.child.kill("SIGKILL");
    await second.exited;

    // 3. A third process finds the delivery unacknowledged once the dead one's lease is out.
    receiver.answer = () => 204;
    await start();
    await receiver.until((got) => got.length === 2, "the delivery after the restart");
    const [held, delivered] = receiver.received;
    expect(delivered?.body.id).toBe(held?.body.id);
    expect(delivered?.body).toMatchObject({
      type: "order.created",
      data: { order: { id: orderId, purchase_order_no: "PO-CRASH-1" } },
    });
    expect(
      verifyDelivery(
        delivered?.headers["orderline-signature"] as string,
        delivered?.raw as Buffer,
        endpoint.secret,
      ),
    ).toBe(true);
  });
});

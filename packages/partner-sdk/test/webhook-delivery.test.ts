/**
 * End to end: the gateway (with its delivery worker) posts a partner's order events to a
 * receiver that checks each with verifyWebhook, over real sockets. The events come from the
 * SDK's own calls: create, then cancel.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../gateway/src/config/config.js";
import {
  createTenant,
  TEST_USERS_CONFIG,
  tenantPartner,
  userToken,
} from "../../gateway/test/support/tenants.js";
import {
  createPartnerClient,
  type SalesOrderInput,
  verifyWebhook,
  type WebhookEvent,
  WebhookSignatureError,
} from "../src/index.js";
import { order, type RunningGateway, runGateway, type TestPartner } from "./support/gateway.js";

interface Delivery {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  /** The verified event, or why verifyWebhook refused it. */
  outcome: WebhookEvent | string;
}

/** A partner's receiver: verifies every delivery, answers 204 or 400, keeps what it got. */
class VerifyingReceiver {
  readonly deliveries: Delivery[] = [];
  secret = "";
  url = "";
  #waiting: (() => void)[] = [];
  #server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      let outcome: WebhookEvent | string;
      try {
        outcome = verifyWebhook({
          payload: raw,
          header: req.headers["orderline-signature"] as string | undefined,
          secret: this.secret,
        });
      } catch (error) {
        if (!(error instanceof WebhookSignatureError)) throw error;
        outcome = error.reason;
      }
      this.deliveries.push({ headers: req.headers, raw, outcome });
      res.writeHead(typeof outcome === "string" ? 400 : 204).end();
      for (const wake of this.#waiting.splice(0)) wake();
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/orderline`;
    return this;
  }

  /** Resolves once `count` deliveries arrived (the test's timeout bounds the wait). */
  async received(count: number): Promise<Delivery[]> {
    while (this.deliveries.length < count) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    return this.deliveries;
  }

  stop(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

let gateway: RunningGateway;
let partner: TestPartner;
let receiver: VerifyingReceiver;

beforeAll(async () => {
  // Quick polls and a loopback receiver allowed: delivery in well under a second.
  gateway = await runGateway(undefined, {
    users: TEST_USERS_CONFIG,
    webhooks: { ...loadConfig({}).webhooks, allowPrivate: "loopback", pollMs: 25 },
  });
  const tenant = await createTenant(gateway.gw, "Webhook Tenant");
  partner = await tenantPartner(gateway.gw, tenant.id, "Webhook Partner");
  receiver = await new VerifyingReceiver().start();
  // The tenant's admin adds the partner's endpoint, as the console does; the secret is shown once.
  const response = await fetch(
    `${gateway.url}/v1/tenant/partners/${partner.clientId}/webhook-endpoints`,
    {
      method: "POST",
      headers: {
        authorization: `Bearer ${await userToken(gateway.gw, tenant.admin.email)}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ url: receiver.url, events: ["*"] }),
    },
  );
  const { data: endpoint } = (await response.json()) as { data: { secret: string } };
  expect(response.status, JSON.stringify(endpoint)).toBe(201);
  receiver.secret = endpoint.secret;
});
afterAll(async () => {
  await receiver.stop();
  await gateway.close();
});

describe("webhooks from the gateway", () => {
  it("verifyWebhook accepts the gateway's deliveries of the SDK's create and cancel", async () => {
    const client = createPartnerClient({
      baseUrl: gateway.url,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
      privateKey: partner.keys.privateKey,
    });
    const input = order({ purchase_order_no: "HOOK-E2E-1" }) as unknown as SalesOrderInput;
    const created = await client.salesOrders.create(input);
    await client.salesOrders.cancel(created.id, { reason: "duplicate of HOOK-E2E-0" });

    const deliveries = await receiver.received(2);
    const events = deliveries.map((d) => d.outcome);
    expect(
      events.every((e) => typeof e === "object"),
      JSON.stringify(events),
    ).toBe(true);
    const [first, second] = events as WebhookEvent[];
    expect(first?.type).toBe("order.created");
    expect(first?.data.order.id).toBe(created.id);
    expect(first?.data.change).toBeUndefined();
    expect(second?.type).toBe("order.cancelled");
    expect(second?.data.order.status).toBe("cancelled");
    expect(second?.data.change).toEqual({
      from: "received",
      to: "cancelled",
      reason: "duplicate of HOOK-E2E-0",
      by: "partner",
    });
    for (const delivery of deliveries) {
      const event = delivery.outcome as WebhookEvent;
      expect(delivery.headers["orderline-event-id"]).toBe(event.id);
      expect(delivery.headers["orderline-event-type"]).toBe(event.type);
    }

    // The same bytes under another secret, or another purchase order number, do not verify.
    const [delivery] = deliveries;
    const header = delivery?.headers["orderline-signature"] as string;
    const raw = delivery?.raw ?? Buffer.alloc(0);
    expect(() => verifyWebhook({ payload: raw, header, secret: `${receiver.secret}x` })).toThrow(
      WebhookSignatureError,
    );
    const altered = Buffer.from(raw.toString("utf8").replace("HOOK-E2E-1", "HOOK-E2E-2"));
    expect(() => verifyWebhook({ payload: altered, header, secret: receiver.secret })).toThrow(
      /No v1 signature matches/,
    );
  });
});

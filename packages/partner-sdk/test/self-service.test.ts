/**
 * A partner's own webhook endpoints and request log through the SDK and the `orderline-partner`
 * CLI, against a real gateway (with its delivery worker) on each store, over real sockets: the
 * webhook.test event reaches a local receiver (loopback allowed, as the gateway's delivery tests
 * do) and verifies with verifyWebhook; another partner sees nothing of it.
 */
import { execFile } from "node:child_process";
import { sign } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../gateway/src/config/config.js";
import type { Gateway } from "../../gateway/src/gateway.js";
import { startGateway } from "../../gateway/test/helpers.js";
import { Receiver } from "../../gateway/test/support/receiver.js";
import { storeKinds } from "../../gateway/test/support/stores.js";
import {
  createTenant,
  TEST_USERS_CONFIG,
  tenantPartner,
} from "../../gateway/test/support/tenants.js";
import {
  createPartnerClient,
  PartnerApiError,
  type PartnerClient,
  type RefusedRequest,
  verifyWebhook,
} from "../src/index.js";
import type { TestPartner } from "./support/gateway.js";

const BIN = fileURLToPath(new URL("../bin/orderline-partner.js", import.meta.url));

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

describe.each(storeKinds)("partner self-service through the SDK and CLI (%s store)", (kind) => {
  let gw: Gateway;
  let url: string;
  let alpha: TestPartner;
  let beta: TestPartner;
  let client: PartnerClient;
  let other: PartnerClient;
  let dir: string;
  const receiver = new Receiver();

  beforeAll(async () => {
    gw = await startGateway({
      store: kind,
      config: {
        partnerCacheMs: 0,
        users: TEST_USERS_CONFIG,
        webhooks: {
          ...loadConfig({}).webhooks,
          allowPrivate: "loopback",
          pollMs: 25,
          backoffBaseMs: 50,
          backoffMaxMs: 200,
        },
      },
    });
    await gw.app.listen({ port: 0, host: "127.0.0.1" });
    url = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
    const tenant = await createTenant(gw, "SDK Self Service");
    alpha = await tenantPartner(gw, tenant.id, "Alpha SDK");
    beta = await tenantPartner(gw, tenant.id, "Beta SDK");
    const of = (p: TestPartner) =>
      createPartnerClient({
        baseUrl: url,
        clientId: p.clientId,
        clientSecret: p.clientSecret,
        privateKey: p.keys.privatePem,
      });
    client = of(alpha);
    other = of(beta);
    await receiver.start();
    dir = mkdtempSync(join(tmpdir(), "orderline-partner-self-service-"));
    writeFileSync(join(dir, "alpha.pem"), alpha.keys.privatePem);
  });
  afterAll(async () => {
    await receiver.stop();
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The CLI as a separate process, as alpha. */
  function cli(args: string[]): Promise<Result> {
    return new Promise((resolve) => {
      execFile(
        "node",
        [BIN, ...args],
        {
          cwd: dir,
          env: {
            PATH: process.env.PATH ?? "",
            ORDERLINE_BASE_URL: url,
            ORDERLINE_CLIENT_ID: alpha.clientId,
            ORDERLINE_CLIENT_SECRET: alpha.clientSecret,
            ORDERLINE_PRIVATE_KEY_FILE: join(dir, "alpha.pem"),
          },
        },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }

  it("registers, tests, inspects and resends with the SDK; the receiver verifies the test event", async () => {
    const created = await client.webhookEndpoints.create({
      url: receiver.url,
      events: ["order.created"],
    });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await client.webhookEndpoints.list()).map((e) => e.id)).toEqual([created.id]);
    expect(await client.webhookEndpoints.get(created.id)).toMatchObject({ url: receiver.url });

    const { event_id } = await client.webhookEndpoints.test(created.id);
    await receiver.until((r) => r.some((d) => d.body.id === event_id), "the test event");
    const delivery = receiver.received.find((d) => d.body.id === event_id);
    const event = verifyWebhook({
      payload: delivery?.raw as Buffer,
      header: delivery?.headers["orderline-signature"] as string,
      secret: created.secret,
    });
    expect(event).toMatchObject({ id: event_id, type: "webhook.test" });

    let attempts = await client.webhookEndpoints.deliveries(created.id, { limit: 5 });
    for (let i = 0; i < 80 && attempts.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      attempts = await client.webhookEndpoints.deliveries(created.id, { limit: 5 });
    }
    expect(attempts[0]).toMatchObject({ event_id, status: "succeeded", response_status: 204 });
    await client.webhookEndpoints.resend(created.id, event_id);
    await receiver.until((r) => r.filter((d) => d.body.id === event_id).length === 2, "resend");

    const updated = await client.webhookEndpoints.update(created.id, { events: ["*"] });
    expect(updated.events).toEqual(["*"]);
    const rotated = await client.webhookEndpoints.rotateSecret(created.id);
    expect(rotated.secret).not.toBe(created.secret);

    // The other partner sees none of it.
    expect(await other.webhookEndpoints.list()).toEqual([]);
    const refused = await other.webhookEndpoints.get(created.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PartnerApiError);
    expect((refused as PartnerApiError).code).toBe("webhook_endpoint_not_found");
  });

  it("does the same with the CLI, in human and --json output", async () => {
    const created = await cli([
      "webhooks",
      "create",
      "--url",
      receiver.url,
      "--events",
      "order.created,order.cancelled",
      "--json",
    ]);
    expect(created.code, created.stderr).toBe(0);
    const endpoint = JSON.parse(created.stdout).data as { id: string; secret: string };
    expect(endpoint.secret).toMatch(/^whsec_/);

    const human = await cli(["webhooks", "list"]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`${endpoint.id}  enabled   order.created,order.cancelled`);

    const tested = await cli(["webhooks", "test", endpoint.id, "--json"]);
    expect(tested.code, tested.stderr).toBe(0);
    const { event_id } = JSON.parse(tested.stdout).data as { event_id: string };
    await receiver.until((r) => r.some((d) => d.body.id === event_id), "the CLI's test event");

    // Waits for the attempt to be recorded through the SDK (a request, not a process, per poll),
    // then lists it once with the CLI.
    for (let i = 0; i < 80; i++) {
      const attempts = await client.webhookEndpoints.deliveries(endpoint.id);
      if (attempts.some((a) => a.event_id === event_id)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const deliveries = (await cli(["webhooks", "deliveries", endpoint.id])).stdout;
    expect(deliveries).toMatch(new RegExp(`${event_id}  webhook.test  #1  succeeded  HTTP 204`));

    const resent = await cli(["webhooks", "resend", endpoint.id, event_id]);
    expect(resent.stdout).toContain(`Queued ${event_id}`);
    const rotated = await cli(["webhooks", "rotate-secret", endpoint.id]);
    expect(rotated.stdout).toMatch(/shown only this once\):\n {2}whsec_/);
    const disabled = await cli(["webhooks", "update", endpoint.id, "--disable"]);
    expect(disabled.stdout).toContain("disabled");
    const refused = await cli(["webhooks", "test", endpoint.id, "--json"]);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe("webhook_endpoint_disabled");
    const gone = await cli(["webhooks", "delete", endpoint.id]);
    expect(gone.stdout).toBe(`Deleted ${endpoint.id}.\n`);
    expect((await cli(["webhooks", "get", endpoint.id])).code).toBe(1);
    expect((await cli(["webhooks", "update", endpoint.id])).code).toBe(2);
  });

  it("shows a refused signature's expected string-to-sign in the request log (SDK and CLI)", async () => {
    // A request signed over the string-to-sign plus a newline (the `echo` mistake).
    const token = (await client.login()).token;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const expected = `${alpha.clientId}|${timestamp}`;
    const refused = await fetch(`${url}/api/v1/webhook-endpoints`, {
      headers: {
        authorization: `Bearer ${token}`,
        "x-client-id": alpha.clientId,
        "x-timestamp": timestamp,
        "x-signature": sign("sha256", Buffer.from(`${expected}\n`), alpha.keys.privateKey).toString(
          "base64",
        ),
      },
    });
    expect(refused.status).toBe(401);
    const requestId = refused.headers.get("x-request-id") as string;

    let entries: RefusedRequest[] = [];
    for (let i = 0; i < 80 && !entries.some((e) => e.request_id === requestId); i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      entries = await client.requestLog.failed();
    }
    const entry = entries.find((e) => e.request_id === requestId);
    expect(entry).toMatchObject({
      code: "signature_invalid",
      expected: { signature_version: 1, string_to_sign: expected },
    });
    expect(entry?.expected?.hints?.map((h) => h.code)).toContain("trailing_newline");
    expect((await other.requestLog.failed()).some((e) => e.request_id === requestId)).toBe(false);

    const human = await cli(["requests", "--failed"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(
      `GET /api/v1/webhook-endpoints  401 signature_invalid  request id ${requestId}`,
    );
    expect(human.stdout).toContain(`expected string-to-sign (version 1): "${expected}"`);
    expect(human.stdout).toContain("hint trailing_newline:");
    const json = await cli(["requests", "--failed", "--json", "--limit", "5"]);
    const listed = JSON.parse(json.stdout) as { data: RefusedRequest[] };
    expect(listed.data.find((e) => e.request_id === requestId)?.expected?.string_to_sign).toBe(
      expected,
    );
    expect(json.stdout).not.toContain(alpha.clientSecret);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./helpers.js";
import { runCaptured } from "./support/processes.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

describe.each(storeKinds)("admin CLI: webhooks (%s store)", (kind) => {
  let dir: string;
  let cleanup: () => void;
  let db: string;
  let clientId: string;

  const cli = (...argv: string[]) =>
    runCaptured([...argv, "--db", db], {
      env: { DATABASE_URL: undefined, GATEWAY_MASTER_KEY: undefined, GATEWAY_DATA_DIR: dir },
      cwd: dir,
    });

  beforeAll(async () => {
    ({ dir, cleanup } = tempDir());
    db = await freshDatabaseUrl(kind, dir);
    expect((await cli("migrate")).code).toBe(0);
    clientId = JSON.parse(
      (await cli("partners", "create", "--name", "Hooked", "--json")).stdout,
    ).client_id;
  });
  afterAll(() => cleanup());

  it("adds, lists, disables, enables, rotates and removes an endpoint", async () => {
    const added = await cli(
      "webhooks",
      "add",
      clientId,
      "--url",
      "https://hooks.partner.example/orderline",
      "--events",
      "order.created, order.accepted",
      "--json",
    );
    expect(added.code, added.stderr).toBe(0);
    const endpoint = JSON.parse(added.stdout);
    expect(endpoint).toMatchObject({
      id: expect.stringMatching(/^we_/),
      events: ["order.created", "order.accepted"],
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });

    const listed = await cli("webhooks", "list", clientId);
    expect(listed.stdout).toContain(`${endpoint.id}  enabled   https://hooks.partner.example`);
    expect(listed.stdout).toContain("events: order.created, order.accepted");
    expect(listed.stdout).toContain("last success: never");
    expect(listed.stdout).not.toContain("whsec_");

    expect((await cli("webhooks", "disable", clientId, endpoint.id)).code).toBe(0);
    const disabled = await cli("webhooks", "list", clientId);
    expect(disabled.stdout).toContain("DISABLED");
    expect(disabled.stdout).toContain("Disabled by the operator (admin CLI).");
    expect((await cli("webhooks", "enable", clientId, endpoint.id)).code).toBe(0);

    const graced = JSON.parse(
      (await cli("webhooks", "rotate-secret", clientId, endpoint.id, "--grace", "2h", "--json"))
        .stdout,
    );
    expect(graced.secret).toMatch(/^whsec_/);
    expect(graced.secret).not.toBe(endpoint.secret);
    const until = Date.parse(graced.previous_valid_until) - Date.now();
    expect(until).toBeGreaterThan(7_000_000);
    expect(until).toBeLessThanOrEqual(7_200_000);
    const cut = JSON.parse(
      (await cli("webhooks", "rotate-secret", clientId, endpoint.id, "--immediately", "--json"))
        .stdout,
    );
    expect(cut.previous_valid_until).toBeNull();

    const attempts = await cli("webhooks", "deliveries", clientId, endpoint.id);
    expect(attempts.stdout).toBe("No delivery attempts yet.\n");

    expect((await cli("webhooks", "remove", clientId, endpoint.id)).code).toBe(0);
    expect((await cli("webhooks", "list", clientId)).stdout).toContain("No webhook endpoints");
    const again = await cli("webhooks", "remove", clientId, endpoint.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`No webhook endpoint '${endpoint.id}'`);
  });

  it("refuses what the API refuses, with the same messages and exit codes", async () => {
    const loopback = await cli("webhooks", "add", clientId, "--url", "http://127.0.0.1:9/x");
    expect(loopback.code).toBe(1);
    expect(loopback.stderr).toContain("127.0.0.1 is a loopback address");
    const events = await cli(
      "webhooks",
      "add",
      clientId,
      "--url",
      "https://hooks.partner.example/x",
      "--events",
      "order.shipped",
      "--json",
    );
    expect(events.code).toBe(1);
    expect(JSON.parse(events.stderr).error).toMatchObject({ code: "refused" });
    expect((await cli("webhooks", "list", "olc_000000000000000000000000")).stderr).toContain(
      "No partner with client_id",
    );
    const limit = await cli("webhooks", "deliveries", clientId, "we_x", "--limit", "0");
    expect(limit.code).toBe(2);
    const missing = await cli("webhooks", "add", clientId);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--url");
  });
});

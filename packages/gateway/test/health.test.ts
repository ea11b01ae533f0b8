import { afterEach, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { latestVersion } from "../src/store/migrations.js";
import { json, startGateway } from "./helpers.js";
import { storeKinds } from "./support/stores.js";

const gateways: Gateway[] = [];
afterEach(async () => {
  for (const gw of gateways.splice(0)) await gw.close();
});

describe.each(storeKinds)("/health and /ready (%s store)", (kind) => {
  it("reports liveness, and readiness with the schema version", async () => {
    const gw = await startGateway({ store: kind });
    gateways.push(gw);
    const health = await gw.app.inject({ method: "GET", url: "/health" });
    expect(health.statusCode).toBe(200);
    expect(json(health)).toEqual({ status: "ok" });
    const ready = await gw.app.inject({ method: "GET", url: "/ready" });
    expect(ready.statusCode).toBe(200);
    expect(json(ready)).toEqual({
      status: "ok",
      store: kind,
      schema_version: latestVersion(kind),
      expected_schema_version: latestVersion(kind),
    });
  });

  it("is not ready once the store cannot be reached, while still alive", async () => {
    const gw = await startGateway({ store: kind });
    gateways.push(gw);
    await gw.store.close();
    const ready = await gw.app.inject({ method: "GET", url: "/ready" });
    expect(ready.statusCode).toBe(503);
    expect(json(ready)).toMatchObject({
      status: "unavailable",
      detail: "The store does not answer.",
    });
    expect((await gw.app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });

  it("are in the OpenAPI document without security", async () => {
    const gw = await startGateway({ store: kind });
    gateways.push(gw);
    const spec = json(await gw.app.inject({ method: "GET", url: "/openapi.json" })) as {
      paths: Record<string, { get: { security: unknown[] } }>;
    };
    expect(spec.paths["/health"]?.get.security).toEqual([]);
    expect(spec.paths["/ready"]?.get.security).toEqual([]);
  });
});

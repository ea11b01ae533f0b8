import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { abortSignalOnDisconnectOnly } from "../src/http/handler-timeout.js";

const apps: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** A Fastify app with a handler timeout, as the gateway builds it, and the hook under test. */
async function appWith(handler: (signal: AbortSignal) => Promise<unknown>) {
  const app = Fastify({ handlerTimeout: 10_000 });
  abortSignalOnDisconnectOnly(app);
  app.post("/work", async (request) => handler(request.signal));
  await app.listen({ port: 0, host: "127.0.0.1" });
  apps.push(app);
  return (app.server.address() as AddressInfo).port;
}

describe("request.signal with a handler timeout", () => {
  it("is not aborted once the body has been read while the client still waits", async () => {
    const port = await appWith(async (signal) => {
      await new Promise((r) => setTimeout(r, 50));
      return { aborted: signal.aborted };
    });
    const response = await fetch(`http://127.0.0.1:${port}/work`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ order: 1 }),
    });
    expect(await response.json()).toEqual({ aborted: false });
  });

  it("is aborted when the client goes away before the answer", async () => {
    let sawAbort: (aborted: boolean) => void = () => {};
    const seen = new Promise<boolean>((resolve) => {
      sawAbort = resolve;
    });
    let started: () => void = () => {};
    const handling = new Promise<void>((resolve) => {
      started = resolve;
    });
    const port = await appWith(async (signal) => {
      started();
      await new Promise((r) => setTimeout(r, 300));
      sawAbort(signal.aborted);
      return {};
    });
    const client = httpRequest({
      port,
      host: "127.0.0.1",
      method: "POST",
      path: "/work",
      headers: { "content-type": "application/json" },
    });
    client.on("error", () => {});
    client.end(JSON.stringify({ order: 2 }));
    await handling;
    client.destroy();
    expect(await seen).toBe(true);
  });
});

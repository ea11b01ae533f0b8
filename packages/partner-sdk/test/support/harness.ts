/**
 * A real gateway for the Python and Java SDKs' own tests and the conformance runners, with a
 * small control API on loopback their test code calls (they cannot reach the gateway's
 * in-process helpers): a fresh partner per test, and fault proxies in front of the gateway
 * whose faults and recorded requests the test sets and reads.
 *
 *   GET  /                         → { gateway_url }
 *   POST /partners {signature_version?} → { client_id, client_secret, private_key_pem }
 *   POST /proxies {fault_path?}    → { id, url }
 *   PUT  /proxies/:id/faults [Fault…]; GET /proxies/:id/attempts → [Attempt…]
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Fault, FaultProxy } from "./fault-proxy.js";
import { createPartner, type RunningGateway, runGateway } from "./gateway.js";

export interface Harness {
  gateway: RunningGateway;
  /** The control API's origin, for ORDERLINE_TEST_HARNESS. */
  url: string;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? {} : JSON.parse(text);
}

function send(response: ServerResponse, status: number, body?: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(body === undefined ? "" : JSON.stringify(body));
}

export async function startHarness(): Promise<Harness> {
  const gateway = await runGateway();
  const proxies = new Map<string, FaultProxy>();

  const route = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    const proxy = proxies.get(/^\/proxies\/([^/]+)\//.exec(path)?.[1] ?? "");
    if (request.method === "GET" && path === "/") {
      return send(response, 200, { gateway_url: gateway.url });
    }
    if (request.method === "POST" && path === "/partners") {
      const { signature_version } = (await bodyOf(request)) as { signature_version?: 1 | 2 };
      const partner = await createPartner(gateway.gw);
      if (signature_version === 2) {
        await gateway.gw.partners.setSignatureVersion(partner.clientId, 2);
      }
      return send(response, 201, {
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
        private_key_pem: partner.keys.privatePem,
      });
    }
    if (request.method === "POST" && path === "/proxies") {
      const { fault_path } = (await bodyOf(request)) as { fault_path?: string };
      const created = await new FaultProxy(gateway.url, Date.now, fault_path).start();
      const id = String(proxies.size + 1);
      proxies.set(id, created);
      return send(response, 201, { id, url: created.url });
    }
    if (proxy && request.method === "PUT" && path.endsWith("/faults")) {
      proxy.faults = (await bodyOf(request)) as Fault[];
      return send(response, 204);
    }
    if (proxy && request.method === "GET" && path.endsWith("/attempts")) {
      return send(response, 200, proxy.attempts);
    }
    send(response, 404, { error: `no ${request.method} ${path}` });
  };

  const server: Server = createServer((request, response) => {
    route(request, response).catch((error: unknown) =>
      send(response, 500, { error: String(error) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    gateway,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...proxies.values()].map((p) => p.close()));
      await gateway.close();
    },
  };
}

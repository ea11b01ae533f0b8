import { existsSync } from "node:fs";
import { Agent, type IncomingHttpHeaders, request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../src/store/open.js";
import { order, rsaKeys, tempDir } from "./helpers.js";
import {
  CLI,
  cli,
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  type RunningGateway,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { freshDatabaseUrl, type StoreKind, storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * `extra`: settings of the instance; by default without the not-ready phase (tested below) and
 * with the product's default drain (the support's processes have none).
 */
async function setUp(
  kind: StoreKind,
  extra: Record<string, string> = { GATEWAY_DRAIN_READY_SECONDS: "0", GATEWAY_DRAIN_SECONDS: "5" },
) {
  expect(existsSync(CLI), "build the package first (npm run build)").toBe(true);
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const env: ProcessEnv = {
    databaseUrl: await freshDatabaseUrl(kind, dir),
    dataDir: dir,
    extra,
  };
  await cli(env, ["migrate"]);
  const partner = await createPartnerWithCli(env, rsaKeys());
  const start = async () => {
    const gateway = await startProcess(env);
    cleanups.push(() => gateway.child.kill("SIGKILL"));
    return gateway;
  };
  /** The purchase order numbers stored for the partner, read straight from the store. */
  const stored = async (): Promise<string[]> => {
    const store = await openStore(env.databaseUrl);
    try {
      const record = await store.findPartnerByClientId(partner.clientId);
      const page = await store.listOrders(record?.id ?? "", { limit: 1_000_000 });
      return page.orders.map((o) => o.purchaseOrderNo as string);
    } finally {
      await store.close();
    }
  };
  return { env, partner, start, stored };
}

/** Sends orders from `workers` loops until one fails; returns the acknowledged ones. */
function stream(gateway: RunningGateway, headers: () => Record<string, string>, workers = 16) {
  const acknowledged: string[] = [];
  const refused: number[] = [];
  let sent = 0;
  const worker = async (w: number) => {
    for (;;) {
      const po = `PO-${w}-${sent++}`;
      try {
        const response = await fetch(`${gateway.url}/api/v1/sales-orders`, {
          method: "POST",
          headers: headers(),
          body: JSON.stringify(order({ purchase_order_no: po })),
        });
        if (response.status === 201) acknowledged.push(po);
        else {
          refused.push(response.status);
          return;
        }
      } catch {
        return; // the process is gone
      }
    }
  };
  const done = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  return { acknowledged, refused, done };
}

describe.each(storeKinds)("the built gateway process (%s store)", (kind) => {
  it("keeps every acknowledged order and none twice when killed with SIGKILL mid-stream", async () => {
    const { partner, start, stored } = await setUp(kind);
    let gateway = await start();
    const token = await loginOver(gateway.url, partner);
    const run = stream(gateway, () => signedOver(partner, token));
    // The kill lands with 16 requests in flight whenever it comes: 100 acknowledged first are
    // enough to be past start-up (300 only cost CPU); every acknowledged one is checked below.
    while (run.acknowledged.length < 100) await new Promise((r) => setTimeout(r, 5));
    gateway.child.kill("SIGKILL");
    await run.done;

    const rows = await stored();
    const unique = new Set(rows);
    expect(unique.size).toBe(rows.length);
    for (const po of run.acknowledged) expect(unique.has(po), po).toBe(true);

    // It restarts on the same store and serves what it stored.
    gateway = await start();
    const list = await fetch(`${gateway.url}/api/v1/sales-orders?limit=1`, {
      headers: signedOver(partner, token),
    });
    expect(list.status).toBe(200);
  });

  it("answers a request whose body is still arriving when SIGTERM comes", async () => {
    const { partner, start, stored } = await setUp(kind);
    const gateway = await start();
    const token = await loginOver(gateway.url, partner);
    const body = JSON.stringify(order({ purchase_order_no: "PO-IN-FLIGHT" }));
    const { hostname, port } = new URL(gateway.url);
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          hostname,
          port,
          method: "POST",
          path: "/api/v1/sales-orders",
          headers: { ...signedOver(partner, token), "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      // Half the body now, the rest after the signal: the request is in flight throughout.
      req.write(body.slice(0, 40));
      setTimeout(() => {
        gateway.child.kill("SIGTERM");
        setTimeout(() => req.end(body.slice(40)), 300);
      }, 100);
    });
    const response = await answered;
    expect(response.status, response.text).toBe(201);
    expect(await gateway.exited).toBe(0);
    expect(await stored()).toEqual(["PO-IN-FLIGHT"]);
  });

  it("after SIGTERM: /ready says 503 while requests are served, then a kept-alive connection gets 503 problem+json, an in-flight request its answer", async () => {
    const { partner, start, stored } = await setUp(kind, {
      GATEWAY_DRAIN_READY_SECONDS: "2",
      GATEWAY_DRAIN_SECONDS: "5",
    });
    const gateway = await start();
    const token = await loginOver(gateway.url, partner);
    const { hostname, port } = new URL(gateway.url);
    const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const list = () =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>(
        (resolve, reject) => {
          const req = request(
            { hostname, port, path: "/api/v1/sales-orders", agent: keptAlive },
            (res) => {
              let text = "";
              res.on("data", (chunk) => {
                text += chunk;
              });
              res.on("end", () =>
                resolve({ status: res.statusCode ?? 0, headers: res.headers, text }),
              );
            },
          );
          for (const [name, value] of Object.entries(signedOver(partner, token)))
            req.setHeader(name, value);
          req.on("error", reject);
          req.end();
        },
      );
    expect((await list()).status).toBe(200);

    // An order whose body is still arriving, on a second connection. With Expect:
    // 100-continue the gateway says when it has taken the request in (its hooks ran in that
    // turn), so the signal certainly comes while the request is in flight.
    const body = JSON.stringify(order({ purchase_order_no: "PO-DRAIN" }));
    let finish = () => {};
    let accepted = () => {};
    const taken = new Promise<void>((resolve) => {
      accepted = resolve;
    });
    const inFlight = new Promise<number>((resolve, reject) => {
      const req = request(
        {
          hostname,
          port,
          method: "POST",
          path: "/api/v1/sales-orders",
          headers: {
            ...signedOver(partner, token),
            "content-length": Buffer.byteLength(body),
            expect: "100-continue",
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.on("continue", () => {
        req.write(body.slice(0, 40));
        accepted();
      });
      finish = () => req.end(body.slice(40));
    });

    await taken;
    gateway.child.kill("SIGTERM");
    // First the load balancer hears it: /ready answers 503, every other request is served.
    const readyStatus = async () => (await fetch(`${gateway.url}/ready`)).status;
    const phaseDeadline = Date.now() + 5_000;
    while ((await readyStatus()) === 200 && Date.now() < phaseDeadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readyStatus()).toBe(503);
    expect((await list()).status).toBe(200);
    // The kept-alive connection is answered until the signal lands, then refused politely; never
    // reset (list() would reject).
    let answer = await list();
    const deadline = Date.now() + 10_000;
    while (answer.status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await list();
    }
    expect(answer.status, answer.text).toBe(503);
    expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(answer.headers.connection).toBe("close");
    expect(answer.headers["retry-after"]).toBe("1");
    expect(JSON.parse(answer.text)).toMatchObject({ code: "shutting_down", retry_after: 1 });

    finish();
    expect(await inFlight).toBe(201);
    expect(await gateway.exited).toBe(0);
    expect(await stored()).toEqual(["PO-DRAIN"]);
    keptAlive.destroy();
  });

  it("finishes the requests in flight on SIGTERM, then exits cleanly", async () => {
    const { partner, start, stored } = await setUp(kind);
    const gateway = await start();
    const token = await loginOver(gateway.url, partner);
    const run = stream(gateway, () => signedOver(partner, token), 32);
    while (run.acknowledged.length < 100) await new Promise((r) => setTimeout(r, 2));
    gateway.child.kill("SIGTERM");
    await run.done;
    expect(await gateway.exited).toBe(0);
    // Requests in flight got their answer; a request that reached a closing connection gets a
    // 503 (try elsewhere), later ones find no server. Never a 500.
    expect(run.refused.filter((status) => status !== 503)).toEqual([]);
    const rows = new Set(await stored());
    for (const po of run.acknowledged) expect(rows.has(po), po).toBe(true);
  });
});

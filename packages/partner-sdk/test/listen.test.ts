/**
 * `orderline-partner listen --forward-to` end to end, on both stores: the CLI as its own
 * process reads the real gateway's event stream through a proxy the test can cut, and forwards
 * each event to a local receiver that checks it with the verification code published in
 * docs/gateway/api.md ("Verifying a delivery"), unchanged. Cutting the connection mid-stream
 * loses and repeats nothing; Ctrl+C ends the process cleanly.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, createServer as createTcpServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../../gateway/src/gateway.js";
import { createPartner, startGateway } from "../../gateway/test/helpers.js";
import { storeKinds } from "../../gateway/test/support/stores.js";
import {
  createPartnerClient,
  type ForwardResult,
  listen,
  newListenSecret,
  type PartnerClient,
  type SalesOrderInput,
} from "../src/index.js";
import { order, type TestPartner } from "./support/gateway.js";

const BIN = fileURLToPath(new URL("../bin/orderline-partner.js", import.meta.url));
const API_MD = new URL("../../../docs/gateway/api.md", import.meta.url);

type Verify = (header: string, rawBody: Buffer, secret: string) => boolean;

/** The first Node block under "Verifying a delivery" in api.md, loaded as it is written. */
async function documentedVerify(): Promise<Verify> {
  const doc = readFileSync(API_MD, "utf8");
  const section = doc.slice(doc.indexOf("### Verifying a delivery"));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code?.includes("function verify(")) throw new Error("no verify() in api.md");
  const module = `${code}\nexport { verify };`;
  const loaded = await import(`data:text/javascript,${encodeURIComponent(module)}`);
  return loaded.verify as Verify;
}

/** A TCP proxy in front of the gateway whose connections the test can cut at any moment. */
async function cuttableProxy(target: number) {
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(target, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Drops every open connection, mid-stream, as a network failure would. */
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
}

/** The partner's local receiver, verifying with the documented code and the session secret. */
async function verifyingReceiver(verify: Verify) {
  const received: Received[] = [];
  let secret = "";
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const verified = verify(String(req.headers["orderline-signature"]), raw, secret);
      received.push({ headers: req.headers, body: raw.toString("utf8"), verified });
      res.writeHead(verified ? 204 : 400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const close = () => {
    server.closeAllConnections(); // the in-process listen() keeps its forwards' sockets alive
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${port}/hooks/orderline`,
    received,
    useSecret: (s: string) => {
      secret = s;
    },
    close,
    /** Down, as a receiver being restarted: connections to its port are refused. */
    stop: close,
    /** Up again on the same port. */
    start: () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve)),
  };
}

async function until<T>(what: string, check: () => T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(storeKinds)("orderline-partner listen (%s store)", (kind) => {
  let gw: Gateway;
  let partner: TestPartner;
  let client: PartnerClient;
  let proxy: Awaited<ReturnType<typeof cuttableProxy>>;
  let receiver: Awaited<ReturnType<typeof verifyingReceiver>>;
  let dir: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    gw = await startGateway({
      store: kind,
      config: {
        partnerCacheMs: 0,
        events: {
          heartbeatSeconds: 15,
          pollMs: 100,
          maxStreamSeconds: 3600,
          settleMs: 5000,
          recheckMs: 200,
        },
      },
    });
    await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
    partner = await createPartner(gw, undefined, "Listening Retail");
    client = createPartnerClient({
      baseUrl: base,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
      privateKey: partner.keys.privateKey,
    });
    proxy = await cuttableProxy((gw.app.server.address() as AddressInfo).port);
    receiver = await verifyingReceiver(await documentedVerify());
    dir = mkdtempSync(join(tmpdir(), "orderline-listen-"));
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    await proxy?.close();
    await receiver?.close();
    await gw?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("listen() forwards only the --events types; a refusal no retry fixes is thrown", async () => {
    const secret = newListenSecret();
    receiver.useSecret(secret);
    const before = receiver.received.length;
    const stop = new AbortController();
    const forwarded: ForwardResult[] = [];
    const listening = listen(client, {
      forwardTo: receiver.url,
      secret,
      events: ["order.cancelled"],
      signal: stop.signal,
      onForward: (r) => forwarded.push(r),
    });
    await until("the stream", () => gw.streams.open === 1);
    const made = await client.salesOrders.create(
      order({ purchase_order_no: "PO-L-FILTER" }) as unknown as SalesOrderInput,
    );
    await client.salesOrders.cancel(made.id, { reason: "test" });
    await until("the cancellation", () => forwarded.length >= 1);
    stop.abort();
    await listening;
    await until("the stream's end", () => gw.streams.open === 0);
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]?.verified).toBe(true);
    expect(JSON.parse(got[0]?.body ?? "{}")).toMatchObject({
      type: "order.cancelled",
      data: { order: { id: made.id } },
    });
    expect(forwarded[0]).toMatchObject({ type: "order.cancelled", status: 204 });

    await expect(client.events.stream({ lastEventId: "evt_unknown" }).next()).rejects.toMatchObject(
      {
        code: "last_event_id_invalid",
      },
    );
  });

  it("forwards signed events the documented code verifies, survives a cut connection, stops on Ctrl+C", async () => {
    receiver.received.length = 0; // what the earlier test forwarded
    const keyFile = join(dir, "partner.pem");
    writeFileSync(keyFile, partner.keys.privatePem, { mode: 0o600 });
    child = spawn(process.execPath, [BIN, "listen", "--forward-to", receiver.url], {
      env: {
        PATH: process.env.PATH ?? "",
        ORDERLINE_STATE_DIR: join(dir, "state-default"),
        ORDERLINE_BASE_URL: proxy.url,
        ORDERLINE_CLIENT_ID: partner.clientId,
        ORDERLINE_CLIENT_SECRET: partner.clientSecret,
        ORDERLINE_PRIVATE_KEY_FILE: keyFile,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (c) => {
      stdout += c;
    });
    child.stderr?.on("data", (c) => {
      stderr += c;
    });
    const exited = new Promise<number | null>((resolve) => child?.on("exit", resolve));

    const secret = await until(
      "the session secret",
      () => /Signing secret: (whsec_[A-Za-z0-9_-]{43})/.exec(stdout)?.[1],
    );
    receiver.useSecret(secret);
    // The stream is open once the gateway holds it.
    await until("the stream", () => gw.streams.open === 1);

    const created = [];
    for (const n of [1, 2])
      created.push(
        await client.salesOrders.create(
          order({ purchase_order_no: `PO-L-${n}` }) as unknown as SalesOrderInput,
        ),
      );
    await until("two forwards", () => receiver.received.length >= 2);

    proxy.cut(); // mid-stream: the CLI must reconnect and resume after the last event
    for (const n of [3, 4])
      created.push(
        await client.salesOrders.create(
          order({ purchase_order_no: `PO-L-${n}` }) as unknown as SalesOrderInput,
        ),
      );
    await until("four forwards", () => receiver.received.length >= 4);
    await until("the resume notice", () => stderr.includes("Reconnected"));
    await new Promise((r) => setTimeout(r, 500)); // time for a duplicate to show, if any

    expect(receiver.received).toHaveLength(4);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const bodies = receiver.received.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.data.order.id)).toEqual(created.map((o) => o.id));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(4);
    for (const r of receiver.received) {
      const body = JSON.parse(r.body);
      expect(r.headers["orderline-event-id"]).toBe(body.id);
      expect(r.headers["orderline-event-type"]).toBe("order.created");
      expect(r.headers["content-type"]).toBe("application/json");
      expect(stdout).toContain(`order.created  ${body.id}  -> 204`);
    }

    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stdout).toContain("Stopped.");
    expect(stdout).not.toContain(partner.clientSecret);
  }, 60_000);

  it("loses nothing across a receiver restart and its own restart; keeps its secret; resends an event", async () => {
    receiver.received.length = 0;
    const keyFile = join(dir, "partner-2.pem");
    writeFileSync(keyFile, partner.keys.privatePem, { mode: 0o600 });
    const stateFile = join(dir, `listen-state-${kind}.json`);
    const env = {
      PATH: process.env.PATH ?? "",
      ORDERLINE_BASE_URL: proxy.url,
      ORDERLINE_CLIENT_ID: partner.clientId,
      ORDERLINE_CLIENT_SECRET: partner.clientSecret,
      ORDERLINE_PRIVATE_KEY_FILE: keyFile,
    };
    const start = () => {
      const process_ = spawn(
        process.execPath,
        [BIN, "listen", "--forward-to", receiver.url, "--state", stateFile],
        { env, stdio: ["ignore", "pipe", "pipe"] },
      );
      const out = { stdout: "", stderr: "" };
      process_.stdout?.on("data", (c) => {
        out.stdout += c;
      });
      process_.stderr?.on("data", (c) => {
        out.stderr += c;
      });
      const exited = new Promise<number | null>((resolve) => process_.on("exit", resolve));
      return { process: process_, out, exited };
    };
    const secretOf = (out: { stdout: string }) =>
      until(
        "the signing secret",
        () => /Signing secret: (whsec_[A-Za-z0-9_-]{43})/.exec(out.stdout)?.[1],
      );
    const create = async (n: number) =>
      client.salesOrders.create(
        order({ purchase_order_no: `PO-LR-${kind}-${n}` }) as unknown as SalesOrderInput,
      );
    const orderIds = () => receiver.received.map((r) => JSON.parse(r.body).data.order.id as string);

    let first = start();
    child = first.process;
    const secret = await secretOf(first.out);
    receiver.useSecret(secret);
    await until("the stream", () => gw.streams.open === 1);
    const created = [await create(1)];
    await until("the first forward", () => receiver.received.length >= 1);

    // The receiver is down: listen tries again with backoff until it is back.
    await receiver.stop();
    created.push(await create(2));
    await until("a failed forward", () =>
      /-> not delivered \(.*\); again in \d+ s \(attempt 2\)/.test(first.out.stdout),
    );
    await receiver.start();
    await until("the second forward", () => receiver.received.length >= 2, 60_000);
    // listen saves its place just after each forward; a kill in between would forward that one
    // event again on resume (delivery is at least once), so the kill comes once it is saved.
    const secondEvent = JSON.parse(receiver.received[1]?.body ?? "{}").id as string;
    await until("the saved place", () => {
      try {
        return JSON.parse(readFileSync(stateFile, "utf8")).last_event_id === secondEvent;
      } catch {
        return false;
      }
    });

    // listen itself is killed (no chance to save anything on the way out); events meanwhile wait.
    first.process.kill("SIGKILL");
    await first.exited;
    await until("the stream's end", () => gw.streams.open === 0);
    created.push(await create(3), await create(4));
    first = start();
    child = first.process;
    expect(await secretOf(first.out)).toBe(secret); // the receiver needs no new configuration
    await until(
      "the events made while listen was down",
      () => receiver.received.length >= 4,
      60_000,
    );
    await new Promise((r) => setTimeout(r, 500)); // time for a duplicate to show, if any
    expect(first.out.stdout).toContain("Resuming after evt_");
    expect(orderIds()).toEqual(created.map((o) => o.id));
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    first.process.kill("SIGINT");
    expect(await first.exited).toBe(0);

    // events resend: the first event again, to the receiver listen used, signed the same way.
    const firstEvent = JSON.parse(receiver.received[0]?.body ?? "{}").id as string;
    const resend = spawn(
      process.execPath,
      [BIN, "events", "resend", firstEvent, "--state", stateFile],
      { env },
    );
    let resent = "";
    resend.stdout.on("data", (c) => {
      resent += c;
    });
    expect(await new Promise((resolve) => resend.on("exit", resolve))).toBe(0);
    expect(resent).toContain(`${firstEvent}  -> 204`);
    expect(receiver.received).toHaveLength(5);
    expect(receiver.received[4]).toMatchObject({
      verified: true,
      body: receiver.received[0]?.body,
    });
    const unknown = spawn(
      process.execPath,
      [BIN, "events", "resend", "evt_unknown", "--state", stateFile],
      { env },
    );
    let refusal = "";
    unknown.stderr.on("data", (c) => {
      refusal += c;
    });
    expect(await new Promise((resolve) => unknown.on("exit", resolve))).toBe(2);
    expect(refusal).toContain("webhooks resend");
    expect(readFileSync(stateFile, "utf8")).not.toContain(partner.clientSecret);
  }, 180_000);

  it("refuses a --forward-to that is not an http(s) URL, before connecting", async () => {
    const result = spawn(process.execPath, [BIN, "listen", "--forward-to", "ftp://x"], {
      env: { PATH: process.env.PATH ?? "" },
    });
    let err = "";
    result.stderr.on("data", (c) => {
      err += c;
    });
    const code = await new Promise<number | null>((resolve) => result.on("exit", resolve));
    expect(code).toBe(2);
    expect(err).toContain("http or https");
  });
});

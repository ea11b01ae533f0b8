import { createHmac, timingSafeEqual } from "node:crypto";
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/** One delivery as a receiver got it: headers and the raw body bytes, before any parsing. */
export interface Received {
  headers: IncomingHttpHeaders;
  raw: Buffer;
  body: { id: string; type: string; created_at: string; data: Record<string, unknown> };
  at: number;
}

/** What the receiver answers a delivery with; `hold` leaves it unanswered until released. */
export type Answer = number | "hold";

/**
 * A webhook receiver on a real local socket (node:http), recording every delivery, answering
 * what the test tells it, and counting how many deliveries of each event it holds at once.
 */
export class Receiver {
  readonly received: Received[] = [];
  /** The highest number of deliveries of one event in progress at the same time. */
  maxConcurrentPerEvent = 0;
  answer: (delivery: Received) => Answer = () => 204;
  /** How long each answer waits (to widen the window two deliveries could overlap in). */
  delayMs = 0;
  readonly #inProgress = new Map<string, number>();
  readonly #held: ServerResponse[] = [];
  readonly #waiters: { test: () => boolean; resolve: () => void }[] = [];
  #server: Server | undefined;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(port = 0): Promise<this> {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        const raw = Buffer.concat(chunks);
        const delivery: Received = {
          headers: request.headers,
          raw,
          body: JSON.parse(raw.toString("utf8")),
          at: Date.now(),
        };
        const id = delivery.body.id;
        const now = (this.#inProgress.get(id) ?? 0) + 1;
        this.#inProgress.set(id, now);
        this.maxConcurrentPerEvent = Math.max(this.maxConcurrentPerEvent, now);
        const answer = this.answer(delivery);
        const done = () => this.#inProgress.set(id, (this.#inProgress.get(id) ?? 1) - 1);
        response.on("close", done);
        this.received.push(delivery);
        this.#notify();
        if (answer === "hold") {
          this.#held.push(response);
          return;
        }
        setTimeout(() => response.writeHead(answer).end(answer < 300 ? "" : "no"), this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(port, "127.0.0.1", resolve));
    this.port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening (deliveries now fail to connect); held requests are dropped. */
  async stop(): Promise<void> {
    for (const response of this.#held.splice(0)) response.destroy();
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.#server = undefined;
  }

  /** Resolves once `test` holds for what was received (checked on each delivery). */
  until(test: (received: Received[]) => boolean, what = "deliveries"): Promise<void> {
    if (test(this.received)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`receiver: still waiting for ${what}; got ${this.summary()}`)),
        30_000,
      );
      this.#waiters.push({
        test: () => test(this.received),
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  summary(): string {
    return JSON.stringify(this.received.map((r) => `${r.body.type} ${r.body.id}`));
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) {
      if (waiter.test()) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}

/**
 * The verification recipe of docs/gateway/api.md, written out here on its own (not the
 * gateway's signer): parse t and every v1, HMAC-SHA256 over `t.` + the raw body with the
 * secret's UTF-8 bytes, compare in constant time, refuse outside the replay window.
 */
export function verifyDelivery(
  header: string | undefined,
  raw: Buffer,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  if (header === undefined) return false;
  let t: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.split("=", 2);
    if (key === "t" && value !== undefined && /^\d+$/.test(value)) t = Number(value);
    if (key === "v1" && value !== undefined) signatures.push(value);
  }
  if (t === undefined || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(Buffer.concat([Buffer.from(`${t}.`, "utf8"), raw]))
    .digest();
  return signatures.some((s) => {
    const candidate = Buffer.from(s, "hex");
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}

/**
 * A tiny HTTP server between the SDK and the real gateway that records every request and, for
 * the requests a test picks, answers 429/503, forwards and then loses the answer, or cuts the
 * connection: the failures a network and a loaded gateway produce, on demand.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Attempt {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when it arrived. */
  at: number;
}

export type Fault =
  | { kind: "respond"; status: number; headers?: Record<string, string>; body?: unknown }
  /** Forwards to the gateway (which acts on it), then answers `status` instead of its answer. */
  | { kind: "forward-then-respond"; status: number; headers?: Record<string, string> }
  /** Destroys the socket without an answer. */
  | { kind: "destroy" };

const HOP_HEADERS = new Set(["host", "connection", "content-length", "keep-alive"]);

export class FaultProxy {
  readonly attempts: Attempt[] = [];
  /** Consumed in order by requests whose path starts with `faultPath`. */
  faults: Fault[] = [];
  #server: Server;
  url = "";

  /**
   * `now`: the gateway's clock when tests move it (FakeClock), so the Date header the SDK learns
   * the server's time from tells that clock, as a real gateway's would.
   */
  constructor(
    private readonly target: string,
    private readonly now: () => number = Date.now,
    private readonly faultPath = "/api/v1/sales-orders",
  ) {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", async () => {
        const attempt: Attempt = {
          method: req.method ?? "GET",
          url: req.url ?? "/",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          at: Date.now(),
        };
        this.attempts.push(attempt);
        const fault = attempt.url.startsWith(this.faultPath) ? this.faults.shift() : undefined;
        if (fault?.kind === "destroy") {
          req.socket.destroy();
          return;
        }
        if (fault?.kind === "respond") {
          res.writeHead(fault.status, {
            "content-type": "application/problem+json",
            ...fault.headers,
          });
          res.end(JSON.stringify(fault.body ?? { code: `http_${fault.status}` }));
          return;
        }
        const forwarded = await this.#forward(attempt);
        if (fault?.kind === "forward-then-respond") {
          res.writeHead(fault.status, { "content-type": "text/plain", ...fault.headers });
          res.end("lost");
          return;
        }
        res.writeHead(forwarded.status, {
          ...forwarded.headers,
          date: new Date(this.now()).toUTCString(),
        });
        res.end(forwarded.body);
      });
    });
  }

  async #forward(attempt: Attempt) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(attempt.headers)) {
      if (!HOP_HEADERS.has(name) && typeof value === "string") headers[name] = value;
    }
    const response = await fetch(`${this.target}${attempt.url}`, {
      method: attempt.method,
      headers,
      ...(attempt.body === "" ? {} : { body: attempt.body }),
    });
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!HOP_HEADERS.has(name) && name !== "transfer-encoding") out[name] = value;
    });
    return { status: response.status, headers: out, body: await response.text() };
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** The recorded requests to the order endpoints (not login or refresh). */
  orderAttempts(): Attempt[] {
    return this.attempts.filter((a) => a.url.startsWith(this.faultPath));
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/**
 * An HTTP proxy in front of the gateway that passes the event stream through as it comes and
 * cuts the first stream connection right after its first complete event: the dropped
 * connection a client must resume with Last-Event-ID. It records each stream request's
 * Last-Event-ID.
 */
import { createServer, request as forward, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export class CuttingStreamProxy {
  /** Last-Event-ID of each stream connection, in order (null: none sent). */
  readonly lastEventIds: (string | null)[] = [];
  url = "";
  #server: Server;

  constructor(target: string) {
    const upstream = new URL(target);
    this.#server = createServer((req, res) => {
      const isStream = (req.url ?? "").startsWith("/api/v1/events/stream");
      const cutThis = isStream && this.lastEventIds.length === 0;
      if (isStream) {
        const header = req.headers["last-event-id"];
        this.lastEventIds.push(typeof header === "string" ? header : null);
      }
      const out = forward(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          let seen = "";
          answer.on("data", (chunk: Buffer) => {
            if (!cutThis) {
              res.write(chunk);
              return;
            }
            seen += chunk.toString("utf8");
            // Pass on everything up to the end of the first message that carries an id, then cut.
            const match = /(^|\n)id:[^\n]*\n(?:[^\n]+\n)*\n/.exec(seen);
            if (match === null) return;
            answer.destroy();
            // Cut once the event is handed to the socket: destroying at once dropped it unsent.
            res.write(seen.slice(0, match.index + match[0].length), () => res.socket?.destroy());
          });
          answer.on("end", () => res.end());
          answer.on("error", () => res.destroy());
        },
      );
      out.on("error", () => res.destroy());
      // A client gone (or the proxy closed) ends its upstream stream too, or the gateway keeps
      // the stream open and cannot close.
      res.on("close", () => out.destroy());
      req.pipe(out);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

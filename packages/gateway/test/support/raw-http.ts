import { connect } from "node:net";

/** A response read off a raw socket, for requests no HTTP client would send. */
export interface RawResponse {
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: string;
  json(): Record<string, unknown> & { code?: string; errors?: { in: string; pointer: string }[] };
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * Writes `request` (request line, headers and body, bytes exactly as given) to the server at
 * `base` and reads the response until the server closes the connection, so the request must
 * say `Connection: close` (httpMessage does) unless the server closes it anyway.
 */
export function rawRequest(base: string, request: Buffer | string): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    let failure: Error | undefined;
    // A server that refuses a request before reading all of it may reset the connection after
    // its answer: the answer received counts, the reset does not.
    socket.on("error", (error) => {
      failure = error;
    });
    socket.on("close", () => {
      const all = Buffer.concat(chunks);
      const headEnd = all.indexOf("\r\n\r\n");
      if (headEnd < 0) {
        reject(failure ?? new Error(`no HTTP response: ${JSON.stringify(all.toString("latin1"))}`));
        return;
      }
      const [statusLine = "", ...lines] = all.subarray(0, headEnd).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let rawBody: Buffer = all.subarray(headEnd + 4);
      if (headers["transfer-encoding"] === "chunked") rawBody = dechunk(rawBody);
      else if (headers["content-length"] !== undefined)
        rawBody = rawBody.subarray(0, Number(headers["content-length"]));
      const body = rawBody.toString("utf8");
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers,
        body,
        json: () => JSON.parse(body),
      });
    });
    // Silence for 15 s, or 30 s in all (a stream's heartbeats would keep the idle timer from
    // ever firing), ends the wait: a test names the request instead of hanging.
    socket.setTimeout(15_000, () => socket.destroy(new Error("no answer within 15 s")));
    const deadline = setTimeout(
      () => socket.destroy(new Error("not finished within 30 s")),
      30_000,
    );
    socket.on("close", () => clearTimeout(deadline));
    // Not end(): Node's server drops a request whose client half-closes before the answer.
    socket.write(request);
  });
}

/** An HTTP/1.1 request with `Connection: close`, a Host and, with a body, its Content-Length. */
export function httpMessage(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Buffer {
  const bytes = body === undefined ? undefined : Buffer.from(body);
  const lines = [
    `${method} ${path} HTTP/1.1`,
    "Host: localhost",
    "Connection: close",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ...(bytes ? [`Content-Length: ${bytes.length}`] : []),
  ];
  // Header values go out as Latin-1 bytes, so a test can put any byte in them.
  return Buffer.concat([
    Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"),
    bytes ?? Buffer.alloc(0),
  ]);
}

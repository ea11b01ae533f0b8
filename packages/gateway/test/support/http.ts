import { type IncomingHttpHeaders, request } from "node:http";

/** A JSON answer: a token, a problem or data (fields absent when not that kind). */
export interface AnswerBody {
  token?: string;
  expired_at?: number;
  code?: string;
  detail?: string;
  retry_after?: number;
  data?: unknown;
  [field: string]: unknown;
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: AnswerBody;
}

/**
 * One request over a real socket. `from` is the local address the client connects from: any
 * 127.x.y.z works on Linux, so tests can be several source addresses on one machine.
 */
export function httpRequest(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; from?: string } = {},
): Promise<HttpAnswer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      {
        method,
        agent: false,
        ...(options.from ? { localAddress: options.from } : {}),
        headers: {
          ...(payload === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let body: AnswerBody = {};
          try {
            body = text === "" ? {} : (JSON.parse(text) as AnswerBody);
          } catch {
            body = { raw: text };
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        });
        response.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/**
 * `httpRequest`, retried as a well-behaved client retries: a 503 with Retry-After (the store or a
 * worker pool briefly saturated, which a busy test machine causes) is sent again after the time
 * it names (capped at 2 s), up to `attempts` times. Any other answer is returned as it is.
 */
export async function httpRequestRetryingBusy(
  base: string,
  method: string,
  path: string,
  options: Parameters<typeof httpRequest>[3] = {},
  attempts = 4,
): Promise<HttpAnswer> {
  for (let attempt = 1; ; attempt++) {
    const answer = await httpRequest(base, method, path, options);
    const retryAfter = Number(answer.headers["retry-after"]);
    if (answer.status !== 503 || !(retryAfter >= 0) || attempt >= attempts) return answer;
    await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter, 2) * 1000));
  }
}

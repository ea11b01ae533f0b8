import { request } from "node:http";

/** One parsed server-sent event (an id-only message has no type or data). */
interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: unknown;
}

/** An open event stream over a real socket, read message by message. */
export interface SseStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body when the answer was not a stream (a problem). */
  problem: Record<string, unknown> | undefined;
  /** Every message so far, id-only ones included. */
  messages: SseEvent[];
  /** The last `id:` received (what a client sends back as Last-Event-ID). */
  lastId: string | undefined;
  /** Waits for the next message (of `type` when given) after those already taken. */
  next(type?: string, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Resolves with the comment lines seen (heartbeats). */
  comments: string[];
  close(): void;
}

/** Parses complete messages off the front of `buffer`; returns what is left. */
function parseSse(
  buffer: string,
  onMessage: (message: SseEvent) => void,
  onComment: (text: string) => void,
): string {
  let rest = buffer;
  for (let end = rest.indexOf("\n\n"); end >= 0; end = rest.indexOf("\n\n")) {
    const block = rest.slice(0, end);
    rest = rest.slice(end + 2);
    let id: string | undefined;
    let event: string | undefined;
    let data: string | undefined;
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) onComment(line.slice(1).trim());
      else if (line.startsWith("id: ")) id = line.slice(4);
      else if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data = line.slice(6);
    }
    if (id !== undefined || data !== undefined)
      onMessage({ id, event, data: data === undefined ? undefined : JSON.parse(data) });
  }
  return rest;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: "text/event-stream", ...headers } }, (res) => {
      const messages: SseEvent[] = [];
      const comments: string[] = [];
      let taken = 0;
      let buffer = "";
      let waiting: (() => void) | undefined;
      let endedResolve!: () => void;
      const ended = new Promise<void>((r) => {
        endedResolve = r;
      });
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        problem: undefined,
        messages,
        comments,
        lastId: undefined,
        ended,
        close: () => req.destroy(),
        async next(type, timeoutMs = 10_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            while (taken < messages.length) {
              const message = messages[taken++] as SseEvent;
              if (message.event !== undefined && (type === undefined || message.event === type))
                return message;
            }
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`no ${type ?? "event"} within ${timeoutMs} ms`);
            await new Promise<void>((r) => {
              waiting = r;
              setTimeout(r, Math.min(left, 200));
            });
          }
        },
      };
      res.setEncoding("utf8");
      if (!String(res.headers["content-type"]).startsWith("text/event-stream")) {
        let text = "";
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => {
          stream.problem = text ? JSON.parse(text) : undefined;
          endedResolve();
          resolve(stream);
        });
        return;
      }
      res.on("data", (chunk: string) => {
        buffer = parseSse(
          buffer + chunk,
          (message) => {
            if (message.id !== undefined) stream.lastId = message.id;
            messages.push(message);
          },
          (comment) => comments.push(comment),
        );
        waiting?.();
      });
      res.on("end", () => endedResolve());
      res.on("close", () => endedResolve());
      res.on("error", () => endedResolve());
      resolve(stream);
    });
    req.on("error", reject);
    req.end();
  });
}

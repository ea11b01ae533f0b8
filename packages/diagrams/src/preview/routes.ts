import type { IncomingMessage, ServerResponse } from "node:http";
import type { PreviewState } from "./state.js";

/** Pushes one rendered state to a browser listening on /events. */
export function sendState(res: ServerResponse, state: PreviewState): void {
  res.write(`event: render\ndata: ${JSON.stringify(state)}\n\n`);
}

/**
 * The preview's request handler: the page at /, the current state at /state and the stream of
 * states at /events (each listener is added to `listeners` until it disconnects).
 */
export function previewRoutes(
  page: string,
  currentState: () => PreviewState,
  listeners: Set<ServerResponse>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET") {
      res.writeHead(405, { allow: "GET" }).end();
      return;
    }
    if (path === "/") {
      res.writeHead(200, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
      });
      res.end(page);
    } else if (path === "/state") {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify(currentState()));
    } else if (path === "/events") {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      res.write("retry: 500\n\n");
      sendState(res, currentState());
      listeners.add(res);
      req.on("close", () => listeners.delete(res));
    } else {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    }
  };
}

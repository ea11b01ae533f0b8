import { type FSWatcher, watch } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, dirname, resolve } from "node:path";
import { buildPreviewState } from "./build.js";
import { previewPage } from "./page.js";
import { previewRoutes, sendState } from "./routes.js";
import type { PreviewOptions, PreviewState } from "./state.js";

export type { PreviewOptions, PreviewState };

export interface PreviewServer {
  url: string;
  port: number;
  /** The state last rendered. */
  state(): PreviewState;
  close(): Promise<void>;
}

const DEBOUNCE_MS = 40;

/**
 * Calls `onChange` (debounced) whenever `file` is saved. Watches the directory, not the file:
 * editors that save by writing a new file and renaming it over the old one would otherwise end
 * the watch after the first save.
 */
function watchFile(file: string, onChange: () => void): { close(): void } {
  const name = basename(file);
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(dirname(file), (_event, changed) => {
    if (changed !== null && changed !== name) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, DEBOUNCE_MS);
  });
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}

/** Listens on `port` and `host`; resolves to the URL of the page once it does. */
async function listen(
  server: Server,
  port: number,
  host: string,
): Promise<{ url: string; port: number }> {
  await new Promise<void>((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolvePromise();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return { url: `http://${shown}:${address.port}/`, port: address.port };
}

/**
 * A local page that shows the rendered description and re-renders it on every save, pushed to
 * the browser with server-sent events. A save that breaks the description replaces the picture
 * with its problems, so a stale drawing is never mistaken for the current one.
 */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const file = resolve(options.file);
  let version = 0;
  let state: PreviewState;
  const clients = new Set<ServerResponse>();

  const build = () => buildPreviewState(file, options, ++version);
  // Builds run one after another, so a slow build never overwrites a newer one.
  let building = Promise.resolve();
  const refresh = () => {
    building = building.then(async () => {
      state = await build();
      for (const res of clients) sendState(res, state);
    });
  };
  state = await build();
  const watcher = watchFile(file, refresh);

  const server = createServer(previewRoutes(previewPage(options.file), () => state, clients));
  const keepAlive = setInterval(() => {
    for (const res of clients) res.write(": keep-alive\n\n");
  }, 15_000);
  keepAlive.unref();

  const { url, port } = await listen(server, options.port ?? 0, options.host ?? "127.0.0.1");
  return {
    url,
    port,
    state: () => state,
    close: async () => {
      clearInterval(keepAlive);
      watcher.close();
      for (const res of clients) res.end();
      clients.clear();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

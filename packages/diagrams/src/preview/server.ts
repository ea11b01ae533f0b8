import { type FSWatcher, readFileSync, watch } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, dirname, resolve } from "node:path";
import type { VisualPreset } from "../core/model.js";
import { exportDiagram } from "../export/index.js";
import type { TypeName } from "../types/index.js";
import { formatProblems, validateSource } from "../validate/index.js";
import { previewPage } from "./page.js";

/** What the page shows: the drawing, or the problems that stop it being drawn. */
export type PreviewState =
  | { version: number; ok: true; svg: string; title: string; warnings?: string }
  | { version: number; ok: false; problems: string; count: number };

export interface PreviewOptions {
  file: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  preset?: VisualPreset;
  /** Of a type with views: the one shown (default the first). */
  view?: string;
  /** Of a Mermaid flowchart (.mmd): the type it is imported as (default architecture). */
  type?: TypeName;
}

export interface PreviewServer {
  url: string;
  port: number;
  /** The state last rendered. */
  state(): PreviewState;
  close(): Promise<void>;
}

const DEBOUNCE_MS = 40;

/**
 * A local page that shows the rendered description and re-renders it on every save, pushed to
 * the browser with server-sent events. A save that breaks the description replaces the picture
 * with its problems, so a stale drawing is never mistaken for the current one.
 */
export async function startPreview(options: PreviewOptions): Promise<PreviewServer> {
  const file = resolve(options.file);
  const name = basename(file);
  let version = 0;
  let state: PreviewState;
  const clients = new Set<ServerResponse>();

  const build = async (): Promise<PreviewState> => {
    version++;
    let source: string;
    try {
      source = readFileSync(file, "utf8");
    } catch (error) {
      const code = (error as { code?: string }).code;
      return {
        version,
        ok: false,
        problems: `${options.file}: cannot read the file (${code ?? String(error)})`,
        count: 1,
      };
    }
    // A Mermaid file is imported on each save; what it does not carry over is shown beside
    // the picture.
    let warnings: string | undefined;
    if (/\.(mmd|mermaid)$/i.test(file)) {
      const { formatIssues, importToJson } = await import("../mermaid/index.js");
      const imported = await importToJson(source, {
        file: options.file,
        fallbackTitle: name.replace(/\.[^.]+$/, ""),
        ...(options.type ? { type: options.type } : {}),
      });
      const listed = formatIssues(options.file, imported.issues);
      if (!imported.ok) {
        return {
          version,
          ok: false,
          problems: `${listed}${imported.problems}`,
          count: imported.issues.length + (imported.problems ? 1 : 0),
        };
      }
      source = imported.json;
      if (listed) warnings = listed;
    }
    const result = await validateSource(source, { file: options.file });
    if (!result.ok) {
      return {
        version,
        ok: false,
        problems: formatProblems(result.problems, "text"),
        count: result.problems.length,
      };
    }
    let svg: string;
    try {
      svg = (await exportDiagram(result.diagram, "svg", {
        ...(options.preset ? { preset: options.preset } : {}),
        ...(options.view === undefined ? {} : { view: options.view }),
      })) as string;
    } catch (error) {
      // A view the description does not have (any longer): said on the page, like a problem.
      return {
        version,
        ok: false,
        problems: `${options.file}: ${(error as Error).message}`,
        count: 1,
      };
    }
    return {
      version,
      ok: true,
      svg,
      title: result.diagram.meta.title,
      ...(warnings ? { warnings } : {}),
    };
  };
  const send = (res: ServerResponse, s: PreviewState) => {
    res.write(`event: render\ndata: ${JSON.stringify(s)}\n\n`);
  };
  // Builds run one after another, so a slow build never overwrites a newer one.
  let building = Promise.resolve();
  const refresh = () => {
    building = building.then(async () => {
      state = await build();
      for (const res of clients) send(res, state);
    });
  };
  state = await build();

  let timer: NodeJS.Timeout | undefined;
  // Watch the directory, not the file: editors that save by writing a new file and renaming
  // it over the old one would otherwise end the watch after the first save.
  const watcher: FSWatcher = watch(dirname(file), (_event, changed) => {
    if (changed !== null && changed !== name) return;
    clearTimeout(timer);
    timer = setTimeout(refresh, DEBOUNCE_MS);
  });

  const page = previewPage(options.file);
  const server = createServer((req, res) => {
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
      res.end(JSON.stringify(state));
    } else if (path === "/events") {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
      });
      res.write("retry: 500\n\n");
      send(res, state);
      clients.add(res);
      req.on("close", () => clients.delete(res));
    } else {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    }
  });
  const keepAlive = setInterval(() => {
    for (const res of clients) res.write(": keep-alive\n\n");
  }, 15_000);
  keepAlive.unref();

  await new Promise<void>((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolvePromise();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/`,
    port: address.port,
    state: () => state,
    close: async () => {
      clearTimeout(timer);
      clearInterval(keepAlive);
      watcher.close();
      for (const res of clients) res.end();
      clients.clear();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

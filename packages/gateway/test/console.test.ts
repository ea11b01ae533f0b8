import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import { startGateway, tempDir } from "./helpers.js";

/** The built tenant console, served next to the API on the same origin. */
describe("the console at /console/", () => {
  let gw: Gateway;
  let base: string;
  const { dir } = tempDir();

  beforeAll(async () => {
    mkdirSync(join(dir, "assets"));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>Console</title>");
    writeFileSync(join(dir, "assets", "index-abc123.js"), "console.log(1)");
    gw = await startGateway({ config: { consoleDir: dir } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("serves the page revalidated and the hashed assets cached for good, with a strict CSP", async () => {
    const page = await fetch(`${base}/console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(await page.text()).toContain("<title>Console</title>");
    const asset = await fetch(`${base}/console/assets/index-abc123.js`);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
  });

  it("redirects / to the console and answers a missing file with a problem", async () => {
    const root = await fetch(`${base}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/console/");
    const missing = await fetch(`${base}/console/nothing.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const traversal = await fetch(`${base}/console/..%2f..%2fpackage.json`);
    expect(traversal.status).toBeGreaterThanOrEqual(400);
  });

  it("is configured by GATEWAY_CONSOLE_DIR; 'off' serves none", () => {
    expect(loadConfig({ GATEWAY_CONSOLE_DIR: "off" }).consoleDir).toBeUndefined();
    expect(loadConfig({ GATEWAY_CONSOLE_DIR: dir }).consoleDir).toBe(dir);
  });
});

/** One GET over a socket with the Accept-Encoding given; the body as sent (not decoded). */
function rawGet(
  url: string,
  acceptEncoding: string,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "accept-encoding": acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

/** The console build's precompressed copies, served to the clients that accept them. */
describe("the console's compressed assets", () => {
  let gw: Gateway;
  let base: string;
  const { dir } = tempDir();
  const script = "<script>".concat("const words = ['Orders', 'Partners'];\n".repeat(400));
  const files: Record<string, string> = {
    "index.html": `<!doctype html><title>Console</title>${script}`,
    "assets/index-abc123.js": "export const pages = ['orders', 'partners'];\n".repeat(500),
    "assets/index-abc123.css": "body { margin: 0; font-family: system-ui; }\n".repeat(300),
  };

  beforeAll(async () => {
    mkdirSync(join(dir, "assets"));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const compress = fileURLToPath(
      new URL("../../../apps/console/scripts/compress-dist.mjs", import.meta.url),
    );
    execFileSync(process.execPath, [compress, dir]);
    gw = await startGateway({ config: { consoleDir: dir } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const decoders: Record<string, (b: Buffer) => Buffer> = {
    br: brotliDecompressSync,
    gzip: gunzipSync,
  };

  for (const [accept, encoding] of [
    ["br, gzip", "br"],
    ["gzip", "gzip"],
    ["identity", undefined],
  ] as const)
    it(`sends every file ${encoding ?? "uncompressed"} to a client accepting ${accept}`, async () => {
      for (const [name, text] of Object.entries({ "": files["index.html"] as string, ...files })) {
        const { headers, body } = await rawGet(`${base}/console/${name}`, accept);
        expect(headers["content-encoding"], name).toBe(encoding);
        expect(headers.vary, name).toMatch(/accept-encoding/i);
        const decoded =
          encoding === undefined ? body : (decoders[encoding] as (b: Buffer) => Buffer)(body);
        expect(decoded.toString("utf8"), name).toBe(text);
        if (encoding !== undefined) expect(body.length, name).toBeLessThan(text.length / 4);
        expect(headers["cache-control"], name).toBe(
          name.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache",
        );
      }
      expect(readFileSync(join(dir, "index.html"), "utf8")).toBe(files["index.html"]);
    });
});

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
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

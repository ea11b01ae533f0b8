import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { LightMyRequestResponse } from "fastify";
import { type GatewayConfig, loadConfig } from "../src/config/config.js";
import { createGateway, type Gateway } from "../src/gateway.js";
import { createLogger } from "../src/http/logger.js";
import { afterEachFile } from "./support/file-scope.js";
import { fixedRsaKeys, keysOf, type RsaKeys } from "./support/rsa-test-keys.js";
import { freshDatabaseUrl, type StoreKind } from "./support/stores.js";

export type { RsaKeys };

export const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);

/** How often each X-TIMESTAMP was signed since the last fresh store (distinctTimestamp). */
const timestampUses = new Map<string, number>();

// Files that share this module (isolate: false) start as a file of their own would.
afterEachFile(() => {
  timestampUses.clear();
  keysGiven.clear();
});

/** A clock tests move by hand instead of sleeping. */
export class FakeClock {
  constructor(public ms = T0) {}
  now = (): number => this.ms;
  advanceSeconds(seconds: number): void {
    this.ms += seconds * 1000;
  }
  get seconds(): number {
    return Math.floor(this.ms / 1000);
  }
}

/** How many fixed pairs of each size this test file was given (reset after each file). */
const keysGiven = new Map<number, number>();

/**
 * A key pair of `bits` that no earlier call of this test file returned (and not sharedRsaKeys'):
 * a fixed one while the file has not used them all, then a newly generated one.
 */
export function rsaKeys(bits = 2048): RsaKeys {
  const given = keysGiven.get(bits) ?? 0;
  keysGiven.set(bits, given + 1);
  // The first 2048-bit pair is sharedRsaKeys'.
  return (
    fixedRsaKeys(given + (bits === 2048 ? 1 : 0), bits) ??
    keysOf(generateKeyPairSync("rsa", { modulusLength: bits }).privateKey)
  );
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "orderline-gateway-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Collects the gateway's log lines. */
export class LogCapture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    callback();
  }
  get text(): string {
    return this.lines.join("\n");
  }
}

export interface TestGatewayOptions {
  dir?: string;
  /** Which store to run on (default sqlite); a fresh one unless config.databaseUrl is given. */
  store?: StoreKind;
  clock?: FakeClock;
  config?: Partial<GatewayConfig>;
  logs?: LogCapture;
}

export async function startGateway(
  options: TestGatewayOptions = {},
): Promise<Gateway & { dir: string }> {
  const dir = options.dir ?? tempDir().dir;
  // A fresh store has seen no request yet: timestamps start over (distinctTimestamp).
  if (!options.config?.databaseUrl) timestampUses.clear();
  const config = loadConfig(
    { GATEWAY_MASTER_KEY: undefined },
    {
      databaseUrl: await freshDatabaseUrl(options.store ?? "sqlite", dir),
      dataDir: dir,
      logLevel: "info",
      // Closing waits up to the drain while connections are open, and fetch keeps its
      // connection alive: the default 5 s would be spent on every close. The drain has its own
      // tests (durability, rolling-restart, tenant-events), which set it.
      drainSeconds: 0,
      ...options.config,
    },
  );
  const gateway = await createGateway({
    config,
    ...(options.clock ? { now: options.clock.now } : {}),
    logger: createLogger(options.logs ? "debug" : "silent", options.logs),
  });
  await gateway.app.ready();
  return Object.assign(gateway, { dir });
}

export interface TestPartner {
  clientId: string;
  clientSecret: string;
  keys: RsaKeys;
  keyId: string;
}

let sharedKeys: RsaKeys | undefined;
/** One 2048-bit key pair reused across partners (the first fixed one). */
export function sharedRsaKeys(): RsaKeys {
  sharedKeys ??= fixedRsaKeys(0) as RsaKeys;
  return sharedKeys;
}

export async function createPartner(
  gateway: Gateway,
  keys = sharedRsaKeys(),
  name = "Acme Retail",
): Promise<TestPartner> {
  const created = await gateway.partners.create(name, keys.publicPem);
  return {
    clientId: created.clientId,
    clientSecret: created.clientSecret,
    keys,
    keyId: created.keyId as string,
  };
}

export function json(response: LightMyRequestResponse): Record<string, unknown> & {
  code?: string;
  data?: Record<string, unknown>;
} {
  return response.json();
}

export async function login(
  gateway: Gateway,
  partner: { clientId: string; clientSecret: string },
): Promise<string> {
  const response = await gateway.app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    payload: { client_id: partner.clientId, client_secret: partner.clientSecret },
  });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  return response.json().token;
}

export function signatureOf(privateKey: KeyObject, clientId: string, timestamp: string): string {
  return sign("sha256", Buffer.from(`${clientId}|${timestamp}`), privateKey).toString("base64");
}

/**
 * `timestamp` as given the first time; a Unix-seconds timestamp given again comes back in the
 * millisecond form, one millisecond later per use. As the SDK signs, no two requests of a test
 * share an X-TIMESTAMP: two identical requests signed in the same second would otherwise be
 * one request sent twice, which the gateway refuses as a replay (request_replayed).
 */
export function distinctTimestamp(timestamp: string): string {
  const uses = timestampUses.get(timestamp) ?? 0;
  timestampUses.set(timestamp, uses + 1);
  if (uses === 0 || !/^\d{1,11}$/.test(timestamp)) return timestamp;
  return String(Number(timestamp) * 1000 + Math.min(uses, 999));
}

export function signedHeaders(
  partner: TestPartner,
  token: string,
  given: string,
  privateKey: KeyObject = partner.keys.privateKey,
): Record<string, string> {
  const timestamp = distinctTimestamp(given);
  return {
    authorization: `Bearer ${token}`,
    "x-client-id": partner.clientId,
    "x-timestamp": timestamp,
    "x-signature": signatureOf(privateKey, partner.clientId, timestamp),
  };
}

export function order(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    customer_code: "CUST-001",
    site_code: "SITE-01",
    sales_name: "Dana Sales",
    address: "1 Harbour Road, Springfield",
    purchase_order_no: null,
    products: [
      { product_code: "SKU-1", quantity: 3, uom: "EA", unit_price: 12.5 },
      { product_code: "SKU-2", quantity: 1.5, notes: "fragile" },
    ],
    ...overrides,
  };
}

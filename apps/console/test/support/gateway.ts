import { type KeyObject, sign } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createGateway,
  createLogger,
  type Gateway,
  type GatewayConfig,
  loadConfig,
} from "@orderline/gateway";
import {
  fixedRsaKeys,
  type RsaKeys,
} from "../../../../packages/gateway/test/support/rsa-test-keys.js";

export const PASSWORD = "correct horse battery staple";
const CONSOLE_DIR = fileURLToPath(new URL("../../dist", import.meta.url));

/**
 * Test RSA key pair number `n` (1 is the test gateway's partner's; tests that add partners use
 * 2, 3 …): the gateway tests' fixed pairs, since generating one costs ~150 ms of CPU.
 */
export const testKeyPair = (n: number): RsaKeys => {
  const keys = fixedRsaKeys(n);
  if (keys === undefined) throw new Error(`no fixed test key ${n}`);
  return keys;
};

export interface TestGateway {
  gw: Gateway;
  base: string;
  tenantId: string;
  admin: string;
  member: string;
  partner: { clientId: string; clientSecret: string; privateKey: KeyObject };
  close(): Promise<void>;
}

/**
 * The real gateway on a free port with a fresh SQLite store and the built console, a tenant
 * with an admin and a member, and a partner of that tenant with its own RSA key.
 */
export async function startTestGateway(
  config: Partial<GatewayConfig> = {},
  languages = ["en", "id", "de"],
  /** Shifts the gateway's clock, e.g. to let tokens expire without waiting 12 hours. */
  clock: { offsetMs: number } = { offsetMs: 0 },
): Promise<TestGateway> {
  const dir = mkdtempSync(join(tmpdir(), "orderline-console-"));
  const gw = await createGateway({
    config: loadConfig(
      // The SQLite store's listing reads run at nice 10 (GATEWAY_LIST_NICE) so that, in
      // production, they yield to the threads serving HTTP. Here they would yield to the test's
      // own Chromium and the other test files too: on a loaded machine the first listing after a
      // sign-in (its reader thread starting) waited for CPU long enough to be refused (503
      // list_busy after 2 s, or the reader's 10 s timeout) and the page never showed its orders.
      // Normal priority here; the gateway's own tests cover the nice value.
      { GATEWAY_LIST_NICE: "0" },
      {
        databaseUrl: `sqlite:${join(dir, "gateway.db")}`,
        dataDir: dir,
        consoleDir: CONSOLE_DIR,
        // Cheap password hashing: the default cost takes ~0.4 s a hash.
        users: { audience: "orderline-tenant-api", languages, scryptCost: 1024 },
        // No drain on close: a browser keeps its connections open, so the default would hold
        // every close for its full 5 s. The gateway's own tests cover the drain.
        drainSeconds: 0,
        ...config,
      },
    ),
    logger: createLogger("silent"),
    now: () => Date.now() + clock.offsetMs,
  });
  const base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const tenant = await gw.tenants.create("Acme Trading");
  const tenantId = tenant.tenant_id;
  const admin = "admin@acme.example";
  const member = "member@acme.example";
  await gw.users.create({ tenantId, email: admin, role: "admin", password: PASSWORD });
  await gw.users.create({ tenantId, email: member, role: "member", password: PASSWORD });
  const { publicPem, privateKey } = testKeyPair(1);
  const created = await gw.partners.create("Harbour Retail", publicPem);
  const record = await gw.store.findPartnerByClientId(created.clientId);
  if (!record) throw new Error("partner missing");
  await gw.store.tenants.setPartnerTenant(record.id, tenantId);
  return {
    gw,
    base,
    tenantId,
    admin,
    member,
    partner: { clientId: created.clientId, clientSecret: created.clientSecret, privateKey },
    async close() {
      await gw.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A tenant user's bearer token (POST /v1/auth/login), as an API client holds one. */
export async function bearerToken(base: string, email: string): Promise<string> {
  const login = await fetch(`${base}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`user login: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { token: string }).token;
}

/** Creates orders as the partner would: log in, sign `client_id|timestamp`, POST. */
export async function createOrders(
  base: string,
  partner: { clientId: string; clientSecret: string; privateKey: KeyObject },
  count: number,
  /** purchase_order_no of the first; the others get `-2`, `-3` … after it. */
  firstPurchaseOrderNo?: string,
  /** Fields that replace the default order's, per order (1-based). */
  vary: (i: number) => Record<string, unknown> = () => ({}),
): Promise<{ order_number: string; id: string }[]> {
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_id: partner.clientId, client_secret: partner.clientSecret }),
  });
  if (login.status !== 200) throw new Error(`partner login: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  const orders: { order_number: string; id: string }[] = [];
  for (let i = 1; i <= count; i++) {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(
      "sha256",
      Buffer.from(`${partner.clientId}|${timestamp}`),
      partner.privateKey,
    ).toString("base64");
    const response = await fetch(`${base}/api/v1/sales-orders`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${token}`,
        "x-client-id": partner.clientId,
        "x-timestamp": timestamp,
        "x-signature": signature,
      },
      body: JSON.stringify({
        customer_code: `CUST-${String(i).padStart(3, "0")}`,
        site_code: "SITE-01",
        sales_name: "Dana Sales",
        address: "1 Harbour Road\nSpringfield",
        purchase_order_no:
          firstPurchaseOrderNo === undefined
            ? `PO-${i}`
            : `${firstPurchaseOrderNo}${i > 1 ? `-${i}` : ""}`,
        products: [
          { product_code: "WIDGET-1", quantity: 12, uom: "EA", unit_price: 4.5 },
          { product_code: "BOLT-7", quantity: 2.5, uom: "KG", notes: "Zinc plated" },
        ],
        ...vary(i),
      }),
    });
    if (response.status !== 201) {
      throw new Error(`create order: ${response.status} ${await response.text()}`);
    }
    orders.push(((await response.json()) as { data: { order_number: string; id: string } }).data);
  }
  return orders;
}

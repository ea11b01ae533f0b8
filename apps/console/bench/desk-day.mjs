// Daily-work figures of the orders desk (docs/benchmarks.md, "Console"): how many orders a
// 1366×850 screen shows whole, and how long finding an order by the number its partner quotes
// takes (typing SO-… into the search, Enter, until the order's page shows), in Chromium against
// the real gateway with 2,000 orders from 3 partners. Run: npm run build -w @orderline/console,
// then node apps/console/bench/desk-day.mjs. Prints a table.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGateway, createLogger, loadConfig } from "@orderline/gateway";
import { chromium } from "playwright-core";
import { findChromium } from "../../../scripts/test-chromium.mjs";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const ORDERS = 2_000;
const FINDS = 9;
const PASSWORD = "correct horse battery staple";

const dir = mkdtempSync(join(tmpdir(), "orderline-desk-bench-"));
const gw = await createGateway({
  config: loadConfig(
    { GATEWAY_LIST_NICE: "0" },
    {
      databaseUrl: `sqlite:${join(dir, "gateway.db")}`,
      dataDir: dir,
      consoleDir: DIST,
      users: { audience: "orderline-tenant-api", languages: ["en", "id", "de"], scryptCost: 1024 },
      drainSeconds: 0,
    },
  ),
  logger: createLogger(process.env.BENCH_LOG ?? "silent"),
});
const base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
const tenant = await gw.tenants.create("Acme Trading");
await gw.users.create({
  tenantId: tenant.tenant_id,
  email: "desk@acme.example",
  role: "member",
  password: PASSWORD,
});
const partners = [];
for (const name of [
  "Harbour Retail",
  "Pemasok Bahan Bangunan Nusantara Sejahtera Abadi Jaya Makmur Sentosa PT",
  "Mills & Sons GmbH",
]) {
  const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const created = await gw.partners.create(name, publicKey.export({ type: "spki", format: "pem" }));
  const record = await gw.store.findPartnerByClientId(created.clientId);
  await gw.store.tenants.setPartnerTenant(record.id, tenant.tenant_id);
  partners.push(record.id);
}
const start = Date.now() - ORDERS * 60_000;
for (let i = 0; i < ORDERS; i++) {
  await gw.store.createOrder({
    id: randomUUID(),
    partnerId: partners[i < 1000 ? 0 : i < 1600 ? 1 : 2],
    purchaseOrderNo: `PO-${i}`,
    currency: ["IDR", "EUR", "USD"][i % 3],
    customerCode: `CUST-${i % 97}`,
    siteCode: "SITE-01",
    salesName: "Dana",
    address: "1 Harbour Road",
    products: [{ product_code: `RICE-${i % 13}`, quantity: 2, uom: "BAG", unit_price: 360000.5 }],
    status: ["received", "accepted", "fulfilled"][i % 3],
    createdAt: start + i * 60_000,
  });
}

const browser = await chromium.launch({ executablePath: findChromium(), args: ["--no-sandbox"] });
const times = [];
let rowsOnScreen = 0;
try {
  const context = await browser.newContext({ viewport: { width: 1366, height: 850 } });
  const page = await context.newPage();
  await page.goto(`${base}/console/`);
  await page.getByLabel("Email").fill("desk@acme.example");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.keyboard.press("Enter");
  await page
    .locator("table.orders-table tbody tr")
    .nth(19)
    .waitFor()
    .catch(async (error) => {
      await page.screenshot({ path: join(tmpdir(), "desk-bench.png") });
      throw error;
    });
  rowsOnScreen = await page.evaluate(
    () =>
      [...document.querySelectorAll("table.orders-table tbody tr")].filter((row) => {
        const box = row.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }).length,
  );
  for (let i = 0; i < FINDS; i++) {
    // A number only the first partner has (it sent 1,000, the others 600 and 400).
    const number = "SO-00000800";
    await page.goto(`${base}/console/#/orders`);
    await page.getByRole("heading", { level: 1, name: "Orders" }).waitFor();
    await page.getByLabel("Search").fill(number);
    const began = performance.now();
    await page.getByLabel("Search").press("Enter");
    await page
      .getByRole("heading", { level: 1, name: new RegExp(`^Order ${number} \\(`) })
      .waitFor();
    times.push(performance.now() - began);
  }
  await context.close();
} finally {
  await browser.close();
  await gw.close();
  rmSync(dir, { recursive: true, force: true });
}
const sorted = [...times].sort((a, b) => a - b);
console.log(`Orders whole on a 1366×850 screen (of 20 listed) | ${rowsOnScreen}`);
console.log(
  `Find an order by number (Enter → its page), median of ${FINDS} | ${sorted[Math.floor(FINDS / 2)].toFixed(0)} ms`,
);
console.log(`Find by number, min / max | ${sorted[0].toFixed(0)} / ${sorted.at(-1).toFixed(0)} ms`);

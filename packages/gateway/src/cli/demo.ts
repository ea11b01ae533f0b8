import { generateKeyPairSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { PartnerAdmin } from "../domain/partners/admin.js";
import type { TenantAdmin } from "../domain/tenants/admin.js";
import type { UserAdmin } from "../domain/users/accounts.js";
import type { VocabularyService } from "../domain/vocabulary/service.js";
import type { Store } from "../store/store.js";

interface DemoCredentials {
  client_id: string;
  client_secret: string;
  base_url: string;
}

const SAMPLE_ORDER = {
  customer_code: "CUST-001",
  site_code: "SITE-01",
  sales_name: "Demo Sales",
  address: "1 Demo Street, Springfield",
  purchase_order_no: null,
  products: [{ product_code: "SKU-1001", quantity: 2, uom: "EA", unit_price: 9.5 }],
};

function nodeScript(): string {
  return `// Logs in as the demo partner and creates one signed sales order (Node 20+, no dependencies).
// Run: node ${"<this file>"}   (GATEWAY_URL overrides the gateway address)
import { sign } from "node:crypto";
import { readFileSync } from "node:fs";

const here = new URL(".", import.meta.url);
const { client_id, client_secret, base_url } = JSON.parse(readFileSync(new URL("credentials.json", here), "utf8"));
const baseUrl = process.env.GATEWAY_URL ?? base_url;
const privateKey = readFileSync(new URL("private.pem", here), "utf8");

const login = await fetch(\`\${baseUrl}/api/v1/auth/login\`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ client_id, client_secret }),
});
const session = await login.json();
if (!login.ok) throw new Error(\`login failed: \${JSON.stringify(session)}\`);

const timestamp = String(Date.now()); // milliseconds: two orders in one second are not a replay
const signature = sign("sha256", Buffer.from(\`\${client_id}|\${timestamp}\`), privateKey).toString("base64");
const order = ${JSON.stringify(SAMPLE_ORDER, null, 2).replace(/\n/g, "\n")};
const response = await fetch(\`\${baseUrl}/api/v1/sales-orders\`, {
  method: "POST",
  headers: {
    "content-type": "application/json",
    authorization: \`Bearer \${session.token}\`,
    "x-client-id": client_id,
    "x-timestamp": timestamp,
    "x-signature": signature,
  },
  body: JSON.stringify(order),
});
console.log(response.status, JSON.stringify(await response.json(), null, 2));
if (!response.ok) process.exitCode = 1;
`;
}

function shellScript(c: DemoCredentials): string {
  return `#!/bin/sh
# Logs in as the demo partner and creates one signed sales order with curl and openssl.
# Run: sh <this file>   (GATEWAY_URL overrides the gateway address)
set -eu
cd "$(dirname "$0")"
GATEWAY_URL="\${GATEWAY_URL:-${c.base_url}}"
CLIENT_ID='${c.client_id}'
CLIENT_SECRET='${c.client_secret}'

TOKEN=$(curl -sS -X POST "$GATEWAY_URL/api/v1/auth/login" \\
  -H 'Content-Type: application/json' \\
  -d "{\\"client_id\\":\\"$CLIENT_ID\\",\\"client_secret\\":\\"$CLIENT_SECRET\\"}" \\
  | sed -n 's/.*"token":"\\([^"]*\\)".*/\\1/p')
[ -n "$TOKEN" ] || { echo "login failed" >&2; exit 1; }

TIMESTAMP=$(date +%s)
SIGNATURE=$(printf '%s' "$CLIENT_ID|$TIMESTAMP" | openssl dgst -sha256 -sign private.pem | openssl base64 -A)

curl -sS -X POST "$GATEWAY_URL/api/v1/sales-orders" \\
  -H 'Content-Type: application/json' \\
  -H "Authorization: Bearer $TOKEN" \\
  -H "X-CLIENT-ID: $CLIENT_ID" \\
  -H "X-TIMESTAMP: $TIMESTAMP" \\
  -H "X-SIGNATURE: $SIGNATURE" \\
  -d '${JSON.stringify(SAMPLE_ORDER)}'
echo
`;
}

/**
 * For \`serve --demo\`: when the store has no partner yet, creates a demo partner with a fresh RSA
 * key pair and writes, under <dataDir>/demo/, the private key, the credentials and two scripts
 * that log in and create an order. Returns the text to print, or undefined when there is no demo.
 */
interface DemoServices {
  store: Store;
  partners: PartnerAdmin;
  tenants: TenantAdmin;
  users: UserAdmin;
  vocabulary: VocabularyService;
}

export const DEMO_ADMIN_EMAIL = "admin@demo-tenant.example";

/**
 * When the store has no tenant yet: a demo tenant with an admin user (a generated password,
 * printed once and stored only as its scrypt hash) and a sample vocabulary override. Returns the
 * tenant id and the lines to print, or undefined when tenants exist already.
 */
async function ensureDemoTenant(
  services: DemoServices,
  baseUrl: string,
): Promise<{ tenantId: string; text: string[] } | undefined> {
  if ((await services.tenants.list()).length > 0) return undefined;
  const tenant = await services.tenants.create("Demo Tenant");
  const password = randomBytes(18).toString("base64url");
  await services.users.create({
    tenantId: tenant.tenant_id,
    email: DEMO_ADMIN_EMAIL,
    role: "admin",
    password,
  });
  await services.vocabulary.replace(
    tenant.tenant_id,
    "common",
    "en",
    { app: { name: "Demo Orders" } },
    null,
  );
  return {
    tenantId: tenant.tenant_id,
    text: [
      `Demo tenant ready: ${tenant.tenant_id}, admin ${DEMO_ADMIN_EMAIL}`,
      `  password: ${password}   (shown only now; the store keeps a hash)`,
      `  curl -s ${baseUrl}/v1/auth/login -H 'Content-Type: application/json' \\`,
      `    -d '{"email":"${DEMO_ADMIN_EMAIL}","password":"${password}"}'`,
      "  then GET /v1/tenant/i18n-config and /v1/orders with 'Authorization: Bearer <token>'",
    ],
  };
}

export async function ensureDemo(
  services: DemoServices,
  dataDir: string,
  baseUrl: string,
  cwd: string,
): Promise<string | undefined> {
  const { store, partners } = services;
  const demoTenant = await ensureDemoTenant(services, baseUrl);
  const dir = join(dataDir, "demo");
  const credentialsFile = join(dir, "credentials.json");
  let credentials: DemoCredentials;
  if ((await store.countPartners()) === 0) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { publicKey, privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    const created = await partners.create(
      "Demo Partner",
      publicKey,
      demoTenant ? { tenantId: demoTenant.tenantId } : {},
    );
    credentials = {
      client_id: created.clientId,
      client_secret: created.clientSecret,
      base_url: baseUrl,
    };
    writeFileSync(join(dir, "private.pem"), privateKey, { mode: 0o600 });
    writeFileSync(join(dir, "public.pem"), publicKey);
  } else if (existsSync(credentialsFile)) {
    credentials = {
      ...(JSON.parse(readFileSync(credentialsFile, "utf8")) as DemoCredentials),
      base_url: baseUrl,
    };
  } else {
    return demoTenant ? ["", ...demoTenant.text, ""].join("\n") : undefined;
  }
  writeFileSync(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  writeFileSync(join(dir, "create-order.sh"), shellScript(credentials), { mode: 0o700 });
  writeFileSync(join(dir, "create-order.mjs"), nodeScript(), { mode: 0o600 });
  chmodSync(credentialsFile, 0o600);
  const shown = relative(cwd, dir) || ".";
  return [
    "",
    `Demo partner ready: client_id ${credentials.client_id} (key pair and credentials in ${shown}/)`,
    "Log in and create a signed sales order:",
    `  sh ${shown}/create-order.sh        # curl + openssl`,
    `  node ${shown}/create-order.mjs     # Node, no dependencies`,
    `API docs: ${baseUrl}/docs`,
    ...(demoTenant ? demoTenant.text : []),
    "",
  ].join("\n");
}

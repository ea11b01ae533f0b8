import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { createGateway } from "../src/gateway.js";
import { createLogger } from "../src/http/logger.js";
import { createPartner, login, startGateway, tempDir } from "./helpers.js";
import { freshDatabaseUrl, type StoreKind, storeKinds } from "./support/stores.js";

const TABLES = ["partners", "signing_keys", "partner_keys", "token_refreshes"];

/** Every row of the tables that hold credentials, as the database stores them. */
async function dump(kind: StoreKind, url: string): Promise<string> {
  let rows: unknown[];
  if (kind === "sqlite") {
    const db = new Database(url.slice("sqlite:".length), { readonly: true });
    rows = TABLES.flatMap((table) => db.prepare(`SELECT * FROM ${table}`).all());
    db.close();
  } else {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    rows = [];
    for (const table of TABLES) rows.push(...(await client.query(`SELECT * FROM ${table}`)).rows);
    await client.end();
  }
  return rows.map((row) => JSON.stringify(row)).join("\n");
}

describe.each(storeKinds)("secrets at rest (%s store)", (kind) => {
  const { dir, cleanup } = tempDir();
  afterAll(() => cleanup());
  let url: string;

  it("stores neither client secrets nor signing keys in clear, and keeps master.key private", async () => {
    url = await freshDatabaseUrl(kind, dir);
    const gw = await startGateway({ dir, config: { databaseUrl: url } });
    const partner = await createPartner(gw);
    // With a grace period, so the previous secret is stored (hashed) too.
    const { clientSecret: rotated } = await gw.partners.rotateSecret(partner.clientId);
    await login(gw, { clientId: partner.clientId, clientSecret: rotated });
    await gw.close();

    const text = await dump(kind, url);
    expect(text).toContain(partner.clientId);
    expect(text).not.toContain(partner.clientSecret);
    expect(text).not.toContain(rotated);
    // The rotated-out secret, kept for its grace period, is stored as a keyed hash too.
    expect(text).toMatch(/"previous_secret_hash":"hmac-sha256:[A-Za-z0-9_-]{43}"/);
    expect(text).not.toContain("PRIVATE KEY");
    expect(text).not.toMatch(/"d":"/); // no private JWK member either
    expect(statSync(join(dir, "master.key")).mode & 0o077).toBe(0);
    expect(readFileSync(join(dir, "master.key"), "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses to start with a different master key, saying so", async () => {
    const config = loadConfig(
      { GATEWAY_MASTER_KEY: "ab".repeat(32) },
      { databaseUrl: url, dataDir: dir },
    );
    await expect(createGateway({ config, logger: createLogger("silent") })).rejects.toThrow(
      /Cannot decrypt JWT signing key .*master key/,
    );
  });
});

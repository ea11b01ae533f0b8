/**
 * After restoring an older backup, order numbers already handed out would be issued again: the
 * store's count per partner went back with it. `orders number-floor --at N` moves every count
 * past N. A real SQLite backup and restore shows the problem and the fix; both stores, with the
 * gateway running, show the floor never lowers a count and can target one partner.
 */
import { copyFileSync, rmSync } from "node:fs";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { sqlitePathOf } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import {
  createPartner,
  LogCapture,
  order,
  rsaKeys,
  signedHeaders,
  startGateway,
  type TestPartner,
  tempDir,
} from "./helpers.js";
import { runCaptured } from "./support/processes.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function numberOf(gw: Gateway, partner: TestPartner): Promise<string> {
  const login = await gw.app.inject({
    method: "POST",
    url: "/api/v1/auth/login",
    payload: { client_id: partner.clientId, client_secret: partner.clientSecret },
  });
  const created = await gw.app.inject({
    method: "POST",
    url: "/api/v1/sales-orders",
    headers: signedHeaders(partner, login.json().token, String(Math.floor(Date.now() / 1000))),
    payload: order(),
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().data.order_number;
}

/** The admin CLI in this process, against the gateway's store and master key. */
async function floorCli(gw: Gateway & { dir: string }, args: string[]) {
  const result = await runCaptured(["orders", "number-floor", ...args, "--json"], {
    env: { DATABASE_URL: gw.config.databaseUrl, GATEWAY_DATA_DIR: gw.dir },
    cwd: gw.dir,
  });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe("order numbers after restoring an older SQLite backup", () => {
  it("repeat without a floor, and continue above it with one", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const url = await freshDatabaseUrl("sqlite", dir);
    const file = sqlitePathOf(url);
    const logs = new LogCapture();
    let gw = await startGateway({ dir, config: { databaseUrl: url }, logs });
    const partner = await createPartner(gw, rsaKeys(), "Acme");
    expect(await numberOf(gw, partner)).toBe("SO-00000001");
    const live = new Database(file);
    await live.backup(`${dir}/backup.db`);
    live.close();
    expect(await numberOf(gw, partner)).toBe("SO-00000002");
    expect(await numberOf(gw, partner)).toBe("SO-00000003");
    await gw.close();

    // The restore, as docs/deploy.md describes it.
    for (const suffix of ["-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
    copyFileSync(`${dir}/backup.db`, file);
    gw = await startGateway({ dir, config: { databaseUrl: url } });
    cleanups.push(() => gw.close());
    // SO-00000002 was handed out before the restore, and is issued again…
    expect(await numberOf(gw, partner)).toBe("SO-00000002");
    // …unless the operator sets the floor to the highest number handed out, which the
    // gateway's log lines say (docs/deploy.md, "After a restore").
    const logged = logs.lines
      .map(
        (line) => JSON.parse(line) as { event?: string; order_number?: string; client_id?: string },
      )
      .filter((line) => line.event === "order_created" && line.client_id === partner.clientId)
      .map((line) => Number(line.order_number?.replace(/^SO-/, "")));
    expect(logged).toEqual([1, 2, 3]);
    const highest = String(Math.max(...logged));
    expect(await floorCli(gw, ["--at", highest])).toEqual({ floor: 3, partners_raised: 1 });
    expect(await numberOf(gw, partner)).toBe("SO-00000004");
  });
});

describe.each(storeKinds)("orders number-floor (%s store)", (kind) => {
  it("never lowers a count, and can move one partner only, while the gateway runs", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const gw = await startGateway({
      dir,
      config: { databaseUrl: await freshDatabaseUrl(kind, dir) },
    });
    cleanups.push(() => gw.close());
    const acme = await createPartner(gw, rsaKeys(), "Acme");
    const globex = await createPartner(gw, rsaKeys(), "Globex");
    expect(await numberOf(gw, acme)).toBe("SO-00000001");
    expect(await floorCli(gw, ["--at", "10", "--partner", acme.clientId])).toEqual({
      floor: 10,
      partners_raised: 1,
    });
    expect(await numberOf(gw, acme)).toBe("SO-00000011");
    expect(await numberOf(gw, globex)).toBe("SO-00000001");
    expect(await floorCli(gw, ["--at", "5"])).toEqual({ floor: 5, partners_raised: 1 });
    expect(await numberOf(gw, acme)).toBe("SO-00000012");
    expect(await numberOf(gw, globex)).toBe("SO-00000006");
  });
});

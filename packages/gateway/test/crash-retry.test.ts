/**
 * An instance killed (SIGKILL) mid-load behind the HAProxy configuration docs/deploy.md ships
 * loses no order and acknowledges none it did not store. HAProxy sends a request whose
 * connection died without an answer to the other instance, byte for byte: the request may
 * have committed its order before the kill, or not. Every order a partner sends is counted:
 * each 201 has its order stored, each `409 request_replayed` too (the replay guard's nonce
 * commits only with its order), and every order stored was acknowledged or is found by
 * retrying with its key (or named by the duplicate refusal of its purchase_order_no).
 */

import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { order, rsaKeys, tempDir } from "./helpers.js";
import {
  documentedHaproxyConfig,
  freePort,
  haveHaproxy,
  pointedAt,
  startHaproxy,
} from "./support/haproxy.js";
import {
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  type ProcessPartner,
  type RunningGateway,
  signedOver,
  startProcess,
} from "./support/processes.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";

const onPostgres = storeKinds.includes("postgres");

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One order a partner sent, and what it was answered (status 0: no answer). */
interface Sent {
  po: string;
  keyed: boolean;
  status: number;
  replay?: boolean;
  code?: string;
  id?: string;
}

interface Answer {
  status: number;
  /** Idempotent-Replayed: HAProxy sent it again after its first copy committed. */
  replay?: boolean;
  code?: string;
  id?: string;
  existingId?: string;
}

async function create(
  lb: string,
  partner: ProcessPartner,
  token: string,
  po: string,
  keyed: boolean,
): Promise<Answer> {
  try {
    const response = await fetch(`${lb}/api/v1/sales-orders`, {
      method: "POST",
      headers: { ...signedOver(partner, token), ...(keyed ? { "idempotency-key": po } : {}) },
      body: JSON.stringify(order({ purchase_order_no: po })),
    });
    const body = (await response.json().catch(() => ({}))) as {
      code?: string;
      data?: { id: string };
      existing_order?: { id: string };
    };
    return {
      status: response.status,
      ...(response.headers.get("idempotent-replayed") === "true" ? { replay: true } : {}),
      ...(body.code ? { code: body.code } : {}),
      ...(body.data ? { id: body.data.id } : {}),
      ...(body.existing_order ? { existingId: body.existing_order.id } : {}),
    };
  } catch {
    return { status: 0 };
  }
}

/** The orders stored, by purchase_order_no. */
async function storedOrders(databaseUrl: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; purchase_order_no: string }>(
      "SELECT id, purchase_order_no FROM sales_orders",
    );
    return new Map(rows.map((r) => [r.purchase_order_no, r.id]));
  } finally {
    await client.end();
  }
}

describe.runIf(onPostgres && (haveHaproxy || process.env.CI))(
  "an instance killed mid-load behind HAProxy",
  () => {
    it("loses no order: every 201 and every 409 request_replayed has its order, every order stored is found", async () => {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      const env: ProcessEnv = {
        databaseUrl: await freshDatabaseUrl("postgres", dir),
        dataDir: dir,
      };
      const ports = [await freePort(), await freePort()];
      const lbPort = await freePort();
      const instances: RunningGateway[] = [];
      for (const port of ports) instances.push(await startProcess(env, port));
      cleanups.push(() => {
        for (const gw of instances) gw.child.kill("SIGKILL");
      });
      await startHaproxy(
        pointedAt(documentedHaproxyConfig(), lbPort, ports),
        dir,
        lbPort,
        cleanups,
      );
      const lb = `http://127.0.0.1:${lbPort}`;
      const partner = await createPartnerWithCli(env, rsaKeys());
      const token = await loginOver(lb, partner);

      // Half the orders carry an Idempotency-Key (an SDK's), half do not (a plain HTTP client).
      const sent: Sent[] = [];
      let running = true;
      let next = 0;
      const worker = async () => {
        while (running) {
          const n = next++;
          const po = `PO-CRASH-${n}`;
          const keyed = n % 2 === 0;
          sent.push({ po, keyed, ...(await create(lb, partner, token, po, keyed)) });
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      // Under way on both instances first, so the kill finds requests in flight on the victim.
      while (sent.length < 100) await sleep(50);
      const killedAfter = sent.length;
      (instances[0] as RunningGateway).child.kill("SIGKILL");
      await (instances[0] as RunningGateway).exited;
      // Past HAProxy's fall (2 checks a second apart): it has stopped sending to the dead one.
      await sleep(3000);
      running = false;
      await Promise.all(workers);

      const stored = await storedOrders(env.databaseUrl);
      const acknowledged = sent.filter((s) => s.status === 201);
      const replayed = sent.filter((s) => s.status === 409 && s.code === "request_replayed");
      const unanswered = sent.filter((s) => !acknowledged.includes(s) && !replayed.includes(s));
      console.log(
        `crash-retry: ${sent.length} creates (${killedAfter} before the kill), ${acknowledged.length} × 201 (${acknowledged.filter((s) => s.replay).length} replayed), ` +
          `${replayed.length} × 409 request_replayed, ${unanswered.length} other (${unanswered.map((s) => s.code ?? s.status).join(",")}), ${stored.size} stored`,
      );
      expect(acknowledged.length).toBeGreaterThan(killedAfter);

      // Every 201 is an order stored, the one it named.
      const ackLost = acknowledged.filter((s) => stored.get(s.po) !== s.id);
      expect(ackLost, "acknowledged but not stored").toEqual([]);
      // Every refusal as a replay names a request whose order exists: 0 lost.
      const replayLost = replayed.filter((s) => !stored.has(s.po));
      expect(replayLost, "refused as replays, never created").toEqual([]);

      // Whatever else came back is settled by the partner's retry, signed afresh: with its key
      // the stored order's first answer; without, the refusal of its purchase_order_no names it.
      const settled = new Map<string, string>();
      for (const s of unanswered) {
        const retry = await create(lb, partner, token, s.po, s.keyed);
        const id = retry.status === 201 ? retry.id : retry.existingId;
        const expected = s.keyed ? [201] : [201, 409];
        expect(expected, `${s.po} retried: ${JSON.stringify(retry)}`).toContain(retry.status);
        if (stored.has(s.po)) expect(id, `${s.po} retried`).toBe(stored.get(s.po));
        if (id) settled.set(s.po, id);
      }
      // Every order stored was asked for and is accounted for; none twice (each PO once).
      const accounted = new Set([...acknowledged, ...replayed].map((s) => s.po));
      const unaccounted = [...stored.keys()].filter((po) => !accounted.has(po) && !settled.has(po));
      expect(unaccounted, "stored but neither acknowledged nor found").toEqual([]);
      expect(stored.size).toBeLessThanOrEqual(sent.length);
    }, 120_000);
  },
);

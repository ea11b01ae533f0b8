/**
 * The victim of an abuse test: a tenant of its own with a partner that keeps creating signed
 * orders over a real socket while an attacker works on the same gateway. The abuse tests assert
 * what this partner sees (every order created, its latency), not only that the attacker was
 * refused (docs/deploy.md, "Shares").
 */
import type { KeyObject } from "node:crypto";
import type { Gateway } from "../../src/gateway.js";
import { distinctTimestamp, order, signatureOf } from "../helpers.js";
import { httpRequest } from "./http.js";
import { createTenant, tenantPartner } from "./tenants.js";

interface VictimReport {
  /** Orders sent while the attack ran (at least `minOrders`). */
  sent: number;
  created: number;
  /** Status and code of each order that was not created. */
  failures: string[];
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** The p50 of the orders sent alone just before the attack began: this machine's pace now. */
  aloneP50Ms: number;
}

/**
 * How many times its pace alone a victim's p50 may grow before it counts as starved. The
 * starvations these tests guard against multiplied it by 80 to 115 (10 ms to 806–1,152 ms); a
 * machine whose cores other work keeps busy moved it by up to 11 with no attack taking shares.
 */
const STARVED_FACTOR = 25;
/** Orders sent alone before the attack, for `aloneP50Ms`. */
const ALONE_ORDERS = 8;

/**
 * The p50 a victim must stay under: `floorMs`, or 25 times its own pace alone measured just
 * before, whichever is more. On a quiet machine the floor decides; on one whose cores other
 * work keeps busy, every request is slower, attack or not, and only a starvation (the attack
 * taking the victim's share) passes 25 times the victim's pace.
 */
export const starvedAbove = (report: VictimReport, floorMs: number): number =>
  Math.max(floorMs, STARVED_FACTOR * report.aloneP50Ms);

interface VictimPartner {
  clientId: string;
  clientSecret: string;
  privateKey: KeyObject;
}

export interface Victim {
  tenantId: string;
  partner: VictimPartner;
  token: string;
  /** One signed create; its status and how long it took. */
  createOrder(): Promise<{ status: number; code?: string; ms: number }>;
  /**
   * Creates a few orders alone (the pace to compare with), then orders one after another,
   * `pauseMs` apart, until `attack` settles (and at least `minOrders` of them), and reports how
   * they went. The attack's own result is returned too.
   */
  during<T>(
    attack: () => Promise<T>,
    options?: { minOrders?: number; pauseMs?: number },
  ): Promise<{ report: VictimReport; attack: T }>;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);

/** A new tenant with its own partner on `gw`, logged in over `base` (the listening gateway). */
export async function startVictim(
  gw: Gateway,
  base: string,
  name = "Victim Foods",
): Promise<Victim> {
  const tenant = await createTenant(gw, name);
  const partner = await tenantPartner(gw, tenant.id, `${name} Partner`);
  return victimOver(base, tenant.id, {
    clientId: partner.clientId,
    clientSecret: partner.clientSecret,
    privateKey: partner.keys.privateKey,
  });
}

/** The victim as a partner that already exists (e.g. made with the admin CLI for a process). */
export async function victimOver(
  base: string,
  tenantId: string,
  partner: VictimPartner,
): Promise<Victim> {
  const login = await httpRequest(base, "POST", "/api/v1/auth/login", {
    body: { client_id: partner.clientId, client_secret: partner.clientSecret },
  });
  if (login.status !== 200) throw new Error(`victim login failed: ${JSON.stringify(login.body)}`);
  const token = login.body.token as string;
  let serial = 0;

  const createOrder = async () => {
    serial += 1;
    const started = performance.now();
    const timestamp = distinctTimestamp(String(Math.floor(Date.now() / 1000)));
    const answer = await httpRequest(base, "POST", "/api/v1/sales-orders", {
      headers: {
        authorization: `Bearer ${token}`,
        "x-client-id": partner.clientId,
        "x-timestamp": timestamp,
        "x-signature": signatureOf(partner.privateKey, partner.clientId, timestamp),
      },
      body: order({ purchase_order_no: `VICTIM-${Date.now()}-${serial}` }),
    });
    const ms = performance.now() - started;
    return { status: answer.status, ms, ...(answer.body.code ? { code: answer.body.code } : {}) };
  };

  const during = async <T>(
    attack: () => Promise<T>,
    { minOrders = 20, pauseMs = 25 }: { minOrders?: number; pauseMs?: number } = {},
  ) => {
    const alone: number[] = [];
    for (let i = 0; i < ALONE_ORDERS; i++) alone.push((await createOrder()).ms);
    let settled = false;
    const attacking = attack().finally(() => {
      settled = true;
    });
    const times: number[] = [];
    const failures: string[] = [];
    let sent = 0;
    while (!settled || sent < minOrders) {
      const result = await createOrder();
      sent += 1;
      times.push(result.ms);
      if (result.status !== 201) failures.push(`${result.status} ${result.code ?? ""}`.trim());
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    const sorted = [...times].sort((a, b) => a - b);
    const report: VictimReport = {
      sent,
      created: sent - failures.length,
      failures,
      p50Ms: percentile(sorted, 50),
      p95Ms: percentile(sorted, 95),
      maxMs: sorted.at(-1) ?? 0,
      aloneP50Ms: percentile(
        alone.sort((a, b) => a - b),
        50,
      ),
    };
    return { report, attack: await attacking };
  };

  return { tenantId, partner, token, createOrder, during };
}

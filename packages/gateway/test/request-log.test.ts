import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import {
  boundedDetails,
  MAX_DETAILS_JSON,
  type RefusedRequest,
  RequestLog,
} from "../src/domain/partners/request-log.js";
import { purgeExpired, REQUEST_LOG_RETENTION_MS } from "../src/store/purge.js";
import type { Store } from "../src/store/store.js";
import { tempDir } from "./helpers.js";
import { freshStore, storeKinds } from "./support/stores.js";

const refusal = (clientId: string, n = 0): RefusedRequest => ({
  clientId,
  method: "POST",
  path: "/api/v1/sales-orders",
  status: 401,
  code: "signature_invalid",
  requestId: `req-${n}`,
  details: { detail: "X-SIGNATURE does not verify", string_to_sign: `${clientId}|${n}` },
});

class Warnings {
  readonly lines: object[] = [];
  warn(object: object) {
    this.lines.push(object);
  }
}

const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => {});
});

describe.each(storeKinds)("request log store and writer (%s store)", (kind) => {
  async function open(): Promise<Store> {
    const store = await freshStore(kind, tempDir().dir);
    stores.push(store);
    return store;
  }

  it("keeps each partner's newest entries up to the cap, and lists only that partner's", async () => {
    const store = await open();
    let now = 1_800_000_000_000;
    const log = new RequestLog(store.requestLog, () => now, new Warnings(), {
      perPartner: 3,
      maxQueue: 100,
      flushMs: 10_000,
    });
    for (let n = 0; n < 5; n++) {
      now += 1000;
      log.record(refusal("olc_alpha", n));
    }
    log.record(refusal("olc_beta", 9));
    await log.flush();
    const alpha = await log.list("olc_alpha", 50);
    expect(alpha.map((e) => e.request_id)).toEqual(["req-4", "req-3", "req-2"]);
    expect(alpha[0]).toMatchObject({
      status: 401,
      code: "signature_invalid",
      detail: "X-SIGNATURE does not verify",
      expected: { string_to_sign: "olc_alpha|4" },
    });
    expect((await log.list("olc_beta", 50)).map((e) => e.request_id)).toEqual(["req-9"]);
    expect(await log.list("olc_gamma", 50)).toEqual([]);
  });

  it("forgets entries after 7 days: listing and the retention purge", async () => {
    const store = await open();
    let now = 1_800_000_000_000;
    const log = new RequestLog(store.requestLog, () => now, new Warnings());
    log.record(refusal("olc_alpha", 1));
    await log.flush();
    now += REQUEST_LOG_RETENTION_MS + 1;
    expect(await log.list("olc_alpha", 50)).toEqual([]);
    const report = await purgeExpired(store, loadConfig({}).retention, now);
    expect(report.partner_request_log).toBe(1);
  });

  it("survives a store outage: recording never throws, the batch is dropped with a warning", async () => {
    const store = await open();
    const warnings = new Warnings();
    const log = new RequestLog(store.requestLog, Date.now, warnings);
    await store.close();
    expect(() => log.record(refusal("olc_alpha"))).not.toThrow();
    await expect(log.flush()).resolves.toBeUndefined();
    expect(log.dropped).toBe(1);
    expect(warnings.lines).toEqual([
      expect.objectContaining({ event: "request_log_write_failed", entries: 1 }),
    ]);
  });
});

describe("request log bounds", () => {
  it("caps a row: long details lose validation errors, then hints, then the string is cut", () => {
    const long = "x".repeat(10_000);
    const json = boundedDetails({
      detail: long,
      string_to_sign: long,
      hints: [{ code: "trailing_newline", detail: long }],
      errors: [{ pointer: "/a", message: long }],
    }) as string;
    expect(json.length).toBeLessThanOrEqual(MAX_DETAILS_JSON);
    const parsed = JSON.parse(json);
    expect(parsed.errors).toBeUndefined();
    expect(parsed.hints).toBeUndefined();
    expect(parsed.string_to_sign.length).toBeLessThan(long.length);
    expect(parsed.detail.length).toBeLessThan(1000);
  });

  it("drops refusals beyond the queue bound instead of growing", () => {
    const log = new RequestLog(
      { append: async () => {}, list: async () => [] },
      Date.now,
      new Warnings(),
      { perPartner: 10, maxQueue: 2, flushMs: 10_000 },
    );
    for (let n = 0; n < 5; n++) log.record(refusal("olc_alpha", n));
    expect(log.dropped).toBe(3);
  });
});

/**
 * The vocabulary shares hold whichever route writes (a namespace's PUT, one key's PUT): keys and
 * bytes of a namespace, namespaces of a tenant; a word may not nest another ($t(…)); and one
 * tenant's reads of the tenant API are bounded (tenant_reads). Over real sockets on both stores,
 * each beside a victim tenant whose orders and reads must go on as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { startGateway } from "./helpers.js";
import { type HttpAnswer, httpRequest, httpRequestRetryingBusy } from "./support/http.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, type TestTenant, userToken } from "./support/tenants.js";
import { startVictim, starvedAbove, type Victim } from "./support/victim.js";

/** What the victim's order p50 must stay under; generous for a loaded CI machine (target 100 ms). */
const VICTIM_P50_BOUND_MS = 400;

describe.each(storeKinds)("vocabulary and read shares over HTTP (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let attacker: TestTenant;
  let admin: string;
  let victim: Victim;
  let victimTenant: TestTenant;

  beforeAll(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    attacker = await createTenant(gw, "Mallory Words");
    admin = await userToken(gw, attacker.admin.email);
    victimTenant = await createTenant(gw, "Victor Foods");
    victim = await startVictim(gw, base, "Victor Orders");
  });
  afterAll(async () => {
    await gw.close();
  });

  const as =
    (token: string) =>
    (method: string, path: string, body?: unknown): Promise<HttpAnswer> =>
      httpRequest(base, method, path, {
        headers: { authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { body }),
      });
  // Writes are retried on a 503 with Retry-After, as a client does: a busy machine may briefly
  // saturate the store; what these tests check is which share refuses, and when.
  const write = (path: string, body: unknown): Promise<HttpAnswer> =>
    httpRequestRetryingBusy(base, "PUT", path, {
      headers: { authorization: `Bearer ${admin}` },
      body,
    });
  const setWord = (ns: string, key: string, text: string, language = "en") =>
    write(`/v1/tenant/i18n-config/${ns}/keys/${key}`, { language, text });
  const putAll = (ns: string, overrides: unknown, language = "en") =>
    write(`/v1/tenant/i18n-config/${ns}`, { language, overrides });
  const overridesOf = async (ns: string, language = "en") =>
    (
      (await as(admin)("GET", `/v1/tenant/i18n-config/${ns}?language=${language}`)).body.data as {
        overrides: Record<string, unknown>;
      }
    ).overrides;

  // The key count is the service's, over the tree read from the store: a namespace PUT of 1,900
  // keys, then one-key PUTs up to and past the bound (the literal 2,001 one-key PUTs exercise
  // the same check and took two minutes of the suite on a busy machine).
  it("one-key PUTs up to the 2,001st key: that one is refused naming the key share; no route writes past it", async () => {
    const first = 1901;
    if (first > 1) {
      const start = Object.fromEntries(
        Array.from({ length: first - 1 }, (_, i) => [`k${i + 1}`, `word ${i + 1}`]),
      );
      expect((await putAll("flood", start)).status).toBe(200);
    }
    const { report, attack } = await victim.during(async () => {
      const answers: HttpAnswer[] = [];
      for (let i = first; i <= 2001; i++)
        answers.push(await setWord("flood", `k${i}`, `word ${i}`));
      return answers;
    });
    const refusedAt = attack.findIndex((a) => a.status !== 200);
    expect(refusedAt, JSON.stringify(attack[refusedAt]?.body)).toBe(2001 - first);
    const refused = attack[2001 - first] as HttpAnswer;
    expect(refused.status).toBe(400);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({
      code: "overrides_invalid",
      share: "vocabulary_keys",
      limit: 2000,
    });
    expect(refused.body.detail).toMatch(/'flood' would have 2001 keys in en; at most 2000/);
    expect(Object.keys(await overridesOf("flood"))).toHaveLength(2000);

    // The namespace's PUT merges nothing, but a tree past the share is refused there too, and
    // changing a word (no new key) or removing one still works at the bound.
    const past = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`n${i}`, "x"]));
    expect((await putAll("flood", past)).body).toMatchObject({ share: "vocabulary_keys" });
    expect((await setWord("flood", "k7", "seven")).status).toBe(200);
    const removed = await as(admin)("DELETE", "/v1/tenant/i18n-config/flood/keys/k1?language=en");
    expect(removed.status).toBe(200);
    expect((await setWord("flood", "k2001", "now fits")).status).toBe(200);
    expect((await setWord("flood", "k2002", "one too many")).status).toBe(400);

    console.log(`victim orders during 2,001 one-key PUTs (${kind}):`, report);
    expect(report.failures).toEqual([]);
    expect(report.p50Ms).toBeLessThan(starvedAbove(report, VICTIM_P50_BOUND_MS));
  }, 240_000);

  it("bounds a namespace's bytes per language, whichever route adds them", async () => {
    const long = "x".repeat(4000);
    const big = Object.fromEntries(Array.from({ length: 70 }, (_, i) => [`w${i}`, long]));
    const refused = await putAll("bytes", big);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: "overrides_invalid",
      share: "vocabulary_bytes",
      limit: 262_144,
    });
    expect(refused.body.detail).toMatch(/'bytes' would take \d+ bytes in en; at most 262144/);
    expect(await overridesOf("bytes")).toEqual({});

    const fits = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`w${i}`, long]));
    expect((await putAll("bytes", fits)).status).toBe(200);
    const grown = await setWord("bytes", "one.more", long);
    expect(grown.body).toMatchObject({ code: "overrides_invalid", share: "vocabulary_bytes" });
    // Another language of the namespace has its own bytes.
    expect((await setWord("bytes", "one.more", long, "de")).status).toBe(200);
  });

  it("bounds the namespaces of a tenant; another tenant's are its own; clearing one makes room", async () => {
    // The namespaces the earlier tests made count too: fill up to the share of 50.
    const existing = ["flood", "bytes"];
    for (let i = existing.length; i < 50; i++)
      expect((await setWord(`ns${i}`, "title", "T")).status, `namespace ${i}`).toBe(200);
    const refused = await setWord("ns50", "title", "T");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: "overrides_invalid",
      share: "vocabulary_namespaces",
      share_level: "tenant",
      limit: 50,
    });
    expect(refused.body.detail).toMatch(/50 namespaces, its share \(at most 50\)/);
    expect((await putAll("ns50", { title: "T" })).body).toMatchObject({
      share: "vocabulary_namespaces",
    });
    // A namespace the tenant already has takes new words and languages.
    expect((await setWord("ns2", "subtitle", "S", "fr")).status).toBe(200);

    const victimAdmin = await userToken(gw, victimTenant.admin.email);
    const victimPut = await as(victimAdmin)("PUT", "/v1/tenant/i18n-config/ns50/keys/title", {
      language: "en",
      text: "Victor's",
    });
    expect(victimPut.status).toBe(200);

    expect((await putAll("ns3", {})).status).toBe(200);
    expect((await setWord("ns50", "title", "T")).status).toBe(200);
  }, 120_000);

  it("refuses a word that nests another ($t(…)), by either route, storing nothing", async () => {
    const nest: Record<string, string> = {};
    for (let level = 1; level <= 5; level++)
      nest[`l${level}`] = level === 5 ? "x".repeat(100) : `$t(l${level + 1}) `.repeat(10);
    const whole = await putAll("nested", nest);
    expect(whole.status).toBe(400);
    expect(whole.body.code).toBe("placeholder_unknown");
    expect(
      (whole.body.errors as { pointer: string; message: string }[]).map((e) => e.pointer),
    ).toEqual(["/overrides/l1", "/overrides/l2", "/overrides/l3", "/overrides/l4"]);
    expect(whole.body.detail).toMatch(/\$t\(…\), another key's text, which a word may not nest/);

    // ns2 is a namespace the tenant has: the namespace share is not what refuses these.
    const one = await setWord("ns2", "nav.orders", "Orders $t(ns2:nav.orders)");
    expect(one.status).toBe(400);
    expect(one.body).toMatchObject({ code: "placeholder_unknown" });
    expect(await overridesOf("nested")).toEqual({});
    // A dollar sign on its own is still a word.
    expect((await setWord("ns2", "nav.orders", "Orders ($t)")).status).toBe(200);
  });

  it("one user's read flood is refused with 429 (tenant_reads) while the victim tenant reads on", async () => {
    const member = await userToken(gw, attacker.member.email);
    const reader = await userToken(gw, victimTenant.member.email);
    const read = (token: string) => as(token)("GET", "/v1/tenant/i18n-config/flood");
    const victimReads: number[] = [];
    const { report, attack } = await victim.during(async () => {
      const answers: HttpAnswer[] = [];
      // Eight at a time, as four browser tabs reading in parallel would.
      for (let i = 0; i < 660; i += 8) {
        answers.push(...(await Promise.all(Array.from({ length: 8 }, () => read(member)))));
        if (i % 80 === 0) victimReads.push((await read(reader)).status);
      }
      return answers;
    });
    const ok = attack.filter((a) => a.status === 200).length;
    const limited = attack.filter((a) => a.status === 429);
    expect(ok).toBe(600);
    expect(limited.length).toBe(attack.length - 600);
    expect(limited[0]?.body).toMatchObject({
      code: "rate_limited",
      share: "tenant_reads",
      share_level: "party",
    });
    expect(Number(limited[0]?.headers["retry-after"])).toBeGreaterThan(0);
    // The victim tenant's user, and another user of the same tenant, read on.
    expect(victimReads.every((s) => s === 200)).toBe(true);
    expect((await read(reader)).status).toBe(200);
    expect((await read(admin)).status).toBe(200);
    console.log(`victim orders during a read flood (${kind}):`, report);
    expect(report.failures).toEqual([]);
    expect(report.p50Ms).toBeLessThan(starvedAbove(report, VICTIM_P50_BOUND_MS));
  }, 120_000);
});

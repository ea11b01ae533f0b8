/**
 * A rotated signing key is in the JWKS of every instance for at least the JWKS cache time before
 * any instance signs a token with it: two built gateway processes on one store, a rotation by
 * the admin CLI while partners log in on both, and every JWKS both serve watched throughout.
 */
import { decodeProtectedHeader } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { rsaKeys, tempDir } from "./helpers.js";
import {
  cli,
  createPartnerWithCli,
  loginOver,
  type ProcessEnv,
  type RunningGateway,
  startProcess,
} from "./support/processes.js";
import { freshDatabaseUrl } from "./support/stores.js";

const MAX_AGE_SECONDS = 2;

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("signing key publication across instances", () => {
  it("signs no token with a kid that every instance has not published for the JWKS cache time", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const env: ProcessEnv = {
      databaseUrl: await freshDatabaseUrl("sqlite", dir),
      dataDir: dir,
      extra: { GATEWAY_JWKS_MAX_AGE_SECONDS: String(MAX_AGE_SECONDS) },
    };
    const a = await startProcess(env);
    const b = await startProcess(env);
    const instances: RunningGateway[] = [a, b];
    for (const gw of instances) cleanups.push(() => gw.child.kill("SIGKILL"));
    const partner = await createPartnerWithCli(env, rsaKeys());

    // When each instance's JWKS was first seen listing each kid (the response's arrival: never
    // earlier than the real publication).
    const firstSeen = instances.map(() => new Map<string, number>());
    let watching = true;
    const watch = async (i: number) => {
      while (watching) {
        const response = await fetch(`${instances[i]?.url}/.well-known/jwks.json`);
        expect(response.headers.get("cache-control")).toBe(`public, max-age=${MAX_AGE_SECONDS}`);
        const { keys } = (await response.json()) as { keys: { kid: string }[] };
        const at = Date.now();
        for (const { kid } of keys) if (!firstSeen[i]?.has(kid)) firstSeen[i]?.set(kid, at);
        await sleep(50);
      }
    };
    const watchers = [watch(0), watch(1)];
    await sleep(300);
    const startKids = new Set(firstSeen.flatMap((seen) => [...seen.keys()]));

    // Tokens from both instances: the kid and a time no later than the token's issue.
    const tokens: { kid: string; issuedNoLaterThan: number; instance: number }[] = [];
    let rotatedKid: string | undefined;
    let rotation = "";
    const started = Date.now();
    for (let n = 0; Date.now() - started < 20_000; n++) {
      const instance = n % 2;
      const sentAt = Date.now();
      const token = await loginOver(instances[instance]?.url ?? "", partner);
      tokens.push({
        kid: String(decodeProtectedHeader(token).kid),
        issuedNoLaterThan: sentAt,
        instance,
      });
      if (n === 4) {
        rotation = await cli(env, ["signing-keys", "rotate", "--json"]);
        rotatedKid = JSON.parse(rotation).kid;
      }
      const onBoth = new Set(tokens.filter((t) => t.kid === rotatedKid).map((t) => t.instance));
      if (onBoth.size === 2) break;
      await sleep(100);
    }
    watching = false;
    await Promise.all(watchers);

    expect(JSON.parse(rotation).signs_from).toMatch(/^\d{4}-\d\d-\d\dT/);
    const signedWithNew = tokens.filter((t) => t.kid === rotatedKid);
    expect(new Set(signedWithNew.map((t) => t.instance))).toEqual(new Set([0, 1]));
    for (const token of tokens) {
      for (const seen of firstSeen) {
        const published = seen.get(token.kid);
        expect(published, `kid ${token.kid} never in a JWKS`).toBeDefined();
        // A kid new during the test was listed by this instance a whole cache time before.
        const lead = startKids.has(token.kid) ? 0 : MAX_AGE_SECONDS * 1000;
        expect(token.issuedNoLaterThan - (published ?? Infinity)).toBeGreaterThanOrEqual(lead);
      }
    }
  }, 60_000);
});

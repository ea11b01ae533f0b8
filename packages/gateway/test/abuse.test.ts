/**
 * The abuse suite: hostile partners, tenant admins and members against a real `serve` process,
 * on both stores, with tracing on and off, each beside a victim tenant whose partner keeps
 * creating orders. What is asserted is what the victim sees (every order created, in bounded
 * time) and that the process lives, not only that the attacker was refused. The budgets are
 * set small so that each share is reached in a few requests (docs/deploy.md, "Shares"); each
 * feature's own tests (streams, webhooks, vocabulary, team, sign-in) cover its details.
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { order, rsaKeys, signatureOf, tempDir } from "./helpers.js";
import { httpRequest } from "./support/http.js";
import {
  cli,
  type ProcessEnv,
  type ProcessPartner,
  type RunningGateway,
  startProcess,
} from "./support/processes.js";
import { openSse } from "./support/sse.js";
import { freshDatabaseUrl, type StoreKind, storeKinds } from "./support/stores.js";
import { starvedAbove, type Victim, victimOver } from "./support/victim.js";

const PASSWORD = "correct horse battery staple";

/** Budgets small enough to reach in a few requests; generous elsewhere. */
const SHARES = {
  GATEWAY_EVENTS_MAX_STREAMS: "8",
  GATEWAY_EVENTS_MAX_STREAMS_PER_TENANT: "4",
  GATEWAY_EVENTS_MAX_STREAMS_PER_CLIENT: "2",
  GATEWAY_EVENTS_MAX_REPLAY: "20",
  GATEWAY_SHARE_STREAM_OPENS_PER_PARTY: "30",
  GATEWAY_SHARE_TEST_SENDS_PER_PARTNER: "6",
  GATEWAY_SHARE_TEST_SENDS_PER_ENDPOINT: "4",
  GATEWAY_SHARE_REFUSALS_PER_PARTY: "20",
  GATEWAY_SHARE_PARTNERS_PER_TENANT: "3",
  GATEWAY_SHARE_VOCABULARY_KEYS: "15",
  GATEWAY_WEBHOOK_ALLOW_PRIVATE: "loopback",
  GATEWAY_SCRYPT_COST: "1024",
};

/** How slow the victim may get before this suite calls it starved: far above a busy machine's. */
const VICTIM_P50_BOUND_MS = 1000;

/** An OTLP/HTTP receiver that takes whatever the gateway exports (tracing on). */
async function otlpSink(): Promise<{ url: string; posts: () => number; close(): void }> {
  let posts = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      posts += 1;
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts: () => posts,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

interface Setup {
  gateway: RunningGateway;
  env: ProcessEnv;
  victim: Victim;
  attacker: ProcessPartner;
  attackerToken: string;
  attackerAdmin: string;
  attackerMember: string;
  victimMember: string;
  attackerTenant: string;
  close(): Promise<void>;
}

async function signIn(base: string, email: string): Promise<string> {
  const answer = await httpRequest(base, "POST", "/v1/auth/login", {
    body: { email, password: PASSWORD },
  });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(answer.body)}`);
  return answer.body.token as string;
}

async function tenantWithUsers(env: ProcessEnv, name: string) {
  const tenant = JSON.parse(await cli(env, ["tenants", "create", "--name", name, "--json"]));
  const slug = name.toLowerCase().replace(/\W+/g, "-");
  for (const role of ["admin", "member"])
    await cli(
      env,
      [
        ...["users", "create", "--tenant", tenant.tenant_id, "--email", `${role}@${slug}.example`],
        ...["--role", role, "--json"],
      ],
      PASSWORD,
    );
  return {
    id: tenant.tenant_id as string,
    admin: `admin@${slug}.example`,
    member: `member@${slug}.example`,
  };
}

async function setUp(kind: StoreKind, tracing: boolean): Promise<Setup> {
  const { dir, cleanup } = tempDir();
  const sink = tracing ? await otlpSink() : undefined;
  const env: ProcessEnv = {
    databaseUrl: await freshDatabaseUrl(kind, dir),
    dataDir: dir,
    extra: {
      ...SHARES,
      ...(sink
        ? {
            OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
            OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
            OTEL_BSP_SCHEDULE_DELAY: "200",
            OTEL_METRICS_EXPORTER: "none",
            OTEL_LOGS_EXPORTER: "none",
          }
        : { OTEL_TRACES_EXPORTER: "none" }),
    },
  };
  await cli(env, ["migrate"]);
  const attackerTenant = await tenantWithUsers(env, "Hostile Goods");
  const victimTenant = await tenantWithUsers(env, "Victim Foods");
  const attacker = await partnerIn(env, attackerTenant.id, "Hostile Partner");
  const victimPartner = await partnerIn(env, victimTenant.id, "Victim Partner");
  const gateway = await startProcess(env);
  const victim = await victimOver(gateway.url, victimTenant.id, victimPartner);
  const login = await httpRequest(gateway.url, "POST", "/api/v1/auth/login", {
    body: { client_id: attacker.clientId, client_secret: attacker.clientSecret },
  });
  return {
    gateway,
    env,
    victim,
    attacker,
    attackerToken: login.body.token as string,
    attackerAdmin: attackerTenant.admin,
    attackerMember: attackerTenant.member,
    victimMember: victimTenant.member,
    attackerTenant: attackerTenant.id,
    async close() {
      gateway.child.kill("SIGTERM");
      await gateway.exited;
      sink?.close();
      cleanup();
    },
  };
}

/** A partner of `tenantId`, made by the admin CLI with a key pair of its own. */
async function partnerIn(env: ProcessEnv, tenantId: string, name: string): Promise<ProcessPartner> {
  const keys = rsaKeys();
  const file = join(env.dataDir, `${name.replace(/\W/g, "_")}.pem`);
  writeFileSync(file, keys.publicPem);
  const created = JSON.parse(
    await cli(env, [
      ...["partners", "create", "--name", name, "--public-key", file],
      ...["--tenant", tenantId, "--json"],
    ]),
  );
  return {
    clientId: created.client_id,
    clientSecret: created.client_secret,
    keyId: created.key_id,
    privateKey: keys.privateKey,
  };
}

/** A key the attacker never registered: what it signs does not verify. */
const WRONG_KEY = rsaKeys().privateKey;

/** Signed headers with a signature that does not verify (a partner with a broken signer). */
function badlySigned(s: Setup): Record<string, string> {
  const timestamp = String(Date.now());
  return {
    authorization: `Bearer ${s.attackerToken}`,
    "x-client-id": s.attacker.clientId,
    "x-timestamp": timestamp,
    "x-signature": signatureOf(WRONG_KEY, s.attacker.clientId, timestamp),
  };
}

const COMBOS = storeKinds.flatMap((kind) => [
  [kind, false],
  [kind, true],
]) as [StoreKind, boolean][];

describe.each(COMBOS)("abuse beside a victim tenant (%s, tracing %s)", (kind, tracing) => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp(kind, tracing);
  }, 120_000);
  afterAll(async () => s?.close());

  const alive = async () => {
    const health = await httpRequest(s.gateway.url, "GET", "/health");
    expect(health.status).toBe(200);
  };

  it("event streams opened and dropped over and over leave the process up", async () => {
    const member = await signIn(s.gateway.url, s.attackerMember);
    const { report } = await s.victim.during(async () => {
      for (let i = 0; i < 12; i++) {
        const stream = await openSse(`${s.gateway.url}/v1/tenant/events`, {
          authorization: `Bearer ${member}`,
        });
        await new Promise((resolve) => setTimeout(resolve, 50 + (i % 4) * 100));
        stream.close();
      }
    });
    // Give a crash (an unhandled rejection after the drop) time to end the process.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await alive();
    expect(report.failures).toEqual([]);
  });

  it("a flood of badly signed requests is refused with 429 before it costs, and the victim keeps its pace", async () => {
    const { report, attack } = await s.victim.during(async () => {
      const statuses: number[] = [];
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          for (let i = 0; i < 40; i++) {
            const answer = await httpRequest(s.gateway.url, "POST", "/api/v1/sales-orders", {
              headers: badlySigned(s),
              body: order({ purchase_order_no: randomUUID() }),
            });
            statuses.push(answer.status);
          }
        }),
      );
      return statuses;
    });
    expect(attack.filter((status) => status === 429).length).toBeGreaterThan(150);
    expect(report.failures).toEqual([]);
    expect(report.p50Ms).toBeLessThan(starvedAbove(report, VICTIM_P50_BOUND_MS));
    console.log(`[abuse ${kind} tracing=${tracing}] refusal flood: victim`, report);
  });

  it("one tenant holding its whole stream share leaves the other tenant's streams open", async () => {
    const member = await signIn(s.gateway.url, s.attackerMember);
    const admin = await signIn(s.gateway.url, s.attackerAdmin);
    const held = [];
    let refused: Awaited<ReturnType<typeof openSse>> | undefined;
    for (const token of [member, member, admin, admin, admin]) {
      const stream = await openSse(`${s.gateway.url}/v1/tenant/events`, {
        authorization: `Bearer ${token}`,
      });
      if (stream.status === 200) held.push(stream);
      else refused = stream;
    }
    try {
      expect(refused?.status).toBe(429);
      expect(refused?.problem).toMatchObject({ code: "too_many_streams" });
      const victimMember = await signIn(s.gateway.url, s.victimMember);
      const victims = await openSse(`${s.gateway.url}/v1/tenant/events`, {
        authorization: `Bearer ${victimMember}`,
      });
      expect(victims.status).toBe(200);
      victims.close();
    } finally {
      for (const stream of held) stream.close();
    }
  });

  it("words past the namespace's key share are refused whichever route writes them", async () => {
    const admin = await signIn(s.gateway.url, s.attackerAdmin);
    const statuses: number[] = [];
    for (let i = 0; i < 18; i++) {
      const answer = await httpRequest(
        s.gateway.url,
        "PUT",
        `/v1/tenant/i18n-config/abuse/keys/word${i}`,
        {
          headers: { authorization: `Bearer ${admin}` },
          body: { language: "en", text: `word ${i}` },
        },
      );
      statuses.push(answer.status);
    }
    expect(statuses.filter((status) => status >= 400 && status < 500).length).toBeGreaterThan(0);
    await alive();
  });

  it("a tenant's partners are bounded by its share", async () => {
    const admin = await signIn(s.gateway.url, s.attackerAdmin);
    const keys = rsaKeys();
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await httpRequest(s.gateway.url, "POST", "/v1/tenant/partners", {
        headers: { authorization: `Bearer ${admin}` },
        body: { name: `Shell ${i}`, public_key: i === 0 ? keys.publicPem : rsaKeys().publicPem },
      });
      codes.push(answer.status === 201 ? "created" : (answer.body.code as string));
    }
    expect(codes).toContain("partner_limit");
  });
});

/**
 * The HAProxy configuration of docs/deploy.md with the gateway's GATEWAY_TRUST_PROXY: each
 * client is seen from its own address, so one client's wrong logins never get another
 * partner's correct login refused.
 */
import { existsSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { rsaKeys, tempDir } from "./helpers.js";
import {
  documentedHaproxyConfig,
  freePort,
  haveHaproxy,
  pointedAt,
  startHaproxy,
} from "./support/haproxy.js";
import { httpRequest } from "./support/http.js";
import {
  CLI,
  cli,
  createPartnerWithCli,
  type ProcessEnv,
  startProcess,
} from "./support/processes.js";
import { freshDatabaseUrl } from "./support/stores.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.runIf(haveHaproxy)("behind the documented HAProxy configuration", () => {
  it("65 wrong logins from one client address do not get another partner's correct login, from another address, refused", async () => {
    expect(existsSync(CLI), "build the package first (npm run build)").toBe(true);
    expect(documentedHaproxyConfig()).toContain("option forwardfor");
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const env: ProcessEnv = {
      databaseUrl: await freshDatabaseUrl("sqlite", dir),
      dataDir: dir,
      // HAProxy connects from loopback here; in production, its address (docs/deploy.md).
      extra: { GATEWAY_TRUST_PROXY: "loopback" },
    };
    await cli(env, ["migrate"]);
    const victim = await createPartnerWithCli(env, rsaKeys(), "Victim");
    const other = await createPartnerWithCli(env, rsaKeys(), "Other");
    const gateway = await startProcess(env);
    cleanups.push(async () => {
      gateway.child.kill("SIGKILL");
      await gateway.exited;
    });
    const port = Number(new URL(gateway.url).port);
    const lbPort = await freePort();
    await startHaproxy(
      pointedAt(documentedHaproxyConfig(), lbPort, [port, port]),
      dir,
      lbPort,
      cleanups,
    );
    const lb = `http://127.0.0.1:${lbPort}`;
    const login = (clientId: string, secret: string, from: string) =>
      httpRequest(lb, "POST", "/api/v1/auth/login", {
        body: { client_id: clientId, client_secret: secret },
        from,
      });

    // One client (127.0.0.2) tries wrong secrets, for both partners, until it is refused.
    const wrong = [];
    for (let i = 0; i < 65; i++)
      wrong.push(
        await login(i % 2 ? victim.clientId : other.clientId, "wrong-secret", "127.0.0.2"),
      );
    expect(wrong.filter((a) => a.status === 401).length).toBeGreaterThan(0);
    expect(wrong.at(-1)?.status).toBe(429);

    // The partner's own machine (127.0.0.3) signs in at once, as does the other partner's.
    const own = await login(victim.clientId, victim.clientSecret, "127.0.0.3");
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const theirs = await login(other.clientId, other.clientSecret, "127.0.0.4");
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    // The flooding address stays refused: the count follows the client, not the proxy.
    expect((await login(victim.clientId, victim.clientSecret, "127.0.0.2")).status).toBe(429);
  });
});

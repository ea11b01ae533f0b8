import { existsSync } from "node:fs";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { purgeExpired } from "../src/store/purge.js";
import { FakeClock, startGateway, tempDir } from "./helpers.js";
import {
  CLI,
  cli,
  type ProcessEnv,
  type RunningGateway,
  startProcess,
} from "./support/processes.js";
import { freshDatabaseUrl, storeKinds } from "./support/stores.js";
import {
  createTenant,
  PASSWORD,
  TEST_USERS_CONFIG,
  type TestTenant,
  userLogin,
  userToken,
} from "./support/tenants.js";

const NEW_PASSWORD = "a new password, long enough";

describe.each(storeKinds)("team management (%s store)", (kind) => {
  let gw: Gateway;
  let a: TestTenant;
  let b: TestTenant;
  const clock = new FakeClock(Date.now());

  beforeAll(async () => {
    gw = await startGateway({ store: kind, clock, config: { users: TEST_USERS_CONFIG } });
    a = await createTenant(gw, "Team Alpha");
    b = await createTenant(gw, "Team Beta");
  });
  afterAll(async () => {
    await gw.close();
  });

  const call = async (
    email: string,
    method: "GET" | "POST" | "PATCH",
    url: string,
    payload?: object,
  ) =>
    gw.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${await userToken(gw, email)}` },
      ...(payload ? { payload } : {}),
    });
  const post = (url: string, payload: object) => gw.app.inject({ method: "POST", url, payload });
  const invite = async (email: string, role = "member") => {
    const response = await call(a.admin.email, "POST", "/v1/tenant/users", { email, role });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as {
      member: { id: string; status: string };
      link: { token: string; path: string; expires_at: string; mailed: boolean };
    };
  };
  const actions = async () =>
    (await gw.store.audit.listAuditEvents(a.id, { limit: 100 })).map((e) => e.action);

  it("invites with a one-time link: the invitee sets a password once and signs in", async () => {
    const { member, link } = await invite("New.Colleague@team-alpha.example");
    expect(member.status).toBe("invited");
    expect(link.mailed).toBe(false);
    expect(link.path).toBe(`#/set-password?token=${encodeURIComponent(link.token)}`);
    // Only a hash of the token is kept.
    const stored = await gw.store.team.findPasswordLink(
      (await import("../src/domain/users/team.js")).linkTokenHash(link.token),
    );
    expect(stored?.userId).toBe(member.id);
    // No password yet: signing in fails like a wrong password.
    expect((await userLogin(gw, "new.colleague@team-alpha.example", "")).statusCode).toBe(400);
    expect(
      (await userLogin(gw, "new.colleague@team-alpha.example", "anything at all")).json().code,
    ).toBe("invalid_credentials");

    const inspected = await post("/v1/auth/password-link", { token: link.token });
    expect(inspected.json().data).toEqual({
      email: "new.colleague@team-alpha.example",
      purpose: "invite",
      // No language chosen: the tenant's first.
      language: "en",
    });
    // The language the inviter picks comes with the link, for its page.
    const german = await call(a.admin.email, "POST", "/v1/tenant/users", {
      email: "kollegin@team-alpha.example",
      role: "member",
      language: "de",
    });
    const germanLink = await post("/v1/auth/password-link", {
      token: german.json().data.link.token,
    });
    expect(germanLink.json().data.language).toBe("de");
    const short = await post("/v1/auth/set-password", { token: link.token, password: "short" });
    expect(short.json().code).toBe("validation_failed");
    const set = await post("/v1/auth/set-password", { token: link.token, password: NEW_PASSWORD });
    expect(set.statusCode, set.body).toBe(204);
    const again = await post("/v1/auth/set-password", {
      token: link.token,
      password: NEW_PASSWORD,
    });
    expect(again.statusCode).toBe(410);
    expect(again.json().code).toBe("password_link_invalid");

    const signedIn = await userLogin(gw, "new.colleague@team-alpha.example", NEW_PASSWORD);
    expect(signedIn.statusCode).toBe(200);
    const list = (await call(a.admin.email, "GET", "/v1/tenant/users")).json().data;
    const row = list.find((m: { id: string }) => m.id === member.id);
    expect(row).toMatchObject({ status: "active", role: "member" });
    expect(row.last_sign_in_at).toEqual(expect.any(String));
    expect(await actions()).toEqual(expect.arrayContaining(["user_invited", "user_password_set"]));

    const taken = await call(a.admin.email, "POST", "/v1/tenant/users", {
      email: a.member.email,
      role: "member",
    });
    expect(taken.json().code).toBe("user_exists");
  });

  it("lets a link expire, and a new reset link replaces the older one", async () => {
    const { member, link } = await invite("late@team-alpha.example");
    clock.advanceSeconds(3 * 24 * 60 * 60 + 1);
    const expired = await post("/v1/auth/set-password", {
      token: link.token,
      password: NEW_PASSWORD,
    });
    expect(expired.json().code).toBe("password_link_invalid");

    const first = await call(a.admin.email, "POST", `/v1/tenant/users/${member.id}/password-link`);
    expect(first.statusCode).toBe(201);
    expect(first.headers["cache-control"]).toBe("no-store");
    const second = await call(a.admin.email, "POST", `/v1/tenant/users/${member.id}/password-link`);
    const replaced = await post("/v1/auth/set-password", {
      token: first.json().data.token,
      password: NEW_PASSWORD,
    });
    expect(replaced.json().code).toBe("password_link_invalid");
    const used = await post("/v1/auth/set-password", {
      token: second.json().data.token,
      password: NEW_PASSWORD,
    });
    expect(used.statusCode).toBe(204);
    expect((await userLogin(gw, "late@team-alpha.example", NEW_PASSWORD)).statusCode).toBe(200);
    expect(await actions()).toContain("user_password_link_created");
    // Past their expiry, links are purged with the other bookkeeping rows.
    clock.advanceSeconds(3 * 24 * 60 * 60 + 1);
    const purged = await purgeExpired(gw.store, gw.config.retention, clock.now());
    expect(purged.password_links).toBeGreaterThanOrEqual(2);
  });

  it("changes roles, disables and enables; a disabled user's tokens stop at once", async () => {
    const { member, link } = await invite("worker@team-alpha.example");
    await post("/v1/auth/set-password", { token: link.token, password: NEW_PASSWORD });
    const token = (await userLogin(gw, "worker@team-alpha.example", NEW_PASSWORD)).json().token;
    const profile = () =>
      gw.app.inject({
        method: "GET",
        url: "/v1/user/profile",
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await profile()).statusCode).toBe(200);

    const promoted = await call(a.admin.email, "PATCH", `/v1/tenant/users/${member.id}`, {
      role: "admin",
    });
    expect(promoted.json().data.role).toBe("admin");
    // The role is read per request: the same token now may do admin things.
    expect((await profile()).json().data.role).toBe("admin");

    const disabled = await call(a.admin.email, "PATCH", `/v1/tenant/users/${member.id}`, {
      disabled: true,
    });
    expect(disabled.json().data.status).toBe("disabled");
    expect((await profile()).json().code).toBe("user_disabled");
    const refused = await userLogin(gw, "worker@team-alpha.example", NEW_PASSWORD);
    expect(refused.json().code).toBe("user_disabled");
    const wrong = await userLogin(gw, "worker@team-alpha.example", "not the password!");
    expect(wrong.json().code).toBe("invalid_credentials");

    await call(a.admin.email, "PATCH", `/v1/tenant/users/${member.id}`, { disabled: false });
    expect((await userLogin(gw, "worker@team-alpha.example", NEW_PASSWORD)).statusCode).toBe(200);
    // The old token stays dead: enabling does not revive a session.
    expect((await profile()).statusCode).toBe(401);
    await call(a.admin.email, "PATCH", `/v1/tenant/users/${member.id}`, { role: "member" });
    expect(await actions()).toEqual(
      expect.arrayContaining(["user_role_changed", "user_disabled", "user_enabled"]),
    );
    const events = await gw.store.audit.listAuditEvents(a.id, {
      limit: 10,
      filter: { subjectId: member.id, action: "user_role_changed" },
    });
    expect(JSON.parse(events[0]?.details ?? "{}")).toMatchObject({ from: "admin", to: "member" });
  });

  it("keeps the last enabled admin: no demoting or disabling them, themself included", async () => {
    const self = await call(a.admin.email, "PATCH", `/v1/tenant/users/${a.admin.id}`, {
      role: "member",
    });
    expect(self.statusCode).toBe(409);
    expect(self.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(self.json().code).toBe("last_admin");
    const off = await call(a.admin.email, "PATCH", `/v1/tenant/users/${a.admin.id}`, {
      disabled: true,
    });
    expect(off.json().code).toBe("last_admin");
    expect((await call(a.admin.email, "GET", "/v1/user/profile")).json().data.role).toBe("admin");
  });

  it("keeps teams to their tenant and changes to admins", async () => {
    const names = (await call(b.admin.email, "GET", "/v1/tenant/users"))
      .json()
      .data.map((m: { email: string }) => m.email);
    expect(names.sort()).toEqual([b.admin.email, b.member.email].sort());
    const other = await call(b.admin.email, "PATCH", `/v1/tenant/users/${a.member.id}`, {
      disabled: true,
    });
    expect(other.statusCode).toBe(404);
    expect(other.json().code).toBe("user_not_found");
    const link = await call(b.admin.email, "POST", `/v1/tenant/users/${a.member.id}/password-link`);
    expect(link.json().code).toBe("user_not_found");
    // Members read the team, and change nothing.
    expect((await call(a.member.email, "GET", "/v1/tenant/users")).statusCode).toBe(200);
    const invited = await call(a.member.email, "POST", "/v1/tenant/users", {
      email: "x@team-alpha.example",
      role: "admin",
    });
    expect(invited.json().code).toBe("role_forbidden");
    const bad = await call(a.admin.email, "POST", "/v1/tenant/users", {
      email: "nope",
      role: "member",
    });
    expect(bad.json().code).toBe("validation_failed");
    const badRole = await call(a.admin.email, "PATCH", `/v1/tenant/users/${a.member.id}`, {
      role: "owner",
    });
    expect(badRole.json().code).toBe("validation_failed");
    expect((await gw.store.audit.listAuditEvents(b.id, { limit: 10 })).length).toBe(0);
  });

  it("answers forgot-password alike for any address, and says to ask an admin without mail", async () => {
    const known = await post("/v1/auth/forgot-password", { email: a.member.email });
    const unknown = await post("/v1/auth/forgot-password", { email: "ghost@nowhere.example" });
    expect(known.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(known.json().data).toEqual({ delivery: "ask_admin" });
    expect((await userLogin(gw, a.member.email, PASSWORD)).statusCode).toBe(200);
  });
});

/** The text of a quoted-printable mail body. */
const decoded = (text: string) =>
  text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

describe("team mail", () => {
  let gw: Gateway;
  let smtp: SMTPServer;
  const mails: { to: string; text: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        let text = "";
        stream.on("data", (chunk) => {
          text += chunk;
        });
        stream.on("end", () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), text });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const port = (smtp.server.address() as { port: number }).port;
    const { loadConfig } = await import("../src/config/config.js");
    const team = loadConfig({
      GATEWAY_SMTP_URL: `smtp://127.0.0.1:${port}`,
      GATEWAY_PUBLIC_URL: "https://orders.example.com/console/",
    }).team;
    gw = await startGateway({ config: { users: TEST_USERS_CONFIG, team } });
  });
  afterAll(async () => {
    await gw.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it("mails invites and forgot-password links to the configured console address", async () => {
    const t = await createTenant(gw, "Mail Corp", { member: "de" });
    const token = await userToken(gw, t.admin.email);
    const invited = await gw.app.inject({
      method: "POST",
      url: "/v1/tenant/users",
      headers: { authorization: `Bearer ${token}` },
      payload: { email: "mailed@mail-corp.example", role: "member" },
    });
    // Mailed only: the admin never holds the invitee's link.
    expect(invited.json().data.link).toEqual({ expires_at: expect.any(String), mailed: true });
    const mail = mails.find((m) => m.to === "mailed@mail-corp.example");
    expect(decoded(mail?.text ?? "")).toMatch(
      /https:\/\/orders\.example\.com\/console\/#\/set-password\?token=\S+/,
    );

    const forgot = await gw.app.inject({
      method: "POST",
      url: "/v1/auth/forgot-password",
      payload: { email: t.member.email },
    });
    expect(forgot.json().data).toEqual({ delivery: "mail" });
    await expect
      .poll(() => mails.some((m) => m.to === t.member.email), { timeout: 30_000 })
      .toBe(true);
    // In the member's language, with a link that sets a new password once.
    const reset = decoded(mails.find((m) => m.to === t.member.email)?.text ?? "");
    expect(reset).toContain("Passwort");
    const resetToken = decodeURIComponent(/token=([^\s]+)/.exec(reset)?.[1] ?? "");
    const set = await gw.app.inject({
      method: "POST",
      url: "/v1/auth/set-password",
      payload: { token: resetToken, password: NEW_PASSWORD },
    });
    expect(set.statusCode, set.body).toBe(204);
    expect((await userLogin(gw, t.member.email, NEW_PASSWORD)).statusCode).toBe(200);
    const ghost = await gw.app.inject({
      method: "POST",
      url: "/v1/auth/forgot-password",
      payload: { email: "ghost@mail-corp.example" },
    });
    expect(ghost.body).toBe(forgot.body);
  });

  it("refuses an SMTP URL without the console's public URL", async () => {
    const { loadConfig } = await import("../src/config/config.js");
    expect(() => loadConfig({ GATEWAY_SMTP_URL: "smtp://127.0.0.1:2525" })).toThrow(
      /GATEWAY_PUBLIC_URL/,
    );
  });
});

// Two built gateway processes on one PostgreSQL database: a disable on one ends the user's
// sessions on the other at once.
describe.runIf(storeKinds.includes("postgres"))("team across instances", () => {
  let env: ProcessEnv;
  let one: RunningGateway;
  let two: RunningGateway;
  let cleanup: () => void;

  beforeAll(async () => {
    expect(existsSync(CLI), "build the package first (npm run build)").toBe(true);
    const temp = tempDir();
    cleanup = temp.cleanup;
    env = {
      databaseUrl: await freshDatabaseUrl("postgres", temp.dir),
      dataDir: temp.dir,
      extra: { GATEWAY_SCRYPT_COST: "1024" },
    };
    [one, two] = await Promise.all([startProcess(env), startProcess(env)]);
  });
  afterAll(() => {
    one?.child.kill("SIGKILL");
    two?.child.kill("SIGKILL");
    cleanup?.();
  });

  const send = async (
    base: string,
    method: string,
    path: string,
    body?: object,
    token?: string,
  ) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body ? { "content-type": "application/json" } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  it("a role change and a disable made on one instance take effect on the other at once", async () => {
    const tenant = JSON.parse(await cli(env, ["tenants", "create", "--name", "Multi", "--json"]));
    await cli(
      env,
      [
        "users",
        "create",
        "--tenant",
        tenant.tenant_id,
        "--email",
        "boss@multi.example",
        "--role",
        "admin",
      ],
      PASSWORD,
    );
    const admin = (
      await send(one.url, "POST", "/v1/auth/login", {
        email: "boss@multi.example",
        password: PASSWORD,
      })
    ).body.token;
    const invited = await send(
      one.url,
      "POST",
      "/v1/tenant/users",
      { email: "staff@multi.example", role: "member" },
      admin,
    );
    expect(invited.status).toBe(201);
    const { member, link } = invited.body.data;
    expect(
      (
        await send(two.url, "POST", "/v1/auth/set-password", {
          token: link.token,
          password: NEW_PASSWORD,
        })
      ).status,
    ).toBe(204);
    const staff = (
      await send(two.url, "POST", "/v1/auth/login", {
        email: "staff@multi.example",
        password: NEW_PASSWORD,
      })
    ).body.token;

    expect((await send(two.url, "GET", "/v1/tenant/partners", undefined, staff)).body.code).toBe(
      "role_forbidden",
    );
    await send(one.url, "PATCH", `/v1/tenant/users/${member.id}`, { role: "admin" }, admin);
    expect((await send(two.url, "GET", "/v1/tenant/partners", undefined, staff)).status).toBe(200);

    await send(one.url, "PATCH", `/v1/tenant/users/${member.id}`, { disabled: true }, admin);
    const after = await send(two.url, "GET", "/v1/user/profile", undefined, staff);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("user_disabled");
    const refresh = await send(two.url, "POST", "/v1/auth/refresh", { token: staff });
    expect(refresh.body.code).toBe("user_disabled");
  });
});

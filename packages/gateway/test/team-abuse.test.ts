import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import type { Gateway } from "../src/gateway.js";
import { startGateway } from "./helpers.js";
import { type HttpAnswer, httpRequest } from "./support/http.js";
import { smtpReceiver } from "./support/smtp.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, type TestTenant } from "./support/tenants.js";

const NEW_PASSWORD = "a new password, long enough";

/** The set-password token in a mail's text. */
const tokenIn = (text = "") => decodeURIComponent(/token=(\S+)/.exec(text)?.[1] ?? "");
const PER_RECIPIENT = 3;
const PER_TENANT = 8;

// The team surfaces as a hostile admin, a hostile tenant and an anonymous caller use them, over
// real sockets, with mail going to a real SMTP server.
describe.each(storeKinds)("team management abuse (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let smtp: Awaited<ReturnType<typeof smtpReceiver>>;
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    smtp = await smtpReceiver();
    const env = loadConfig({
      GATEWAY_SMTP_URL: smtp.url,
      GATEWAY_PUBLIC_URL: "https://orders.example.com/console/",
      GATEWAY_SHARE_MAILS_PER_RECIPIENT: String(PER_RECIPIENT),
      GATEWAY_SHARE_MAILS_PER_TENANT: String(PER_TENANT),
      // The per-address limit of the signed-out routes is not under test here.
      GATEWAY_RATE_LIMIT_LOGINS: "1000",
    });
    gw = await startGateway({
      store: kind,
      config: {
        users: TEST_USERS_CONFIG,
        team: env.team,
        shares: env.shares,
        rateLimit: env.rateLimit,
      },
    });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    a = await createTenant(gw, "Abuse Alpha");
    b = await createTenant(gw, "Abuse Beta");
  });
  afterAll(async () => {
    await gw?.close();
    await smtp?.close();
  });

  const token = async (email: string, password = "correct horse battery staple") => {
    const answer = await httpRequest(base, "POST", "/v1/auth/login", { body: { email, password } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.token as string;
  };
  const as = async (email: string, method: string, path: string, body?: object) =>
    httpRequest(base, method, path, {
      headers: { authorization: `Bearer ${await token(email)}` },
      ...(body ? { body } : {}),
    });
  const forgot = (email: string) =>
    httpRequest(base, "POST", "/v1/auth/forgot-password", { body: { email } });
  const setPassword = (linkToken: string) =>
    httpRequest(base, "POST", "/v1/auth/set-password", {
      body: { token: linkToken, password: NEW_PASSWORD },
    });
  /** Waits until `address` has `count` mails, then a little longer for any extra one. */
  const mailsTo = async (address: string, count: number) => {
    await expect
      .poll(() => smtp.to(address).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(count);
    await new Promise((resolve) => setTimeout(resolve, 500));
    return smtp.to(address);
  };
  const same = (answers: HttpAnswer[]) =>
    new Set(answers.map((r) => `${r.status} ${JSON.stringify(r.body)}`));

  it("mails a recipient at most its share of forgot-password links, answering alike", async () => {
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await forgot(a.member.email));
    answers.push(await forgot("nobody@abuse-alpha.example"));
    // Limited or not, known or not: one answer.
    expect(same(answers)).toEqual(
      new Set([`202 ${JSON.stringify({ data: { delivery: "mail" } })}`]),
    );
    expect(await mailsTo(a.member.email, PER_RECIPIENT)).toHaveLength(PER_RECIPIENT);
    // Each mailed link works on its own: the newest one sets the password.
    const used = await setPassword(smtp.tokenFor(a.member.email) ?? "");
    expect(used.status).toBe(204);
  });

  it("stops a tenant's mail at its share, and another tenant's mail still goes", async () => {
    const quota = await createTenant(gw, "Quota Corp");
    const extra = [];
    for (const name of ["c1", "c2", "c3"]) {
      const user = await gw.users.create({
        tenantId: quota.id,
        email: `${name}@quota-corp.example`,
        role: "member",
        password: "correct horse battery staple",
      });
      extra.push(user.email);
    }
    const recipients = [quota.admin.email, quota.member.email, ...extra];
    for (const email of recipients) for (let i = 0; i < 3; i++) await forgot(email);
    await expect
      .poll(() => recipients.flatMap((r) => smtp.to(r)).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(PER_TENANT);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(recipients.flatMap((r) => smtp.to(r))).toHaveLength(PER_TENANT);
    // An admin's mail in the spent tenant is refused, and says so to the admin.
    const invite = await as(quota.admin.email, "POST", "/v1/tenant/users", {
      email: "late@quota-corp.example",
      role: "member",
    });
    expect(invite.status).toBe(429);
    expect(invite.body.code).toBe("rate_limited");
    expect(invite.headers["retry-after"]).toMatch(/^\d+$/);
    const list = await as(quota.admin.email, "GET", "/v1/tenant/users");
    expect(JSON.stringify(list.body)).not.toContain("late@quota-corp.example");
    // Another tenant is not charged for it.
    await forgot(b.member.email);
    expect(await mailsTo(b.member.email, 1)).toHaveLength(1);
  });

  it("keeps the link an admin handed out, and audits the anonymous caller, not the user", async () => {
    const c = await createTenant(gw, "Abuse Gamma");
    const member = (
      await as(c.admin.email, "POST", "/v1/tenant/users", {
        email: "kept@abuse-gamma.example",
        role: "member",
      })
    ).body.data as { member: { id: string } };
    const invited = (await mailsTo("kept@abuse-gamma.example", 1))[0];
    expect(invited?.text).toContain("invited");
    const inviteToken = smtp.tokenFor("kept@abuse-gamma.example") ?? "";
    await httpRequest(base, "POST", "/v1/auth/set-password", {
      body: { token: inviteToken, password: NEW_PASSWORD },
    });
    // The admin issues a reset link; then someone asks "forgot password" for the same user.
    const issued = await as(
      c.admin.email,
      "POST",
      `/v1/tenant/users/${member.member.id}/password-link`,
    );
    expect(issued.status).toBe(201);
    const adminToken =
      (await mailsTo("kept@abuse-gamma.example", 2)).length &&
      smtp.tokenFor("kept@abuse-gamma.example");
    await forgot("kept@abuse-gamma.example");
    await mailsTo("kept@abuse-gamma.example", 3);
    const selfToken = smtp.tokenFor("kept@abuse-gamma.example");
    expect(selfToken).not.toBe(adminToken);
    const inspect = (t: string | undefined) =>
      httpRequest(base, "POST", "/v1/auth/password-link", { body: { token: t } });
    expect((await inspect(adminToken as string)).status).toBe(200);
    expect((await inspect(selfToken)).status).toBe(200);
    // Using one spends the others: the password is chosen.
    expect((await setPassword(adminToken as string)).status).toBe(204);
    expect((await setPassword(selfToken ?? "")).body.code).toBe("password_link_invalid");

    const audit = await as(
      c.admin.email,
      "GET",
      `/v1/tenant/audit-events?action=user_password_reset_requested&subject_id=${member.member.id}`,
    );
    const event = (
      audit.body.data as {
        actor: { kind: string; id: string; label: string };
        subject: { type: string; id: string } | null;
        details: { subject_user_id: string };
      }[]
    ).find((e) => e.details.subject_user_id === member.member.id);
    expect(event?.actor).toEqual({
      kind: "system",
      id: expect.stringMatching(/^address:/),
      label: "anonymous",
      name: null,
    });
    expect(event?.actor.id).not.toBe(member.member.id);
    expect(event?.subject).toEqual({ type: "user", id: member.member.id });
  });

  it("never hands an admin a colleague's link when mail is configured", async () => {
    const d = await createTenant(gw, "Abuse Delta");
    const issued = await as(d.admin.email, "POST", `/v1/tenant/users/${d.member.id}/password-link`);
    expect(issued.status).toBe(201);
    expect(issued.body.data).toEqual({ expires_at: expect.any(String), mailed: true });
    expect(JSON.stringify(issued.body)).not.toMatch(/token/);
    const invited = await as(d.admin.email, "POST", "/v1/tenant/users", {
      email: "no-link@abuse-delta.example",
      role: "admin",
    });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ link: { mailed: true } });
    expect((invited.body.data as { link: object }).link).not.toHaveProperty("token");
    expect((invited.body.data as { link: object }).link).not.toHaveProperty("path");
  });

  it("revokes a disabled user's links: re-enabling revives none", async () => {
    const e = await createTenant(gw, "Abuse Epsilon");
    const target = await gw.users.create({
      tenantId: e.id,
      email: "paused@abuse-epsilon.example",
      role: "member",
      password: "correct horse battery staple",
    });
    await as(e.admin.email, "POST", `/v1/tenant/users/${target.user_id}/password-link`);
    await forgot(target.email);
    const mails = await mailsTo(target.email, 2);
    const tokens = mails.map((m) => tokenIn(m.text));
    expect(tokens).toHaveLength(2);
    const path = `/v1/tenant/users/${target.user_id}`;
    expect((await as(e.admin.email, "PATCH", path, { disabled: true })).status).toBe(200);
    // A link an admin makes during the pause is as old, once the user is back.
    await as(e.admin.email, "POST", `/v1/tenant/users/${target.user_id}/password-link`);
    tokens.push(...(await mailsTo(target.email, 3)).slice(2).map((m) => tokenIn(m.text)));
    expect((await as(e.admin.email, "PATCH", path, { disabled: false })).status).toBe(200);
    for (const old of tokens)
      expect((await setPassword(old)).body.code).toBe("password_link_invalid");
    // The user's own password still works: only the links were revoked.
    await token(target.email);
  });

  it("neither reveals nor lets a tenant squat addresses of other tenants", async () => {
    const hire = "future.hire@example.org";
    const inviteBy = (t: TestTenant, email: string) =>
      as(t.admin.email, "POST", "/v1/tenant/users", { email, role: "member" });
    // Tenant A invites an address first; B's invite of it answers as for any new address.
    const first = await inviteBy(a, hire);
    const second = await inviteBy(b, hire);
    const fresh = await inviteBy(b, "nobody.yet@example.org");
    // An address with an account in another tenant answers alike, too.
    const signedUpElsewhere = await inviteBy(b, a.admin.email);
    for (const answer of [first, second, fresh, signedUpElsewhere]) {
      expect(answer.status).toBe(201);
      expect(Object.keys(answer.body.data as object).sort()).toEqual(["link", "member"]);
      expect((answer.body.data as { member: { status: string } }).member.status).toBe("invited");
    }
    // Only the tenant's own users are "taken".
    expect((await inviteBy(b, hire)).body.code).toBe("user_exists");

    // The hire accepts B's invite: A's pending one did not hold the address.
    const mails = await mailsTo(hire, 2);
    const fromB = mails.find((m) => m.text.includes(b.name));
    const fromA = mails.find((m) => m.text.includes(a.name));
    expect((await setPassword(tokenIn(fromB?.text))).status).toBe(204);
    const profile = await httpRequest(base, "GET", "/v1/user/profile", {
      headers: { authorization: `Bearer ${await token(hire, NEW_PASSWORD)}` },
    });
    expect((profile.body.data as { tenant: { id: string } }).tenant.id).toBe(b.id);
    // A's invite can no longer be accepted: the address is one account, B's.
    const late = await setPassword(tokenIn(fromA?.text));
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("email_in_use");
    // The account in A signs in to A as before.
    const admin = await httpRequest(base, "GET", "/v1/user/profile", {
      headers: { authorization: `Bearer ${await token(a.admin.email)}` },
    });
    expect((admin.body.data as { tenant: { id: string } }).tenant.id).toBe(a.id);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { startGateway } from "./helpers.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, PASSWORD, TEST_USERS_CONFIG, type TestTenant } from "./support/tenants.js";

interface Problem {
  code: string;
  errors?: { pointer: string; message: string }[];
}

/**
 * Display names over real HTTP on each store: an invite may carry one, an admin names a member,
 * a user names themself; every refusal is problem+json pointing at the field; every change is
 * audited with the actor named as they were.
 */
describe.each(storeKinds)("display names (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let a: TestTenant;
  let b: TestTenant;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    gw = await startGateway({ store: kind, config: { users: TEST_USERS_CONFIG } });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    a = await createTenant(gw, "Names Alpha");
    b = await createTenant(gw, "Names Beta");
  });
  afterAll(async () => {
    await gw.close();
  });

  const tokenOf = async (email: string) => {
    const known = tokens.get(email);
    if (known) return known;
    const response = await fetch(`${base}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const { token } = (await response.json()) as { token: string };
    tokens.set(email, token);
    return token;
  };
  const call = async (email: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await tokenOf(email)}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: response.status,
      type: response.headers.get("content-type") ?? "",
      // biome-ignore lint/suspicious/noExplicitAny: JSON answers of several shapes.
      body: (await response.json()) as any,
    };
  };
  const members = async () =>
    (await call(a.admin.email, "GET", "/v1/tenant/users")).body.data as {
      id: string;
      name: string | null;
      email: string;
    }[];
  const renames = async (tenantId: string) =>
    (await gw.store.audit.listAuditEvents(tenantId, { limit: 100 })).filter(
      (e) => e.action === "user_renamed",
    );

  it("users from before have no name (shown by their email); an invite may carry one, trimmed", async () => {
    expect((await members()).map((m) => m.name)).toEqual([null, null]);
    const invited = await call(a.admin.email, "POST", "/v1/tenant/users", {
      email: "siti@names-alpha.example",
      role: "member",
      language: "en",
      name: "  Siti Rahayu  ",
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(invited.body.data.member.name).toBe("Siti Rahayu");
    expect((await members()).find((m) => m.email === "siti@names-alpha.example")?.name).toBe(
      "Siti Rahayu",
    );
  });

  it("an admin names a member; the audit names the admin as the actor, with the name before and after", async () => {
    // The admin names themself first, so the actor of the next change has a name.
    const self = await call(a.admin.email, "PATCH", "/v1/user/profile", { name: "Ayu Admin" });
    expect(self.status, JSON.stringify(self.body)).toBe(200);
    expect(self.body.data.name).toBe("Ayu Admin");

    const named = await call(a.admin.email, "PATCH", `/v1/tenant/users/${a.member.id}`, {
      name: "Budi Santoso",
    });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.data.name).toBe("Budi Santoso");

    const [latest, first] = await renames(a.id);
    expect(first).toMatchObject({
      actorId: a.admin.id,
      actorLabel: a.admin.email,
      // Named as they were when they acted: their name was set by this very change.
      actorName: null,
      subjectId: a.admin.id,
    });
    expect(latest).toMatchObject({
      actorId: a.admin.id,
      actorLabel: a.admin.email,
      actorName: "Ayu Admin",
      subjectType: "user",
      subjectId: a.member.id,
    });
    expect(JSON.parse(latest?.details ?? "{}")).toMatchObject({
      from: null,
      to: "Budi Santoso",
      email: a.member.email,
    });
    // The Activity page's answer carries the actor's name beside their email.
    const audit = await call(a.admin.email, "GET", "/v1/tenant/audit-events?action=user_renamed");
    expect(audit.body.data[0].actor).toEqual({
      kind: "user",
      id: a.admin.id,
      label: a.admin.email,
      name: "Ayu Admin",
    });
  });

  it("a user names themself and clears it again; the profile and the team list follow", async () => {
    const named = await call(a.member.email, "PATCH", "/v1/user/profile", { name: "Budi S." });
    expect(named.body.data).toMatchObject({ name: "Budi S.", email: a.member.email });
    expect((await call(a.member.email, "GET", "/v1/user/profile")).body.data.name).toBe("Budi S.");
    const cleared = await call(a.member.email, "PATCH", "/v1/user/profile", { name: "   " });
    expect(cleared.body.data.name).toBeNull();
    expect((await members()).find((m) => m.id === a.member.id)?.name).toBeNull();
    const [latest] = await renames(a.id);
    expect(latest).toMatchObject({ actorId: a.member.id, subjectId: a.member.id });
    expect(JSON.parse(latest?.details ?? "{}")).toMatchObject({ from: "Budi S.", to: null });
    // The language alone still changes as before, leaving the name alone.
    await call(a.member.email, "PATCH", "/v1/user/profile", { name: "Budi" });
    const language = await call(a.member.email, "PATCH", "/v1/user/profile", { language: "de" });
    expect(language.body.data).toMatchObject({ language: "de", name: "Budi" });
  });

  it("refuses names that are too long, hold control or invisible layout characters: problem+json at /name, nothing changed", async () => {
    const before = await renames(a.id);
    const refusals: [string, unknown, string][] = [
      ["too long", "x".repeat(201), "validation_failed"],
      ["too long for the schema", "x".repeat(300), "validation_failed"],
      ["a control character", "Budi\u0007", "text_invalid"],
      ["a line break", "Budi\nSantoso", "text_invalid"],
      ["a right-to-left override", "Budi \u202eosotnaS", "validation_failed"],
      ["not text", 42, "validation_failed"],
    ];
    for (const [what, name, code] of refusals) {
      for (const [path, body] of [
        [`/v1/tenant/users/${a.member.id}`, { name }],
        ["/v1/user/profile", { name }],
        ["/v1/tenant/users", { email: "x@names-alpha.example", role: "member", name }],
      ] as const) {
        const method = path === "/v1/tenant/users" ? "POST" : "PATCH";
        const answer = await call(a.admin.email, method, path, body);
        expect(answer.status, `${what} at ${method} ${path}`).toBe(400);
        expect(answer.type).toContain("application/problem+json");
        const problem = answer.body as Problem;
        expect(problem.code, what).toBe(code);
        expect(
          problem.errors?.map((e) => e.pointer),
          what,
        ).toContain("/name");
      }
    }
    // Exactly the limit is fine: 200 characters, counted as people count them (emoji too).
    const longest = `${"ä".repeat(199)}😀`;
    const fits = await call(a.admin.email, "PATCH", `/v1/tenant/users/${a.member.id}`, {
      name: longest,
    });
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    expect(fits.body.data.name).toBe(longest);
    expect((await renames(a.id)).length).toBe(before.length + 1);
    expect((await members()).some((m) => m.email === "x@names-alpha.example")).toBe(false);
  });

  it("only admins name others; another tenant's user is not found; an unchanged name is not audited", async () => {
    const byMember = await call(a.member.email, "PATCH", `/v1/tenant/users/${a.admin.id}`, {
      name: "Not allowed",
    });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("role_forbidden");
    const elsewhere = await call(a.admin.email, "PATCH", `/v1/tenant/users/${b.member.id}`, {
      name: "Stranger",
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe("user_not_found");
    expect((await gw.store.tenants.findUser(b.member.id))?.displayName).toBeNull();
    expect(await renames(b.id)).toEqual([]);

    const count = (await renames(a.id)).length;
    const same = (await members()).find((m) => m.id === a.member.id)?.name;
    await call(a.admin.email, "PATCH", `/v1/tenant/users/${a.member.id}`, { name: same });
    expect((await renames(a.id)).length).toBe(count);
  });
});

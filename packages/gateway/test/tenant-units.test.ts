import { describe, expect, it } from "vitest";
import { changesBetween, overridesProblems } from "../src/domain/vocabulary/overrides.js";
import { etagOf, noneMatch } from "../src/domain/vocabulary/service.js";
import { supportedLanguage } from "../src/lib/languages.js";
import { lockSecondsAfter } from "../src/security/login-throttle.js";
import { hashPassword, verifyPassword } from "../src/security/passwords.js";
import { LogCapture, startGateway } from "./helpers.js";
import { createTenant, PASSWORD, TEST_USERS_CONFIG, userLogin } from "./support/tenants.js";

const SUPPORTED = ["en", "de", "fr", "en-GB", "zh-CN"];

describe("language selection", () => {
  it("matches supported tags case-insensitively and answers in the list's spelling", () => {
    expect(supportedLanguage("EN-gb", SUPPORTED)).toBe("en-GB");
    expect(supportedLanguage("de", SUPPORTED)).toBe("de");
    expect(supportedLanguage("de-AT", SUPPORTED)).toBeUndefined();
    expect(supportedLanguage("not a tag", SUPPORTED)).toBeUndefined();
  });
});

describe("overrides", () => {
  it("accepts nested string leaves and locates every problem", () => {
    expect(overridesProblems({ a: { b: "x" }, c: "y" })).toEqual([]);
    expect(overridesProblems({})).toEqual([]);
    expect(overridesProblems({ a: { prototype: "x" }, "b/c": 1 })).toEqual([
      { pointer: "/overrides/a/prototype", message: "the key 'prototype' is not allowed" },
      { pointer: "/overrides/b~1c", message: "must be a string or an object" },
    ]);
    expect(overridesProblems(JSON.parse('{"__proto__": {"x": "y"}}'))).toHaveLength(1);
    expect(overridesProblems(["a"])[0]?.message).toContain("must be an object");
    expect(overridesProblems({ " lead": "x", "": "y" })).toHaveLength(2);
  });

  it("reports added, changed and removed dotted paths, sorted", () => {
    expect(
      changesBetween({ a: { b: "1", c: "2" }, d: "3" }, { a: { b: "1", c: "9" }, e: { f: "4" } }),
    ).toEqual({ added: ["e.f"], changed: ["a.c"], removed: ["d"] });
    // A leaf that becomes an object is a removal and additions.
    expect(changesBetween({ a: "x" }, { a: { b: "y" } })).toEqual({
      added: ["a.b"],
      changed: [],
      removed: ["a"],
    });
  });
});

describe("ETag", () => {
  it("is strong, differs with the bytes, and If-None-Match compares weakly", () => {
    const tag = etagOf('{"a":1}');
    expect(tag).toBe(etagOf('{"a":1}'));
    expect(tag).not.toBe(etagOf('{"a":2}'));
    expect(noneMatch(tag, tag)).toBe(true);
    expect(noneMatch(`W/${tag}`, tag)).toBe(true);
    expect(noneMatch(`"other", ${tag}`, tag)).toBe(true);
    expect(noneMatch("*", tag)).toBe(true);
    expect(noneMatch('"other"', tag)).toBe(false);
    expect(noneMatch(undefined, tag)).toBe(false);
  });
});

describe("passwords and throttle", () => {
  it("hashes with scrypt, salted, and verifies only the right password", async () => {
    const one = await hashPassword("a password of length", 1024);
    const two = await hashPassword("a password of length", 1024);
    expect(one).not.toBe(two);
    expect(await verifyPassword("a password of length", one)).toBe(true);
    expect(await verifyPassword("a password of lengtH", one)).toBe(false);
    expect(await verifyPassword("a password of length", "md5$abc")).toBe(false);
    await expect(hashPassword("x", 1000)).rejects.toThrow(/power of two/);
  });

  it("locks for 2, 4, 8 … seconds after the fifth failure, at most 15 minutes", () => {
    expect([1, 4, 5, 6, 7, 14, 30].map(lockSecondsAfter)).toEqual([0, 0, 2, 4, 8, 900, 900]);
  });
});

describe("logs", () => {
  it("never contain a password, a user token or an email address in clear", async () => {
    const logs = new LogCapture();
    const gw = await startGateway({ logs, config: { users: TEST_USERS_CONFIG } });
    try {
      const tenant = await createTenant(gw, "Logged Co");
      const ok = await userLogin(gw, tenant.admin.email);
      await userLogin(gw, tenant.member.email, "the wrong password here");
      const token = ok.json().token as string;
      await gw.app.inject({
        method: "GET",
        url: "/v1/user/profile",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(logs.text).toContain("user_login_failed");
      for (const secret of [PASSWORD, "the wrong password here", token, tenant.member.email]) {
        expect(logs.text).not.toContain(secret);
      }
    } finally {
      await gw.close();
    }
  });
});

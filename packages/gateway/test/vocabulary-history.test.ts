import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collectPlaceholders } from "../scripts/standard-placeholders.mjs";
import { STANDARD_PLACEHOLDERS } from "../src/domain/vocabulary/standard-placeholders.js";
import type { Gateway } from "../src/gateway.js";
import { FakeClock, json, startGateway } from "./helpers.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, type TestTenant, userToken } from "./support/tenants.js";

describe("the gateway's copy of the console's placeholders", () => {
  it("is current with apps/console/locales (run scripts/standard-placeholders.mjs after editing them)", () => {
    expect(STANDARD_PLACEHOLDERS).toEqual(collectPlaceholders());
    expect(STANDARD_PLACEHOLDERS.orders?.["detail.title"]).toEqual(["number"]);
  });
});

describe.each(storeKinds)(
  "vocabulary placeholders, per-key history and revert (%s store)",
  (kind) => {
    let gw: Gateway;
    let clock: FakeClock;
    let a: TestTenant;
    let b: TestTenant;
    let admin: string;

    beforeEach(async () => {
      clock = new FakeClock(Date.parse("2026-11-26T09:00:00Z"));
      gw = await startGateway({ store: kind, clock, config: { users: TEST_USERS_CONFIG } });
      a = await createTenant(gw, "Alpha Foods");
      b = await createTenant(gw, "Beta Tools");
      admin = await userToken(gw, a.admin.email);
    });
    afterEach(async () => {
      await gw.close();
    });

    const call = (
      token: string,
      method: "GET" | "PUT" | "POST" | "DELETE",
      url: string,
      payload?: object,
    ) =>
      gw.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload: payload as Record<string, unknown> } : {}),
      });
    const key = (ns: string, k: string) => `/v1/tenant/i18n-config/${ns}/keys/${k}`;
    const setWord = (token: string, ns: string, k: string, language: string, text: string) =>
      call(token, "PUT", key(ns, k), { language, text });
    const overrides = async (token: string, ns: string, language: string) =>
      (await call(token, "GET", `/v1/tenant/i18n-config/${ns}?language=${language}`)).json().data
        .overrides;
    const history = async (token: string, ns: string, k: string) =>
      (await call(token, "GET", `${key(ns, k)}/history`)).json().data as {
        id: string;
        language: string;
        text: string | null;
        change: string;
        changed_by: string | null;
        changed_at: string;
      }[];

    it("refuses a word with a placeholder its standard text lacks, naming the allowed ones; nothing is stored", async () => {
      const put = await call(admin, "PUT", "/v1/tenant/i18n-config/orders", {
        language: "en",
        overrides: { title: "Orders {{evil}}", detail: { title: "Order {{evil}} {{number}}" } },
      });
      expect(put.statusCode).toBe(400);
      expect(put.headers["content-type"]).toMatch(/^application\/problem\+json/);
      const problem = json(put);
      expect(problem.code).toBe("placeholder_unknown");
      expect(problem.errors).toEqual([
        {
          in: "body",
          pointer: "/overrides/title",
          message: "uses {{evil}}, which the standard text does not fill in; allowed: none",
          allowed: [],
        },
        {
          in: "body",
          pointer: "/overrides/detail/title",
          message: "uses {{evil}}, which the standard text does not fill in; allowed: {{number}}",
          allowed: ["{{number}}"],
        },
      ]);
      expect(await overrides(admin, "orders", "en")).toEqual({});

      const one = await setWord(admin, "orders", "detail.title", "de", "Auftrag {{ evil }}");
      expect(one.statusCode).toBe(400);
      expect(json(one).code).toBe("placeholder_unknown");
      expect((json(one).errors as unknown[])[0]).toMatchObject({
        pointer: "/text",
        allowed: ["{{number}}"],
      });
      expect(await overrides(admin, "orders", "de")).toEqual({});

      // The standard text's own placeholders, and leaving one out, are fine.
      expect(
        (await setWord(admin, "orders", "detail.title", "de", "Auftrag {{number}}")).statusCode,
      ).toBe(200);
      expect((await setWord(admin, "orders", "detail.title", "en", "An order")).statusCode).toBe(
        200,
      );
    });

    it("sets and resets one key without touching the namespace's other words", async () => {
      await call(admin, "PUT", "/v1/tenant/i18n-config/orders", {
        language: "en",
        overrides: { empty: "Nothing yet" },
      });
      const set = await setWord(admin, "orders", "title", "en", "Sales requests");
      expect(set.statusCode).toBe(200);
      expect(set.json().data).toEqual({
        namespace: "orders",
        language: "en",
        key: "title",
        text: "Sales requests",
        previous: null,
      });
      expect(await overrides(admin, "orders", "en")).toEqual({
        empty: "Nothing yet",
        title: "Sales requests",
      });
      const reset = await call(admin, "DELETE", `${key("orders", "title")}?language=en`);
      expect(reset.json().data).toMatchObject({ text: null, previous: "Sales requests" });
      expect(await overrides(admin, "orders", "en")).toEqual({ empty: "Nothing yet" });
    });

    it("lists a key's history newest first in every language, and reverts to an earlier word", async () => {
      await setWord(admin, "orders", "title", "en", "Sales");
      clock.advanceSeconds(60);
      await setWord(admin, "orders", "title", "de", "Verkäufe");
      clock.advanceSeconds(60);
      await setWord(admin, "orders", "title", "en", "Requests");
      clock.advanceSeconds(60);
      await call(admin, "DELETE", `${key("orders", "title")}?language=en`);
      let entries = await history(admin, "orders", "title");
      expect(entries.map((e) => [e.language, e.text, e.change])).toEqual([
        ["en", null, "reset"],
        ["en", "Requests", "set"],
        ["de", "Verkäufe", "set"],
        ["en", "Sales", "set"],
      ]);
      expect(entries[0]?.changed_by).toBe(a.admin.email);
      expect(entries[3]?.changed_at).toBe("2026-11-26T09:00:00.000Z");

      const sales = entries[3]?.id as string;
      const reverted = await call(admin, "POST", `${key("orders", "title")}/revert`, {
        history_id: sales,
      });
      expect(reverted.statusCode).toBe(200);
      expect(reverted.json().data).toMatchObject({ language: "en", text: "Sales", previous: null });
      expect(await overrides(admin, "orders", "en")).toEqual({ title: "Sales" });
      entries = await history(admin, "orders", "title");
      expect(entries[0]).toMatchObject({ language: "en", text: "Sales", change: "revert" });

      // Back to the standard text, through a revert of the reset entry.
      const resetEntry = entries.find((e) => e.change === "reset")?.id as string;
      await call(admin, "POST", `${key("orders", "title")}/revert`, { history_id: resetEntry });
      expect(await overrides(admin, "orders", "en")).toEqual({});
      // Another key's entry is not this key's.
      const other = await call(admin, "POST", `${key("orders", "empty")}/revert`, {
        history_id: sales,
      });
      expect(other.statusCode).toBe(404);
      expect(json(other).code).toBe("vocabulary_change_not_found");
    });

    it("records a namespace replacement per changed key", async () => {
      await call(admin, "PUT", "/v1/tenant/i18n-config/common", {
        language: "en",
        overrides: { app: { name: "Acme Orders" }, nav: { orders: "Requests" } },
      });
      await call(admin, "PUT", "/v1/tenant/i18n-config/common", {
        language: "en",
        overrides: { app: { name: "Acme Orders" } },
      });
      expect((await history(admin, "common", "app.name")).map((e) => e.change)).toEqual([
        "replace",
      ]);
      expect((await history(admin, "common", "nav.orders")).map((e) => e.text)).toEqual([
        null,
        "Requests",
      ]);
    });

    it("keeps every word when admins change different keys at the same time", async () => {
      const keys = ["title", "empty", "detail.title", "pager.page"];
      const texts: Record<string, string> = {
        title: "T",
        empty: "E",
        "detail.title": "D {{number}}",
        "pager.page": "P {{page}}",
      };
      const answers = await Promise.all(
        keys.map((k) => setWord(admin, "orders", k, "en", texts[k] as string)),
      );
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect(await overrides(admin, "orders", "en")).toEqual({
        title: "T",
        empty: "E",
        detail: { title: "D {{number}}" },
        pager: { page: "P {{page}}" },
      });
      for (const k of keys) expect(await history(admin, "orders", k)).toHaveLength(1);
    });

    it("keeps tenants apart and lets only admins see history or revert", async () => {
      await setWord(admin, "orders", "title", "en", "Alpha words");
      const [entry] = await history(admin, "orders", "title");
      const otherAdmin = await userToken(gw, b.admin.email);
      expect(await history(otherAdmin, "orders", "title")).toEqual([]);
      const stolen = await call(otherAdmin, "POST", `${key("orders", "title")}/revert`, {
        history_id: entry?.id,
      });
      expect(stolen.statusCode).toBe(404);
      expect(await overrides(otherAdmin, "orders", "en")).toEqual({});

      const member = await userToken(gw, a.member.email);
      for (const response of [
        await call(member, "GET", `${key("orders", "title")}/history`),
        await setWord(member, "orders", "title", "en", "Mine"),
        await call(member, "DELETE", `${key("orders", "title")}?language=en`),
        await call(member, "POST", `${key("orders", "title")}/revert`, { history_id: entry?.id }),
      ]) {
        expect(response.statusCode).toBe(403);
        expect(json(response).code).toBe("role_forbidden");
      }
      expect(await overrides(admin, "orders", "en")).toEqual({ title: "Alpha words" });
    });

    it("tells subscribers which tenant, namespace and language changed (for the event stream)", async () => {
      const heard: unknown[] = [];
      const stop = gw.vocabulary.onChanged((change) => heard.push(change));
      gw.vocabulary.onChanged(() => {
        throw new Error("a broken listener changes nothing");
      });
      expect((await setWord(admin, "orders", "title", "de", "Aufträge!")).statusCode).toBe(200);
      await call(admin, "PUT", "/v1/tenant/i18n-config/common", { language: "en", overrides: {} });
      await setWord(admin, "orders", "title", "de", "{{evil}}");
      stop();
      await setWord(admin, "orders", "title", "de", "Nicht gehört");
      expect(heard).toEqual([
        { tenantId: a.id, namespace: "orders", language: "de", at: clock.ms },
        { tenantId: a.id, namespace: "common", language: "en", at: clock.ms },
      ]);
    });

    it("refuses bad keys, languages and history ids clearly", async () => {
      const bad = await setWord(admin, "orders", "a.__proto__.b", "en", "x");
      expect(bad.statusCode).toBe(400);
      expect(json(bad).code).toBe("overrides_invalid");
      const empty = await setWord(admin, "orders", "a..b", "en", "x");
      expect(empty.statusCode).toBe(400);
      const language = await setWord(admin, "orders", "title", "xx", "x");
      expect(language.statusCode).toBe(422);
      expect(json(language).code).toBe("language_unsupported");
      const id = await call(admin, "POST", `${key("orders", "title")}/revert`, {
        history_id: "abc",
      });
      expect(id.statusCode).toBe(400);
      expect(await overrides(admin, "orders", "en")).toEqual({});
    });
  },
);

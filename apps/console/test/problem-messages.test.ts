import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ERROR_CATALOGUE } from "@orderline/gateway";
import { INPUT_LIMITS } from "@orderline/gateway/contract";
import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { ApiError } from "../src/lib/api.js";
import { fieldProblems, PROBLEM_CODES, problemText, textLength } from "../src/lib/problem-text.js";

const LOCALES = fileURLToPath(new URL("../locales/", import.meta.url));
const LANGUAGES = ["en", "id", "de"] as const;
type Tree = { [key: string]: string | Tree };

const dictionary = (language: string, namespace: string): Tree =>
  JSON.parse(readFileSync(`${LOCALES}${language}/${namespace}.json`, "utf8")) as Tree;

const leaves = (tree: Tree, prefix = ""): [string, string][] =>
  Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "string" ? [[`${prefix}${key}`, value]] : leaves(value, `${prefix}${key}.`),
  );

/** The console's words with the real i18next, as the app runs it (plural rules included). */
const translator = async (language: string) => {
  const i18n = createInstance();
  const namespaces = readdirSync(`${LOCALES}en`).map((file) => file.replace(/\.json$/, ""));
  const resources = Object.fromEntries(
    LANGUAGES.map((l) => [l, Object.fromEntries(namespaces.map((n) => [n, dictionary(l, n)]))]),
  );
  await i18n.init({
    lng: language,
    resources,
    ns: namespaces,
    interpolation: { escapeValue: false },
  });
  return i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;
};

const problem = (code: string, body: Record<string, unknown> = {}) =>
  new ApiError(400, code, "English detail from the gateway", { code, ...body });

describe("the console's messages for the gateway's problems", () => {
  it("has a message in every language for every code in the gateway's catalogue", () => {
    // A code the gateway adds must be given words here (and in problem-text.ts) first.
    const unworded = Object.keys(ERROR_CATALOGUE).filter(
      (code) => !(PROBLEM_CODES as readonly string[]).includes(code),
    );
    expect(unworded).toEqual([]);
    const codes = [...PROBLEM_CODES];
    for (const language of LANGUAGES) {
      const messages = dictionary(language, "problems").code as Record<string, string>;
      const missing = codes.filter(
        (code) => !(typeof messages[code] === "string" && messages[code]),
      );
      expect({ language, missing }).toEqual({ language, missing: [] });
      expect(typeof messages.unknown).toBe("string");
    }
  });

  it("never names an operator setting or quotes validator words in any language", () => {
    for (const language of LANGUAGES) {
      for (const file of readdirSync(`${LOCALES}${language}`)) {
        const tree = dictionary(language, file.replace(/\.json$/, ""));
        for (const [key, text] of leaves(tree)) {
          expect({ key, text }).not.toEqual({
            key,
            text: expect.stringMatching(/GATEWAY_[A-Z_]+/),
          });
          expect({ key, text }).not.toEqual({ key, text: expect.stringMatching(/must NOT have/) });
        }
      }
    }
  });

  it("counts through plural forms wherever a number is counted", () => {
    for (const language of LANGUAGES) {
      for (const file of readdirSync(`${LOCALES}${language}`)) {
        for (const [key, text] of leaves(dictionary(language, file.replace(/\.json$/, "")))) {
          if (/\{\{count\b/.test(text)) expect(key).toMatch(/_(zero|one|two|few|many|other)$/);
        }
      }
    }
  });

  it("says a throttled sign-in's wait with the language's plural rules", async () => {
    const en = await translator("en");
    const de = await translator("de");
    const id = await translator("id");
    const wait = (seconds: number) => problem("login_throttled", { retry_after: seconds });
    expect(problemText(wait(1), en)).toBe("Too many failed sign-ins. Try again in 1 second.");
    expect(problemText(wait(30), en)).toBe("Too many failed sign-ins. Try again in 30 seconds.");
    expect(problemText(wait(1), de)).toBe(
      "Zu viele fehlgeschlagene Anmeldeversuche. Versuchen Sie es in 1 Sekunde noch einmal.",
    );
    expect(problemText(wait(30), de)).toContain("in 30 Sekunden");
    expect(problemText(wait(1), id)).toBe(
      "Terlalu banyak upaya masuk yang gagal. Coba lagi dalam 1 detik.",
    );
  });

  it("chooses by code, never showing the gateway's English detail; an unknown code gets a general message", async () => {
    const de = await translator("de");
    const key = problemText(problem("partner_key_invalid"), de);
    expect(key).toContain("öffentliche Schlüssel kann nicht verwendet werden");
    expect(key).not.toContain("English detail");
    const url = problemText(problem("webhook_url_invalid"), de);
    expect(url).not.toMatch(/GATEWAY_/);
    expect(problemText(problem("a_code_from_the_future"), de)).toBe(
      "Etwas ist schiefgegangen. Versuchen Sie es noch einmal; wenn es wieder passiert, informieren Sie Ihre Administration.",
    );
    expect(problemText(new ApiError(0, "network", "fetch failed"), de)).toMatch(/Gateway/);
  });

  it("puts field errors beside their field from the pointers, in words, with the limit in the language's digits", async () => {
    const refused = problem("validation_failed", {
      errors: [
        {
          in: "body",
          pointer: "/url",
          message: "must NOT have more than 2048 characters",
          keyword: "maxLength",
          limit: INPUT_LIMITS.webhookUrl,
        },
        {
          in: "body",
          pointer: "/events",
          message: "must NOT have fewer than 1 items",
          keyword: "minItems",
          limit: 1,
        },
        {
          in: "body",
          pointer: "/name",
          message: "must NOT have fewer than 1 characters",
          keyword: "minLength",
          limit: 1,
        },
        {
          in: "body",
          pointer: "/colour",
          message: "is not a known property",
          keyword: "additionalProperties",
        },
      ],
    });
    const de = Object.fromEntries(fieldProblems(refused, await translator("de")));
    expect(de).toEqual({
      url: "Zu lang: höchstens 2.048 Zeichen.",
      events: "Wählen Sie mindestens 1.",
      name: "Pflichtfeld.",
      colour: "Hier nicht gültig.",
    });
    const id = Object.fromEntries(fieldProblems(refused, await translator("id")));
    expect(id.url).toBe("Terlalu panjang: paling banyak 2.048 karakter.");
    const en = Object.fromEntries(fieldProblems(refused, await translator("en")));
    expect(en.url).toBe("Too long: at most 2,048 characters.");
    expect(Object.values(en).join(" ")).not.toMatch(/must NOT|known property/);
  });

  it("counts length as the gateway does: in characters, not UTF-16 units", () => {
    expect(textLength("😀é")).toBe(2);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { login, signedHeaders, startGateway, type TestPartner } from "./helpers.js";
import { httpMessage, rawRequest } from "./support/raw-http.js";
import { storeKinds } from "./support/stores.js";
import { createTenant, TEST_USERS_CONFIG, tenantPartner, userToken } from "./support/tenants.js";

/**
 * A bounded fuzz of every operation in the OpenAPI document: well-authenticated requests with one
 * bad value put into a body field, a path or query parameter or a header the API reads. Fixed
 * seed, so a failure repeats. Nothing may answer 5xx, and every error is problem+json.
 */

const SEED = 0x5eed_1234;

const STREAMS_THAT_END_SOON = {
  heartbeatSeconds: 15,
  pollMs: 100,
  maxStreamSeconds: 1,
  settleMs: 5000,
  recheckMs: 60_000,
};

/** mulberry32: small, fast, good enough to pick test cases. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Bad text as a JSON body carries it (JSON.stringify escapes lone surrogates as \udXXX). */
const BAD_STRINGS = [
  "\u0000",
  "a\u0000b",
  "A\ud800B",
  "\udfff",
  "\u0085",
  "\u007f",
  "\u001b[31m",
  "line\nbreak",
  "\r\n",
  "\t",
  "",
  " ",
  "\ufeff",
  "\u202e",
  "💥",
  "x".repeat(5000),
  "' OR 1=1 --",
  "../../etc/passwd",
  "%00",
  "null",
  "1e309",
  "-1",
];
/** Path and query values: percent-escapes, some of them not UTF-8. */
const BAD_URL_VALUES = [
  "%00",
  "%ff%fe",
  "%ED%A0%80",
  "%C2%85",
  "%0A",
  "a%2Fb",
  "%25",
  "x".repeat(300),
  "%F0%9F%92%A5",
  "..",
];
/** Header values as raw Latin-1 bytes (UTF-8 bytes of non-ASCII text included). */
const BAD_HEADER_VALUES = [
  "\u0001",
  "\u00c3\u00bc",
  "\u0085",
  "\u007f",
  "x".repeat(9000),
  "Bearer \u0000",
  "",
  "ä",
];
const READ_HEADERS = [
  "authorization",
  "x-client-id",
  "x-timestamp",
  "x-signature",
  "idempotency-key",
  "accept-language",
  "if-none-match",
  "content-type",
];

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
};

let counter = 0;
/** A value that fits the schema's shape (not always its every rule). */
function sample(schema: Schema | undefined): unknown {
  if (!schema) return "x";
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object":
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(s)]),
      );
    case "array":
      return [sample(schema.items)];
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    default:
      counter += 1;
      return `fuzz-${counter}`;
  }
}

/** Every path to a string leaf of `value`. */
function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringPaths(item, [...path, i]));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
  return [];
}

function setAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}

interface Operation {
  method: string;
  path: string;
  params: string[];
  query: string[];
  body?: Schema;
  security: "partner" | "user" | "none";
}

function operationsOf(document: {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const parameters = (op.parameters ?? []) as { in: string; name: string }[];
      const security = JSON.stringify(op.security ?? []);
      const body = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)
        ?.content?.["application/json"]?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        params: parameters.filter((p) => p.in === "path").map((p) => p.name),
        query: parameters.filter((p) => p.in === "query").map((p) => p.name),
        ...(body ? { body } : {}),
        security: security.includes("JWT-auth")
          ? "partner"
          : security.includes("User-JWT")
            ? "user"
            : "none",
      });
    }
  }
  return operations;
}

describe.each(storeKinds)("fuzzing every documented operation (%s store)", (kind) => {
  let gw: Gateway;
  let base: string;
  let partner: TestPartner;
  let partnerToken: string;
  let userBearer: string;

  beforeAll(async () => {
    gw = await startGateway({
      store: kind,
      // A fuzzed request that still opens an event stream gets its 200 head and a stream that
      // ends within a second, instead of one that heartbeats for an hour.
      config: { users: TEST_USERS_CONFIG, events: STREAMS_THAT_END_SOON },
    });
    base = await gw.app.listen({ port: 0, host: "127.0.0.1" });
    const tenant = await createTenant(gw, "Fuzz");
    partner = await tenantPartner(gw, tenant.id);
    partnerToken = await login(gw, partner);
    userBearer = await userToken(gw, tenant.admin.email);
  });
  afterAll(async () => {
    await gw.close();
  });

  it("answers a poisoned value in every field, parameter and read header without a 5xx", async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as Parameters<
      typeof operationsOf
    >[0];
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThanOrEqual(12);
    const next = random(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

    // Every body string, path and query parameter of every operation twice (with two bad values
    // drawn), bytes that are not UTF-8 in a body field, and the read headers in turn (three per
    // operation, all of them overall).
    type Case = { op: Operation; target: string; at: string | (string | number)[] };
    const cases: Case[] = [];
    let headerTurn = 0;
    for (const op of operations) {
      const bodyPaths = op.body ? stringPaths(sample(op.body)) : [];
      for (let round = 0; round < 2; round++) {
        for (const path of bodyPaths) cases.push({ op, target: "body", at: path });
        for (const name of op.params) cases.push({ op, target: "param", at: name });
        for (const name of op.query) cases.push({ op, target: "query", at: name });
      }
      if (bodyPaths.length > 0) cases.push({ op, target: "bytes", at: pick(bodyPaths) });
      for (let i = 0; i < 3; i++) {
        cases.push({
          op,
          target: "header",
          at: READ_HEADERS[headerTurn++ % READ_HEADERS.length] as string,
        });
      }
    }
    expect(cases.length).toBeGreaterThan(100);
    expect(cases.length).toBeLessThan(700);
    const failures: string[] = [];
    const statuses = new Map<number, number>();

    for (const { op, target, at } of cases) {
      const auth: Record<string, string> =
        op.security === "partner"
          ? signedHeaders(partner, partnerToken, String(Math.floor(Date.now() / 1000)))
          : op.security === "user"
            ? { authorization: `Bearer ${userBearer}` }
            : {};
      const params = Object.fromEntries(op.params.map((name) => [name, "booking"]));
      const query: Record<string, string> = {};
      const headers: Record<string, string> = { ...auth };
      let body = op.body ? sample(op.body) : undefined;
      let bodyBytes: Buffer | undefined;
      let what: string;
      if (target === "param") {
        params[at as string] = pick(BAD_URL_VALUES);
        what = `param ${at}=${params[at as string]?.slice(0, 20)}`;
      } else if (target === "query") {
        query[at as string] = pick(BAD_URL_VALUES);
        what = `query ${at}=${query[at as string]?.slice(0, 20)}`;
      } else if (target === "header") {
        headers[at as string] = pick(BAD_HEADER_VALUES);
        what = `header ${at}=${JSON.stringify(headers[at as string]?.slice(0, 20))}`;
      } else if (target === "body") {
        const bad = pick(BAD_STRINGS);
        body = setAt(body, at as (string | number)[], bad);
        what = `body /${(at as (string | number)[]).join("/")}=${JSON.stringify(bad.slice(0, 20))}`;
      } else {
        body = setAt(body, at as (string | number)[], "@@BYTES@@");
        const [before, after] = JSON.stringify(body).split("@@BYTES@@") as [string, string];
        bodyBytes = Buffer.concat([
          Buffer.from(before),
          Buffer.from([0x4a, 0xfc, 0xff, 0xc0, 0x80]),
          Buffer.from(after),
        ]);
        what = `bytes /${(at as (string | number)[]).join("/")}`;
      }

      const url =
        op.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? "x") +
        (Object.keys(query).length
          ? `?${Object.entries(query)
              .map(([k, v]) => `${k}=${v}`)
              .join("&")}`
          : "");
      const payload =
        bodyBytes ?? (body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
      if (payload && headers["content-type"] === undefined)
        headers["content-type"] = "application/json";
      const message = httpMessage(op.method, url, headers, payload);
      const sent = `${op.method} ${op.path} with ${what}`;
      const response = await rawRequest(base, message).catch((error: Error) => error);
      if (response instanceof Error) {
        failures.push(`${sent}: ${response.message}`);
        continue;
      }
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const label = `${sent} → ${response.status}`;
      if (response.status >= 500) failures.push(`${label}: ${response.body.slice(0, 200)}`);
      else if (
        response.status >= 400 &&
        !/^application\/problem\+json/.test(response.headers["content-type"] ?? "")
      )
        failures.push(`${label} not problem+json: ${response.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    // The fuzz reached past authentication, not only the front door.
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(cases.length / 4);
    // Every documented operation, every field: minutes on a busy machine, not a hang.
  }, 300_000);
});

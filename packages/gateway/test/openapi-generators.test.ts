import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.js";
import { TENANT_ONLY_CODES } from "../src/http/problem-audiences.js";
import { startGateway, tempDir } from "./helpers.js";

// What client generators and API linters make of the served reference documents, with the
// tools partners use: Redocly's recommended rules, openapi-typescript and tsc --strict.

// biome-ignore lint/suspicious/noExplicitAny: OpenAPI documents are open-ended JSON.
type Json = any;

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const bin = (pkg: string, file: string) =>
  join(dirname(require.resolve(`${pkg}/package.json`)), file);

let gw: Gateway & { dir: string };
const docs: Record<string, { path: string; doc: Json }> = {};
const work = tempDir();
// Limits that only a hang reaches: linting, generating and compiling take a CPU each (busy machine).

beforeAll(async () => {
  gw = await startGateway();
  await gw.app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
  for (const audience of ["partner", "tenant", "webhooks"]) {
    const text = await (await fetch(`${base}/openapi/${audience}.json`)).text();
    const path = join(work.dir, `${audience}.json`);
    writeFileSync(path, text);
    docs[audience] = { path, doc: JSON.parse(text) };
  }
}, 300_000); // a hang bound: a gateway start took over 60 s on a busy shared machine
afterAll(async () => {
  await gw.close();
  work.cleanup();
});

const METHODS = ["get", "put", "post", "patch", "delete"];
const operationsOf = (doc: Json): [string, Json][] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Json]),
  );

describe("the reference documents for generators", () => {
  it("lint clean with Redocly's recommended rules: no error, no warning", async () => {
    for (const [audience, { path }] of Object.entries(docs)) {
      const { stdout } = await run(
        process.execPath,
        [
          bin("@redocly/cli", "bin/cli.js"),
          "lint",
          "--extends",
          "recommended",
          "--format",
          "json",
          path,
        ],
        { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, REDOCLY_TELEMETRY: "off" } },
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
      const report = JSON.parse(stdout.slice(stdout.indexOf("{")));
      const problems = report.problems.map(
        (p: Json) => `${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer})`,
      );
      expect({ audience, problems }).toEqual({ audience, problems: [] });
      expect(docs[audience]?.doc.info.license).toEqual({
        name: "Apache-2.0",
        identifier: "Apache-2.0",
      });
    }
  }, 300_000);

  it("name their schemas; the partner's Problem lists only the codes a partner can meet", () => {
    const partner = docs.partner?.doc;
    for (const name of ["SalesOrder", "SalesOrderInput", "Problem", "WebhookEndpoint", "Token"])
      expect(Object.keys(partner.components.schemas)).toContain(name);
    const text = JSON.stringify(partner.paths);
    // The problem is one schema, referred to, not copied into each response.
    expect(text).not.toContain('"urn:orderline:problem:<code>"');
    expect(text).toContain('"$ref":"#/components/schemas/Problem"');
    const codes: string[] = partner.components.schemas.Problem.properties.code.enum;
    expect(codes).toEqual(
      expect.arrayContaining(["signature_invalid", "duplicate_purchase_order"]),
    );
    for (const code of TENANT_ONLY_CODES) expect(codes).not.toContain(code);
    expect(docs.tenant?.doc.components.schemas.Problem.properties.code.enum).toContain(
      "invalid_credentials",
    );
  });

  it("declare the signing headers on every signed operation, and security on every webhook", () => {
    const signed = operationsOf(docs.partner?.doc).filter(([, op]) =>
      (op.security ?? []).some((r: Json) => "X-SIGNATURE" in r),
    );
    expect(signed.map(([key]) => key)).toContain("POST /api/v1/sales-orders");
    for (const [key, op] of signed)
      for (const header of ["X-CLIENT-ID", "X-TIMESTAMP", "X-SIGNATURE", "X-SIGNATURE-VERSION"])
        expect({ key, refs: op.parameters.map((p: Json) => p.$ref) }).toMatchObject({
          refs: expect.arrayContaining([`#/components/parameters/${header}`]),
        });
    for (const audience of ["partner", "webhooks"])
      for (const [type, item] of Object.entries(docs[audience]?.doc.webhooks as Json))
        expect({ type, security: (item as Json).post.security }).toEqual({
          type,
          security: [{ "Orderline-Signature": [] }],
        });
  });

  it("generate a TypeScript client that compiles with --strict, with named types and typed signing headers", async () => {
    const source = astToString(await openapiTS(docs.partner?.doc));
    writeFileSync(join(work.dir, "partner.ts"), source);
    writeFileSync(
      join(work.dir, "client.ts"),
      `import type { components, operations } from "./partner.js";
export type SalesOrder = components["schemas"]["SalesOrder"];
export type Problem = components["schemas"]["Problem"];
type CreateHeaders = operations["createSalesOrder"]["parameters"]["header"];
export const headers: CreateHeaders = {
  "X-CLIENT-ID": "olc_1", "X-TIMESTAMP": "1767225600000", "X-SIGNATURE": "c2ln", "X-SIGNATURE-VERSION": "2",
};
export const numberOf = (order: SalesOrder): string => order.order_number;
export const isSignatureProblem = (p: Problem): boolean => p.code === "signature_invalid";
`,
    );
    // Must not compile: a create without its signature, and a tenant-only code.
    writeFileSync(
      join(work.dir, "wrong.ts"),
      `import type { components, operations } from "./partner.js";
export const unsigned: operations["createSalesOrder"]["parameters"]["header"] = {
  "X-CLIENT-ID": "olc_1", "X-TIMESTAMP": "1767225600",
};
export const tenantCode: components["schemas"]["Problem"]["code"] = "invalid_credentials";
`,
    );
    const result = await run(
      process.execPath,
      [
        bin("typescript", "bin/tsc"),
        "--strict",
        "--noEmit",
        "--pretty",
        "false",
        "--target",
        "es2022",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        join(work.dir, "client.ts"),
        join(work.dir, "wrong.ts"),
      ],
      { cwd: work.dir, maxBuffer: 16 * 1024 * 1024 },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const errors = result.stdout.split("\n").filter((line) => line.includes("error TS"));
    // tsc names files relative to its working directory.
    expect(errors.every((line) => line.startsWith("wrong.ts("))).toBe(true);
    expect(errors.some((line) => line.includes("X-SIGNATURE"))).toBe(true);
    expect(errors.some((line) => line.includes('"invalid_credentials"'))).toBe(true);
    expect(errors).toHaveLength(2);
  }, 300_000);
});

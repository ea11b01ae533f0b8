import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/http/app.js";

const TIMEOUT_MS = 300;
let app: Awaited<ReturnType<typeof buildApp>>;
let base: string;
let lateAnswers = 0;

beforeAll(async () => {
  app = await buildApp({
    logger: pino({ level: "silent" }),
    bodyLimitBytes: 1_000_000,
    requestTimeoutMs: TIMEOUT_MS,
    routes: async (instance) => {
      // A store that never answers.
      instance.get("/hang", () => new Promise(() => {}));
      // One that answers, but after the deadline.
      instance.get("/late", async () => {
        await new Promise((r) => setTimeout(r, TIMEOUT_MS * 3));
        lateAnswers++;
        return { late: true };
      });
      instance.get("/quick", async () => ({ quick: true }));
      // A route with a longer deadline of its own (as a sign-in has).
      instance.get("/patient", { config: { deadlineMs: TIMEOUT_MS * 6 } }, async () => {
        await new Promise((r) => setTimeout(r, TIMEOUT_MS * 2));
        return { patient: true };
      });
    },
  });
  base = await app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => app.close());

describe("the request deadline", () => {
  it("answers a request the store never answers 503 store_unavailable with Retry-After", async () => {
    const started = Date.now();
    const response = await fetch(`${base}/hang`);
    const waited = Date.now() - started;
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect(response.headers.get("retry-after")).toBe("2");
    const problem = (await response.json()) as { code: string; detail: string };
    expect(problem.code).toBe("store_unavailable");
    expect(problem.detail).toContain("did not answer in time");
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
  });

  it("keeps the 503 when the late answer comes after it, and the connection serves on", async () => {
    const response = await fetch(`${base}/late`);
    expect(response.status).toBe(503);
    await new Promise((r) => setTimeout(r, TIMEOUT_MS * 3));
    expect(lateAnswers).toBe(1);
    const next = await fetch(`${base}/quick`);
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual({ quick: true });
  });

  it("leaves answered requests alone, many at once, and lets a route wait longer", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${base}/quick`).then((r) => r.status)),
    );
    expect(answers.every((status) => status === 200)).toBe(true);
    const patient = await fetch(`${base}/patient`);
    expect(patient.status).toBe(200);
    expect(await patient.json()).toEqual({ patient: true });
  });
});

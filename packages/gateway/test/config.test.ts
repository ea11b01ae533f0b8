import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";

describe("loadConfig", () => {
  it("defaults to the contract's values and the embedded store under ./data", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe("sqlite:./data/gateway.db");
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.jwt.ttlSeconds).toBe(12 * 3600);
    expect(config.jwt.refreshGraceSeconds).toBe(24 * 3600);
    expect(config.jwt.sessionMaxSeconds).toBe(30 * 24 * 3600);
    expect(config.signature.maxSkewSeconds).toBe(300);
    expect(config.sqliteSynchronous).toBe("full");
  });

  it("reads the environment", () => {
    const config = loadConfig({
      PORT: "8080",
      DATABASE_URL: "sqlite:/var/lib/orderline/gw.db",
      GATEWAY_REFRESH_GRACE_SECONDS: "60",
      GATEWAY_MAX_SKEW_SECONDS: "120",
      GATEWAY_SQLITE_SYNCHRONOUS: "normal",
    });
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe("/var/lib/orderline");
    expect(config.jwt.refreshGraceSeconds).toBe(60);
    expect(config.signature.maxSkewSeconds).toBe(120);
    expect(config.sqliteSynchronous).toBe("normal");
  });

  it("takes a PostgreSQL URL, the pool size, Redis and the rate limits", () => {
    const defaults = loadConfig({});
    expect(defaults.redisUrl).toBeUndefined();
    expect(defaults.pgPoolMax).toBe(16);
    expect(defaults.rateLimit).toEqual({ windowSeconds: 60, ordersMax: 6000, loginMax: 60 });
    const config = loadConfig({
      DATABASE_URL: "postgres://orderline:pw@db.internal:5432/orderline",
      GATEWAY_PG_POOL_MAX: "8",
      REDIS_URL: "redis://redis.internal:6379",
      GATEWAY_RATE_LIMIT_WINDOW_SECONDS: "10",
      GATEWAY_RATE_LIMIT_ORDERS: "0",
      GATEWAY_RATE_LIMIT_LOGINS: "5",
    });
    expect(config.databaseUrl).toBe("postgres://orderline:pw@db.internal:5432/orderline");
    // A database server has no directory of its own: master key and demo files go to ./data.
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.pgPoolMax).toBe(8);
    expect(config.redisUrl).toBe("redis://redis.internal:6379");
    expect(config.rateLimit).toEqual({ windowSeconds: 10, ordersMax: 0, loginMax: 5 });
    expect(loadConfig({ REDIS_URL: "" }).redisUrl).toBeUndefined();
  });

  it("refuses values it cannot use instead of guessing", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow("PORT must be a non-negative integer");
    expect(() => loadConfig({ GATEWAY_SQLITE_SYNCHRONOUS: "off" })).toThrow("'full' or 'normal'");
    expect(() => loadConfig({ GATEWAY_RATE_LIMIT_ORDERS: "-1" })).toThrow(
      "GATEWAY_RATE_LIMIT_ORDERS must be a non-negative integer",
    );
  });
});

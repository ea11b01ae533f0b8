import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/config.js";
import { storeErrorKind } from "../src/observability/metrics.js";
import { tracingConfigured } from "../src/observability/otel-config.js";

describe("observability settings", () => {
  it("serve /metrics on 127.0.0.1:9464 unless GATEWAY_METRICS_LISTEN says otherwise", () => {
    expect(loadConfig({}).observability.metricsListen).toEqual({ host: "127.0.0.1", port: 9464 });
    expect(loadConfig({ GATEWAY_METRICS_LISTEN: "off" }).observability.metricsListen).toBe(
      undefined,
    );
    expect(loadConfig({ GATEWAY_METRICS_LISTEN: "9100" }).observability.metricsListen).toEqual({
      host: "127.0.0.1",
      port: 9100,
    });
    expect(
      loadConfig({ GATEWAY_METRICS_LISTEN: "0.0.0.0:9464" }).observability.metricsListen,
    ).toEqual({ host: "0.0.0.0", port: 9464 });
    expect(
      loadConfig({ GATEWAY_METRICS_LISTEN: "[::1]:9464" }).observability.metricsListen,
    ).toEqual({ host: "::1", port: 9464 });
    for (const bad of ["localhost", "1.2.3.4:", "host:99999", "a b:1"])
      expect(() => loadConfig({ GATEWAY_METRICS_LISTEN: bad }), bad).toThrow(
        "GATEWAY_METRICS_LISTEN must be off, a port or host:port",
      );
  });

  it("name the instance host:pid unless GATEWAY_INSTANCE_ID does; the token is optional", () => {
    expect(loadConfig({}).observability.instanceId).toBe(`${hostname()}:${process.pid}`);
    expect(loadConfig({ GATEWAY_INSTANCE_ID: "gw-eu-1" }).observability.instanceId).toBe("gw-eu-1");
    expect(loadConfig({}).observability.metricsToken).toBeUndefined();
    expect(loadConfig({ GATEWAY_METRICS_TOKEN: "t0k" }).observability.metricsToken).toBe("t0k");
  });

  it("trace only when the standard OTEL_* variables ask for it", () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_SERVICE_NAME: "gw" })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel:4318" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://otel:4318" })).toBe(
      true,
    );
    expect(tracingConfigured({ OTEL_TRACES_EXPORTER: "otlp" })).toBe(true);
    expect(
      tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_TRACES_EXPORTER: "none" }),
    ).toBe(false);
    expect(
      tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://x", OTEL_SDK_DISABLED: "true" }),
    ).toBe(false);
  });

  it("sort store failures into a few kinds, from the drivers' own codes", () => {
    const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });
    expect(storeErrorKind(coded("ECONNREFUSED"))).toBe("connection");
    expect(storeErrorKind(coded("57P01"))).toBe("connection");
    expect(storeErrorKind(coded("08006"))).toBe("connection");
    expect(storeErrorKind(new Error("Connection terminated unexpectedly"))).toBe("connection");
    expect(storeErrorKind(new Error("timeout exceeded when trying to connect"))).toBe("timeout");
    expect(storeErrorKind(coded("57014"))).toBe("timeout");
    expect(storeErrorKind(coded("SQLITE_BUSY"))).toBe("busy");
    expect(storeErrorKind(coded("40001"))).toBe("busy");
    expect(storeErrorKind(coded("23505"))).toBe("constraint");
    expect(storeErrorKind(coded("SQLITE_CONSTRAINT_UNIQUE"))).toBe("constraint");
    expect(storeErrorKind(new TypeError("undefined is not a function"))).toBe("other");
  });
});

/**
 * `@orderline/gateway/contract` is what the console bundles into the browser and what the
 * partner SDK's types are checked against: it must load no server code (store, HTTP, security,
 * observability, Node built-ins, dependencies) and offer what its clients use.
 */
import { describe, expect, it } from "vitest";
import * as contract from "../src/contract/index.js";
import { contractModules, valueImports } from "./support/contract-modules.js";

describe("the gateway contract (@orderline/gateway/contract)", () => {
  it("loads only pure modules: no dependency, no Node built-in, nothing of the server", () => {
    const { modules, external } = contractModules();
    expect(external).toEqual([]);
    expect(modules).toEqual([
      "contract/index",
      "domain/orders/lifecycle",
      "domain/webhooks/event-types",
      // The console's field limits: data only.
      "lib/input-limits",
      // TEST_EVENT_TYPE: the store's record types and this one constant, no statements.
      "store/webhook-store",
    ]);
  });

  it("tells type-only imports from value imports", () => {
    const source = [
      'import type { A } from "./a.js";',
      'export { type B, type C } from "./b.js";',
      'export { d, type E } from "./d.js";',
      'import { f } from "node:fs";',
      'export type { G } from "./g.js";',
    ].join("\n");
    expect(valueImports(source)).toEqual(["./d.js", "node:fs"]);
  });

  it("offers the lifecycle and the webhook event types", () => {
    expect(contract.ORDER_STATUSES).toContain("received");
    expect(contract.WEBHOOK_EVENT_TYPES).toContain("order.created");
    expect(contract.ALL_EVENTS).toBe("*");
    expect(contract.nextStatuses("received", "partner")).toEqual(["cancelled"]);
  });
});

import { describe, expect, it } from "vitest";
import { DATA_FLOW_RULES } from "../src/types/data-flow/catalog.js";
import { type } from "../src/types/data-flow/index.js";
import type { DataFlowDiagram } from "../src/types/data-flow/model.js";
import { type ConformanceCase, checkWith, conformanceSuite } from "./support/conformance.js";
import { del, get, set } from "./validate-pointer.js";

/** A valid description using every field once, so each case breaks one rule by one change. */
function base(): DataFlowDiagram {
  return {
    schema_version: 2,
    diagram_type: "data-flow",
    meta: {
      title: "Base",
      direction: "down",
      views: [{ id: "v1", title: "Sign in", nodes: ["sign-in", "service"], edges: ["login"] }],
    },
    boundaries: [
      { id: "internet", label: "Internet" },
      { id: "service", label: "Service", sublabel: "TLS ends here" },
      { id: "data", label: "Data tier", boundary: "service" },
    ],
    elements: [
      { id: "customer", kind: "entity", label: "Customer", boundary: "internet" },
      { id: "sign-in", kind: "process", label: "Sign in", boundary: "service" },
      {
        id: "accounts",
        kind: "store",
        label: "Accounts",
        sublabel: "PostgreSQL",
        boundary: "data",
        component_type: "database",
      },
      { id: "mailer", kind: "entity", label: "Mail provider" },
    ],
    flows: [
      {
        id: "login",
        from: "customer",
        to: "sign-in",
        label: "Password",
        protocol: "HTTPS",
        classification: "personal",
      },
      { from: "accounts", to: "sign-in", label: "Hash", classification: "confidential" },
      { from: "sign-in", to: "customer", label: "Cookie", classification: "confidential" },
      { from: "sign-in", to: "mailer", label: "Sign-in notice", classification: "internal" },
    ],
  };
}

const check = (d: unknown) => checkWith(type, d);

type Case = ConformanceCase<DataFlowDiagram> & {
  rule: keyof typeof DATA_FLOW_RULES | "id/duplicate" | `schema/${string}`;
};

const CASES: Record<string, Case> = {
  "a flow end names an element (did you mean)": {
    rule: "ref/element",
    path: "/flows/1/from",
    fail: (d) => set(d, "/flows/1/from", "acounts"),
    pass: (d) => set(d, "/flows/1/to", "sign-in"),
    suggestion: 'did you mean "accounts"?',
  },
  "a flow end is not a boundary": {
    rule: "ref/element",
    path: "/flows/0/to",
    fail: (d) => set(d, "/flows/0/to", "service"),
    pass: (d) => set(d, "/meta/views/0/nodes/-", "internet"),
    says: "is a trust boundary",
  },
  "an element's boundary is declared (did you mean)": {
    rule: "ref/boundary",
    path: "/elements/0/boundary",
    fail: (d) => set(d, "/elements/0/boundary", "internt"),
    pass: (d) => del(d, "/elements/3/boundary"),
    suggestion: 'did you mean "internet"?',
  },
  "a boundary's boundary is a boundary, not an element": {
    rule: "ref/boundary",
    path: "/boundaries/2/boundary",
    fail: (d) => set(d, "/boundaries/2/boundary", "sign-in"),
    pass: (d) => set(d, "/boundaries/2/boundary", "internet"),
    says: "is a process, not a trust boundary",
  },
  "a view edge names a flow id": {
    rule: "ref/flow",
    path: "/meta/views/0/edges/0",
    fail: (d) => set(d, "/meta/views/0/edges/0", "logn"),
    pass: (d) => del(d, "/meta/views/0/edges"),
    suggestion: 'did you mean "login"?',
  },
  "a view node names an element or a boundary": {
    rule: "ref/element",
    path: "/meta/views/0/nodes/0",
    fail: (d) => set(d, "/meta/views/0/nodes/0", "sign-on"),
    pass: (d) => set(d, "/meta/views/0/nodes/0", "data"),
    suggestion: 'did you mean "sign-in"?',
  },
  "elements and boundaries share one set of ids": {
    rule: "id/duplicate",
    path: "/elements/4/id",
    fail: (d) => set(d, "/elements/-", { id: "internet", kind: "entity", label: "Internet" }),
    // Flows have their own ids.
    pass: (d) => set(d, "/flows/1/id", "accounts"),
  },
  "flow ids are unique": {
    rule: "id/duplicate",
    path: "/flows/2/id",
    fail: (d) => set(d, "/flows/2/id", "login"),
    pass: (d) => set(d, "/flows/2/id", "cookie"),
  },
  "boundaries do not enclose themselves": {
    rule: "boundary/cycle",
    path: "/boundaries/1/boundary",
    fail: (d) => set(d, "/boundaries/1/boundary", "data"),
    pass: (d) => set(d, "/boundaries/1/boundary", "internet"),
    says: "service → data → service",
  },
  "a boundary encloses something": {
    rule: "boundary/empty",
    path: "/boundaries/3",
    at: "object",
    fail: (d) => set(d, "/boundaries/-", { id: "dmz", label: "DMZ" }),
    // Enclosing only a boundary is enough.
    pass: (d) => {
      set(d, "/boundaries/-", { id: "dmz", label: "DMZ" });
      set(d, "/boundaries/0/boundary", "dmz");
    },
  },
  "a flow joins two elements": {
    rule: "flow/self",
    path: "/flows/4/to",
    fail: (d) =>
      set(d, "/flows/-", {
        from: "sign-in",
        to: "sign-in",
        label: "Retry",
        classification: "internal",
      }),
    pass: (d) =>
      set(d, "/flows/-", {
        from: "sign-in",
        to: "accounts",
        label: "Last sign-in",
        classification: "internal",
      }),
  },
  "no flow from entity to entity": {
    rule: "flow/no-process",
    path: "/flows/4",
    at: "object",
    fail: (d) =>
      set(d, "/flows/-", {
        from: "customer",
        to: "mailer",
        label: "E-mail",
        classification: "personal",
      }),
    pass: (d) =>
      set(d, "/flows/-", {
        from: "mailer",
        to: "sign-in",
        label: "Bounce",
        classification: "internal",
      }),
    says: 'from external entity "customer" to external entity "mailer"',
  },
  "no flow from entity to store": {
    rule: "flow/no-process",
    path: "/flows/4",
    at: "object",
    fail: (d) =>
      set(d, "/flows/-", {
        from: "customer",
        to: "accounts",
        label: "Profile",
        classification: "personal",
      }),
    pass: (d) =>
      set(d, "/flows/-", {
        from: "sign-in",
        to: "accounts",
        label: "Profile",
        classification: "personal",
      }),
  },
  "no flow from store to store": {
    rule: "flow/no-process",
    path: "/flows/4",
    at: "object",
    fail: (d) => {
      set(d, "/elements/-", { id: "backup", kind: "store", label: "Backup" });
      set(d, "/flows/-", {
        from: "accounts",
        to: "backup",
        label: "Copy",
        classification: "confidential",
      });
    },
    pass: (d) => {
      set(d, "/elements/-", { id: "backup", kind: "store", label: "Backup" });
      set(d, "/flows/-", {
        from: "sign-in",
        to: "backup",
        label: "Copy",
        classification: "confidential",
      });
    },
  },
  "every process has an input": {
    rule: "process/input",
    path: "/elements/1",
    at: "object",
    fail: (d) => {
      del(d, "/flows/1");
      del(d, "/flows/0");
      del(d, "/meta/views/0/edges");
      del(d, "/elements/2");
      del(d, "/boundaries/2");
    },
    // One input is enough.
    pass: (d) => {
      del(d, "/flows/1");
      del(d, "/elements/2");
      del(d, "/boundaries/2");
    },
  },
  "every process has an output": {
    rule: "process/output",
    path: "/elements/1",
    at: "object",
    fail: (d) => {
      del(d, "/flows/3");
      del(d, "/flows/2");
      del(d, "/elements/3");
    },
    pass: (d) => {
      del(d, "/flows/3");
      del(d, "/elements/3");
    },
  },
  "every entity and store takes part in a flow": {
    rule: "element/unconnected",
    path: "/elements/4",
    at: "object",
    fail: (d) => set(d, "/elements/-", { id: "archive", kind: "store", label: "Archive" }),
    pass: (d) => {
      set(d, "/elements/-", { id: "archive", kind: "store", label: "Archive" });
      set(d, "/flows/-", {
        from: "archive",
        to: "sign-in",
        label: "Old hashes",
        classification: "confidential",
      });
    },
  },
  "a flow's label is required, its classification is not": {
    rule: "schema/required",
    path: "/flows/1/label",
    at: "object",
    fail: (d) => del(d, "/flows/1/label"),
    pass: (d) => del(d, "/flows/1/classification"),
  },
  "a classification is one of four (did you mean)": {
    rule: "schema/enum",
    path: "/flows/1/classification",
    fail: (d) => set(d, "/flows/1/classification", "confidental"),
    pass: (d) => set(d, "/flows/1/classification", "public"),
    suggestion: 'did you mean "confidential"?',
  },
  "an element kind is one of three": {
    rule: "schema/enum",
    path: "/elements/1/kind",
    fail: (d) => set(d, "/elements/1/kind", "proces"),
    pass: (d) => set(d, "/elements/3/kind", "entity"),
    suggestion: 'did you mean "process"?',
  },
  "the direction is in meta, one of four": {
    rule: "schema/enum",
    path: "/meta/direction",
    fail: (d) => set(d, "/meta/direction", "dwon"),
    pass: (d) => set(d, "/meta/direction", "left"),
    suggestion: 'did you mean "down"?',
  },
  "unknown properties are refused (did you mean)": {
    rule: "schema/additionalProperties",
    path: "/flows/0/protocl",
    at: "key",
    fail: (d) => {
      const f = get(d, "/flows/0") as Record<string, unknown>;
      f.protocl = f.protocol;
      delete f.protocol;
    },
    pass: (d) => set(d, "/flows/0/protocol", "HTTP/2 over TLS"),
    suggestion: 'did you mean "protocol"?',
  },
};

describe("data-flow conformance: each rule passes and fails", () => {
  conformanceSuite(type, base, CASES, Object.keys(DATA_FLOW_RULES));

  it("a misspelt flow end gives one problem, not also a process without input", () => {
    const d = base();
    set(d, "/flows/0/to", "sign-on");
    expect(check(d).problems.map((p) => p.rule)).toEqual(["ref/element"]);
  });

  it("reports every problem at once, sorted by position", () => {
    const d = base();
    set(d, "/meta/direction", "sideways");
    set(d, "/elements/0/boundary", "nowhere");
    set(d, "/flows/-", { from: "customer", to: "mailer", label: "Spam", classification: "public" });
    set(d, "/flows/-", { from: "sign-in", to: "sign-in", label: "Loop", classification: "secret" });
    expect(check(d).problems.map((p) => `${p.rule} ${p.path}`)).toEqual([
      "schema/enum /meta/direction",
      "ref/boundary /elements/0/boundary",
      "flow/no-process /flows/4",
      "flow/self /flows/5/to",
      "schema/enum /flows/5/classification",
    ]);
  });
});

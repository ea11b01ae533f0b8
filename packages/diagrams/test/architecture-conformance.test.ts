import { describe, expect, it } from "vitest";
import { ARCHITECTURE_RULES } from "../src/types/architecture/catalog.js";
import { type } from "../src/types/architecture/index.js";
import { layoutArchitecture } from "../src/types/architecture/layout.js";
import type { ArchitectureDiagram } from "../src/types/architecture/model.js";
import { type ConformanceCase, checkWith, conformanceSuite } from "./support/conformance.js";
import { del, set } from "./validate-pointer.js";

/** A valid description using every field once, so each case breaks one rule by one change. */
function base(): ArchitectureDiagram {
  return {
    schema_version: 2,
    diagram_type: "architecture",
    meta: {
      title: "Base",
      direction: "down",
      views: [{ id: "g1", title: "Highlight", nodes: ["api"], edges: ["r-api"] }],
    },
    elements: [
      { id: "user", kind: "person", label: "User" },
      { id: "bank", kind: "external_system", label: "Bank", hints: { rank: "last" } },
    ],
    boundaries: [
      {
        id: "shop",
        kind: "system",
        label: "Shop",
        elements: [
          {
            id: "web",
            kind: "container",
            label: "Web",
            component_type: "frontend",
            hints: { order: 1 },
          },
          {
            id: "api",
            kind: "container",
            label: "API",
            technology: "Fastify",
            description: "Orders",
            hints: { near: "web" },
          },
        ],
        boundaries: [
          {
            id: "data",
            kind: "network",
            label: "Data",
            elements: [
              {
                id: "db",
                kind: "database",
                label: "DB",
                brand: { name: "PostgreSQL", monogram: "PG" },
              },
              { id: "jobs", kind: "queue", label: "Jobs" },
            ],
          },
        ],
      },
    ],
    relationships: [
      { from: "user", to: "web", label: "uses", technology: "HTTPS" },
      { id: "r-api", from: "web", to: "api", kind: "sync" },
      { from: "api", to: "db", kind: "data" },
      { from: "api", to: "jobs", kind: "async" },
      { from: "api", to: "bank" },
      { from: "user", to: "shop", label: "trusts" },
    ],
    views: [
      { id: "context", title: "Context" },
      { id: "inside", title: "Inside", caption: "The shop", expand: ["shop"] },
      { id: "all", title: "All", expand: "all" },
    ],
  };
}

type Case = ConformanceCase<ArchitectureDiagram> & {
  rule: keyof typeof ARCHITECTURE_RULES | "id/duplicate" | `schema/${string}`;
};

const check = (d: unknown) => checkWith(type, d);

const CASES: Record<string, Case> = {
  "a relationship end names an element (did you mean)": {
    rule: "ref/element",
    path: "/relationships/2/to",
    fail: (d) => set(d, "/relationships/2/to", "dbb"),
    pass: (d) => set(d, "/relationships/2/to", "data"),
    suggestion: 'did you mean "db"?',
  },
  "a near hint names an element": {
    rule: "ref/element",
    path: "/boundaries/0/elements/1/hints/near",
    fail: (d) => set(d, "/boundaries/0/elements/1/hints/near", "wbe"),
    pass: (d) => set(d, "/boundaries/0/elements/1/hints/near", "data"),
    suggestion: 'did you mean "web"?',
  },
  "ids are unique across elements and boundaries": {
    rule: "id/duplicate",
    path: "/boundaries/0/boundaries/0/elements/2/id",
    fail: (d) =>
      set(d, "/boundaries/0/boundaries/0/elements/-", {
        id: "shop",
        kind: "component",
        label: "X",
      }),
    // Relationships and views have their own ids.
    pass: (d) => set(d, "/relationships/0/id", "shop"),
  },
  "relationship ids are unique": {
    rule: "id/duplicate",
    path: "/relationships/2/id",
    fail: (d) => set(d, "/relationships/2/id", "r-api"),
    pass: (d) => set(d, "/relationships/2/id", "r-db"),
  },
  "no relationship to itself": {
    rule: "relationship/self",
    path: "/relationships/1/to",
    fail: (d) => set(d, "/relationships/1/to", "web"),
    pass: (d) => set(d, "/relationships/1/to", "db"),
  },
  "no relationship between a boundary and what it holds": {
    rule: "relationship/nested",
    path: "/relationships/5",
    at: "object",
    fail: (d) => set(d, "/relationships/5/from", "db"),
    // A boundary and something outside it is fine.
    pass: (d) => set(d, "/relationships/5/from", "bank"),
  },
  "views open boundaries that exist": {
    rule: "ref/boundary",
    path: "/views/1/expand/0",
    fail: (d) => set(d, "/views/1/expand/0", "shpo"),
    pass: (d) => set(d, "/views/1/expand/0", "data"),
    suggestion: 'did you mean "shop"?',
  },
  "views open boundaries, not elements": {
    rule: "ref/boundary",
    path: "/views/1/expand/0",
    fail: (d) => set(d, "/views/1/expand/0", "api"),
    pass: (d) => set(d, "/views/1/expand", []),
  },
  "a near hint stays within its region": {
    rule: "hint/near",
    path: "/boundaries/0/elements/1/hints/near",
    fail: (d) => set(d, "/boundaries/0/elements/1/hints/near", "db"),
    pass: (d) => set(d, "/boundaries/0/elements/1/hints/near", "web"),
  },
  "a near hint names another element": {
    rule: "hint/near",
    path: "/boundaries/0/elements/1/hints/near",
    fail: (d) => set(d, "/boundaries/0/elements/1/hints/near", "api"),
    pass: (d) => del(d, "/boundaries/0/elements/1/hints"),
  },
  "a guided view edge names a relationship id": {
    rule: "ref/relationship",
    path: "/meta/views/0/edges/0",
    fail: (d) => set(d, "/meta/views/0/edges/0", "r-ap"),
    pass: (d) => del(d, "/meta/views/0/edges"),
    suggestion: 'did you mean "r-api"?',
  },
  "view ids are unique": {
    rule: "id/duplicate",
    path: "/views/2/id",
    fail: (d) => set(d, "/views/2/id", "inside"),
    pass: (d) => set(d, "/views/2/id", "everything"),
  },
  "an element kind is one of seven": {
    rule: "schema/enum",
    path: "/elements/0/kind",
    fail: (d) => set(d, "/elements/0/kind", "persn"),
    pass: (d) => set(d, "/elements/0/kind", "software_system"),
    suggestion: 'did you mean "person"?',
  },
  "a relationship kind is sync, async or data": {
    rule: "schema/enum",
    path: "/relationships/1/kind",
    fail: (d) => set(d, "/relationships/1/kind", "asnyc"),
    pass: (d) => set(d, "/relationships/1/kind", "async"),
    suggestion: 'did you mean "async"?',
  },
  "the direction in meta is one of four": {
    rule: "schema/enum",
    path: "/meta/direction",
    fail: (d) => set(d, "/meta/direction", "dwon"),
    pass: (d) => set(d, "/meta/direction", "right"),
    suggestion: 'did you mean "down"?',
  },
  "an element needs a label": {
    rule: "schema/required",
    path: "/elements/0/label",
    at: "object",
    fail: (d) => del(d, "/elements/0/label"),
    pass: (d) => set(d, "/elements/0/description", "Buys things"),
  },
};

describe("architecture conformance: each rule passes and fails", () => {
  conformanceSuite(type, base, CASES, Object.keys(ARCHITECTURE_RULES));

  it("reports every problem at once, sorted by position", () => {
    const d = base();
    set(d, "/elements/0/kind", "robot");
    set(d, "/relationships/0/to", "wbe");
    set(d, "/relationships/1/to", "web");
    set(d, "/views/0/expand", ["nothing"]);
    const problems = check(d).problems;
    expect(problems.map((p) => p.rule)).toEqual([
      "schema/enum",
      "ref/element",
      "relationship/self",
      "ref/boundary",
    ]);
  });

  it("every view of the base description lays out", () => {
    const d = base();
    for (const v of type.views?.(d) ?? []) {
      expect(layoutArchitecture(d, v.id).elements.length).toBeGreaterThan(0);
    }
  });
});

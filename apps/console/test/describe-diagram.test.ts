import { loadType } from "@orderline/diagrams";
import { describe, expect, it } from "vitest";
import { describeDiagram } from "../scripts/lib/describe-diagram.mjs";

// The Integration page's text alternative of a diagram, derived from its description at build
// time: what a reader who cannot see the drawing gets instead.
describe("describeDiagram", () => {
  it("lists a sequence's messages in drawing order through nested fragments, with their guards", () => {
    const text = describeDiagram({
      schema_version: 2,
      diagram_type: "sequence",
      meta: { title: "Polling", locale: "de", views: [{ id: "v", title: "Poll", messages: [] }] },
      participants: [
        { id: "c", type: "client", label: "Client" },
        { id: "s", type: "backend", label: "Server" },
      ],
      steps: [
        { kind: "call", from: "c", to: "s", label: "start", activate: true },
        { kind: "note", participants: ["s"], text: "not a message" },
        { kind: "divider", label: "later" },
        {
          kind: "loop",
          guard: "every minute",
          steps: [
            { kind: "activate", participant: "s" },
            {
              kind: "alt",
              branches: [
                { guard: "ready", steps: [{ kind: "reply", from: "s", to: "c", label: "done" }] },
                { steps: [{ kind: "async", from: "s", to: "s" }] },
              ],
            },
          ],
        },
      ],
    });
    expect(text.language).toBe("de");
    expect(text.subtitle).toBe("");
    expect(text.views).toEqual([{ title: "Poll", caption: "" }]);
    expect(text.transitions).toBeUndefined();
    expect(text.sequence).toEqual([
      { kind: "message", number: 1, from: "Client", to: "Server", label: "start", guards: [] },
      { kind: "divider", label: "later" },
      {
        kind: "message",
        number: 2,
        from: "Server",
        to: "Client",
        label: "done",
        guards: ["every minute", "ready"],
      },
      {
        kind: "message",
        number: 3,
        from: "Server",
        to: "Server",
        label: "",
        guards: ["every minute"],
      },
    ]);
  });

  it("lists a lifecycle's transitions in UML words, naming unlabelled and nested states", () => {
    const text = describeDiagram({
      schema_version: 2,
      diagram_type: "lifecycle",
      meta: { title: "Door", subtitle: "A door" },
      states: [
        { id: "i", kind: "initial" },
        { id: "open", label: "Open", states: [{ id: "ajar", label: "Ajar" }] },
        { id: "q", kind: "choice" },
        { id: "f", kind: "final" },
      ],
      transitions: [
        { from: "i", to: "ajar" },
        { from: "ajar", to: "q", event: "push", guard: "unlocked", action: "creak" },
        { from: "q", to: "f", action: "slam" },
      ],
    });
    expect(text.language).toBe("en");
    expect(text.sequence).toBeUndefined();
    expect(text.transitions).toEqual([
      { from: { kind: "initial" }, to: { label: "Ajar" }, text: "" },
      { from: { label: "Ajar" }, to: { kind: "choice" }, text: "push [unlocked] / creak" },
      { from: { kind: "choice" }, to: { kind: "final" }, text: "/ slam" },
    ]);
  });

  it("lists an architecture's parts by boundary, nested, and its relationships with technology", () => {
    const text = describeDiagram({
      schema_version: 2,
      diagram_type: "architecture",
      meta: { title: "Shop" },
      elements: [{ id: "customer", kind: "person", label: "Customer" }],
      boundaries: [
        {
          id: "shop",
          label: "Shop",
          elements: [{ id: "api", kind: "container", label: "API", technology: "Fastify" }],
          boundaries: [
            {
              id: "data",
              kind: "network",
              label: "Data tier",
              technology: "VPC",
              elements: [
                { id: "db", kind: "database", label: "Orders", description: "Orders kept" },
              ],
            },
          ],
        },
      ],
      relationships: [
        { from: "customer", to: "api", label: "orders", technology: "HTTPS" },
        { from: "api", to: "data", kind: "data" },
      ],
      views: [{ id: "context", title: "Context" }],
    });
    expect(text.architecture).toEqual({
      elements: [{ label: "Customer", kind: "person", technology: "", description: "" }],
      boundaries: [
        {
          label: "Shop",
          kind: "system",
          technology: "",
          elements: [{ label: "API", kind: "container", technology: "Fastify", description: "" }],
          boundaries: [
            {
              label: "Data tier",
              kind: "network",
              technology: "VPC",
              elements: [
                { label: "Orders", kind: "database", technology: "", description: "Orders kept" },
              ],
              boundaries: [],
            },
          ],
        },
      ],
      relationships: [
        { from: "Customer", to: "API", label: "orders", technology: "HTTPS", kind: "sync" },
        { from: "API", to: "Data tier", label: "", technology: "", kind: "data" },
      ],
    });
    // The zoom views are drawings (the build renders one SVG each), not guided views.
    expect(text.views).toEqual([]);
  });

  it("lists a data-flow's flows with the crossings the type's own boundaries report finds", async () => {
    const diagram = {
      schema_version: 2,
      diagram_type: "data-flow",
      meta: { title: "Sign-in", locale: "en" },
      boundaries: [
        { id: "internet", label: "Internet" },
        { id: "home", label: "Home network", boundary: "internet" },
        { id: "service", label: "Our service" },
      ],
      elements: [
        { id: "customer", kind: "entity", label: "Customer", boundary: "home" },
        { id: "sign-in", kind: "process", label: "Sign in", boundary: "service" },
        { id: "accounts", kind: "store", label: "Accounts", boundary: "service" },
      ],
      flows: [
        {
          from: "customer",
          to: "sign-in",
          label: "Password",
          protocol: "HTTPS",
          classification: "personal",
        },
        { from: "accounts", to: "sign-in", label: "Hash", classification: "confidential" },
        {
          id: "cookie",
          from: "sign-in",
          to: "customer",
          label: "Cookie",
          protocol: "HTTPS",
          classification: "internal",
        },
      ],
    };
    const type = await loadType("data-flow");
    const rows = type.reports?.boundaries?.rows(diagram) ?? [];
    const text = describeDiagram(diagram, { boundaries: rows });
    expect(text.flows).toEqual([
      {
        from: "Customer",
        to: "Sign in",
        label: "Password",
        protocol: "HTTPS",
        classification: "personal",
        crosses: { outOf: ["Home network", "Internet"], into: ["Our service"] },
      },
      {
        from: "Accounts",
        to: "Sign in",
        label: "Hash",
        protocol: "",
        classification: "confidential",
        crosses: null,
      },
      {
        from: "Sign in",
        to: "Customer",
        label: "Cookie",
        protocol: "HTTPS",
        classification: "internal",
        crosses: { outOf: ["Our service"], into: ["Internet", "Home network"] },
      },
    ]);
    // Without the report there is nothing to say about crossings: refused, never guessed.
    expect(() => describeDiagram(diagram)).toThrow(/boundaries/);
  });

  it("gives a workflow (or any other type) its title, subtitle and guided views only", () => {
    const text = describeDiagram({
      schema_version: 2,
      diagram_type: "workflow",
      meta: { title: "Flow", views: [{ id: "a", title: "A", caption: "first" }] },
      nodes: [],
    });
    expect(text).toEqual({
      type: "workflow",
      language: "en",
      title: "Flow",
      subtitle: "",
      views: [{ title: "A", caption: "first" }],
    });
  });
});

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

import { describe, expect, it } from "vitest";
import { exportMermaid, importMermaid } from "../src/mermaid/index.js";
import { readLabel } from "../src/mermaid/state/import.js";

const issuesOf = async (text: string, type?: "data-flow" | "workflow") => {
  const r = await importMermaid(text, type ? { type } : {});
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return { diagram: r.diagram as never as Record<string, unknown>, issues: r.issues };
};

describe("Mermaid import details", () => {
  it("reads a transition label as event [guard] / action, keeping slashes inside the event", () => {
    expect(readLabel("POST /api/v1/auth/refresh [not yet refreshed] / mark T1")).toEqual({
      event: "POST /api/v1/auth/refresh",
      guard: "not yet refreshed",
      action: "mark T1",
    });
    expect(readLabel("[ok]")).toEqual({ guard: "ok" });
    expect(readLabel("/ log")).toEqual({ action: "log" });
  });

  it("reports a statement it cannot read at its own line and column", async () => {
    const { issues } = await issuesOf("sequenceDiagram\n  A->>B: hi\n  A ?? B\n");
    expect(issues).toEqual([
      { line: 3, col: 3, message: 'cannot read "A ?? B"; not carried over' },
    ]);
  });

  it("reports a dotted data flow's line style and the classification Mermaid lacks", async () => {
    const { diagram, issues } = await issuesOf(
      "flowchart LR\n  a[Partner] -.->|order| b(Gateway)\n  b -->|row| c[(Orders)]\n",
      "data-flow",
    );
    expect((diagram.flows as { classification: string }[]).map((f) => f.classification)).toEqual([
      "internal",
      "internal",
    ]);
    expect(issues.map((i) => `${i.line}:${i.message}`)).toEqual([
      "2:a → b: dotted line not carried over (flows have one line style)",
      "2:a → b: no classification in Mermaid; marked internal",
      "3:b → c: no classification in Mermaid; marked internal",
    ]);
  });

  it("keeps a divider through Mermaid as an annotated note", async () => {
    const d = {
      schema_version: 2 as const,
      diagram_type: "sequence" as const,
      meta: { title: "Divided" },
      participants: [
        { id: "a", type: "service" as const, label: "A" },
        { id: "b", type: "service" as const, label: "B" },
      ],
      steps: [
        { kind: "call" as const, from: "a", to: "b", label: "one" },
        { kind: "divider" as const, label: "Later" },
        { kind: "call" as const, from: "a", to: "b", label: "two" },
      ],
    };
    const text = await exportMermaid(d);
    expect(text).toMatch(
      /%% @orderline \{"kind":"divider","label":"Later","participants":null,"text":null\}\n {2}Note over a,b: Later/,
    );
    const back = await importMermaid(text);
    expect(back.ok && back.diagram).toEqual(d);
  });
});

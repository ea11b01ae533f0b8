import { describe, expect, it } from "vitest";
import { wrapText } from "../src/core/text/measure.js";
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

  it("reads nodes whose id starts like a keyword (accept, accounts_db), reporting only accTitle", async () => {
    const { diagram, issues } = await issuesOf(
      [
        "flowchart LR",
        "  accTitle: Orders",
        "  accDescr {",
        "    accept --> nothing",
        "  }",
        "  accept[Accept order] --> accounts_db[(Accounts)]",
        "  accounts_db --> classify[Classify]",
        "  styled[Styled] --> accept",
        "",
      ].join("\n"),
    );
    const elements = (diagram.elements as { id: string; label: string; kind: string }[]).map(
      (e) => `${e.id}:${e.label}:${e.kind}`,
    );
    expect(elements).toEqual([
      "accept:Accept order:container",
      "accounts_db:Accounts:database",
      "classify:Classify:container",
      "styled:Styled:container",
    ]);
    expect((diagram.relationships as unknown[]).length).toBe(3);
    // The accDescr block is one statement: its lines are not read as nodes.
    expect(issues.map((i) => i.line)).toEqual([2, 3]);
  });

  it("reads states whose name starts like a keyword (style-guide, title-page, classes)", async () => {
    const { diagram, issues } = await issuesOf(
      "stateDiagram-v2\n  [*] --> draft\n  style-guide\n  title-page\n  classes\n  draft --> style-guide\n",
    );
    const ids = (diagram.states as { id: string }[]).map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining(["style-guide", "title-page", "classes"]));
    expect(diagram.meta).toEqual({ title: expect.not.stringMatching(/page/) });
    expect(issues).toEqual([]);
  });

  it("keeps multi-line labels, nodes named / and decisions, and draws the line breaks", async () => {
    const text = [
      "flowchart LR",
      '  / --> ask{Signed in?} -->|yes| home["Home',
      '  page"]',
      "  ask -->|no| login[Log in<br/>or sign up]",
      "",
    ].join("\n");
    const r = await importMermaid(text);
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const d = r.diagram as never as { diagram_type: string; nodes: Record<string, string>[] };
    expect(d.diagram_type).toBe("workflow");
    expect(d.nodes.map((n) => `${n.id}:${n.type}:${n.label}`)).toEqual([
      "n_:service:/",
      "ask:decision:Signed in?",
      "home:service:Home\npage",
      "login:service:Log in\nor sign up",
    ]);
    expect(r.issues.map((i) => `${i.line}:${i.message}`)).toEqual(['2:id "/" read as "n_"']);
    expect(wrapText("Log in\nor sign up", 13, 400)).toEqual(["Log in", "or sign up"]);
  });
});

import type { SequenceDiagram } from "../../src/types/sequence/model.js";

/** A small valid sequence that uses every field once, for one-mutation conformance cases. */
export function base(): SequenceDiagram {
  return {
    schema_version: 2,
    diagram_type: "sequence",
    meta: {
      title: "Base",
      locale: "en",
      subtitle: "Every field once",
      output: "base.svg",
      animation: "trace",
      visual_preset: "classic",
      quality_profile: "standard",
      views: [{ id: "v1", title: "View", caption: "Caption", nodes: ["a"], edges: ["m1"] }],
      legend: { mode: "auto" },
      viewBox: [800, 600],
    },
    autonumber: true,
    participants: [
      { id: "a", type: "user", label: "A" },
      {
        id: "b",
        type: "backend",
        label: "B",
        sublabel: "Sub",
        brand: { name: "Brand", monogram: "Br", color: "#112233" },
      },
      { id: "c", type: "database", label: "C" },
      { id: "w", type: "service", label: "Worker" },
    ],
    boxes: [{ id: "box", label: "Ours", participants: ["b", "c"] }],
    steps: [
      { kind: "call", id: "m1", from: "a", to: "b", label: "go", role: "main", activate: true },
      { kind: "activate", participant: "c" },
      { kind: "deactivate", participant: "c" },
      {
        kind: "alt",
        id: "f1",
        branches: [
          { guard: "ok", steps: [{ kind: "reply", from: "b", to: "a", deactivate: true }] },
          { steps: [{ kind: "reply", from: "b", to: "a", label: "no", deactivate: true }] },
        ],
      },
      { kind: "loop", guard: "again", steps: [{ kind: "async", from: "a", to: "a" }] },
      { kind: "note", position: "left", participants: ["a"], text: "Note" },
      { kind: "note", participants: ["a", "b"], text: "Over" },
      { kind: "divider", label: "Later" },
      { kind: "create", from: "b", to: "w", label: "start" },
      { kind: "destroy", from: "b", to: "w", label: "stop" },
      {
        kind: "critical",
        guard: "connect",
        steps: [{ kind: "async", from: "a", to: "b" }],
        options: [{ guard: "timeout", steps: [{ kind: "async", from: "a", to: "c" }] }],
      },
      { kind: "reply", from: "c", to: "a", label: "report", standalone: true },
    ],
  };
}

import type { LifecycleDiagram } from "./model.js";

/** What `init --type lifecycle` writes: valid, and showing every kind of state. */
export const starter: LifecycleDiagram = {
  schema_version: 2,
  diagram_type: "lifecycle",
  meta: { title: "Order lifecycle" },
  states: [
    { id: "start", kind: "initial" },
    { id: "draft", label: "Draft", sublabel: "editable by the buyer" },
    {
      id: "review",
      label: "In review",
      states: [
        { id: "review-start", kind: "initial" },
        { id: "checking", label: "Checking stock" },
        { id: "decide", kind: "choice" },
      ],
    },
    { id: "accepted", label: "Accepted" },
    { id: "rejected", label: "Rejected" },
    { id: "end", kind: "final" },
  ],
  transitions: [
    { from: "start", to: "draft" },
    { from: "draft", to: "review", event: "submit", action: "notify sales" },
    { from: "review-start", to: "checking" },
    { from: "checking", to: "decide", event: "checked" },
    { from: "decide", to: "accepted", guard: "all in stock" },
    { from: "decide", to: "rejected", guard: "out of stock", role: "error" },
    { from: "accepted", to: "end", event: "ship" },
    { from: "rejected", to: "end" },
  ],
  notes: [{ state: "draft", text: "Drafts older than 30 days are deleted." }],
};

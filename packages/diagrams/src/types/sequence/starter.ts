import type { SequenceDiagram } from "./model.js";

/** What `init --type sequence` writes: valid, and showing the format's main features. */
export const starter: SequenceDiagram = {
  schema_version: 2,
  diagram_type: "sequence",
  meta: {
    title: "Checkout",
    subtitle: "Replace the participants and steps with your own",
    animation: "trace",
    visual_preset: "classic",
    views: [
      {
        id: "pay",
        title: "Payment",
        caption: "The shop asks the payment provider",
        nodes: ["shop", "payments"],
        edges: ["charge"],
      },
    ],
  },
  autonumber: true,
  participants: [
    { id: "customer", type: "user", label: "Customer" },
    { id: "shop", type: "backend", label: "Shop", sublabel: "order service" },
    { id: "payments", type: "external", label: "Payment provider" },
  ],
  boxes: [{ id: "ours", label: "Our systems", participants: ["shop"] }],
  steps: [
    { kind: "call", from: "customer", to: "shop", label: "place order", activate: true },
    {
      kind: "call",
      id: "charge",
      from: "shop",
      to: "payments",
      label: "charge card",
      activate: true,
    },
    {
      kind: "alt",
      branches: [
        {
          guard: "approved",
          steps: [
            { kind: "reply", from: "payments", to: "shop", label: "approved", deactivate: true },
            {
              kind: "reply",
              from: "shop",
              to: "customer",
              label: "order confirmed",
              deactivate: true,
            },
          ],
        },
        {
          guard: "declined",
          steps: [
            {
              kind: "reply",
              from: "payments",
              to: "shop",
              label: "declined",
              role: "error",
              deactivate: true,
            },
            {
              kind: "reply",
              from: "shop",
              to: "customer",
              label: "payment failed",
              role: "error",
              deactivate: true,
            },
          ],
        },
      ],
    },
    {
      kind: "note",
      position: "over",
      participants: ["shop", "payments"],
      text: "Retries reuse the same payment reference",
    },
  ],
};

import { createRequire } from "node:module";
import { EDGE_ROLES } from "../../core/model.js";
import { LAYOUT_DIRECTION_SCHEMA, metaWith } from "../../core/validate/meta-with.js";
import type { SchemaValidator } from "../../core/validate/schema.js";
import { typeSchema } from "../../core/validate/schema.js";

/**
 * The lifecycle format's JSON Schema (2020-12), without the shared definitions the core adds;
 * `npm run schema:write` ships the whole of it as schema/lifecycle.schema.json and the build
 * compiles it to dist/types/lifecycle/validator.cjs.
 */
export const schema = typeSchema(
  {
    name: "lifecycle",
    title: "Orderline lifecycle (state machine) diagram description",
    description:
      "A lifecycle diagram (diagram_type lifecycle), schema_version 2. Unknown properties are refused at every level. Reference: docs/diagrams/lifecycle.md.",
    body: {
      type: "object",
      required: ["schema_version", "diagram_type", "meta", "states", "transitions"],
      additionalProperties: false,
      properties: {
        schema_version: {
          description: "Always 2: lifecycle diagrams start at the family's version 2.",
          const: 2,
        },
        diagram_type: {
          description: 'Always "lifecycle".',
          const: "lifecycle",
        },
        meta: {
          description:
            "Title and presentation of the diagram, as in every type, and the layout's direction.",
          $ref: "#/$defs/lifecycleMeta",
        },
        states: {
          description: "The top-level region's states; composite states hold their own.",
          type: "array",
          minItems: 1,
          items: {
            $ref: "#/$defs/state",
          },
        },
        transitions: {
          description: "Moves between states, each with an optional event, guard and action.",
          type: "array",
          items: {
            $ref: "#/$defs/transition",
          },
        },
        notes: {
          description: "Notes attached to states.",
          type: "array",
          items: {
            $ref: "#/$defs/note",
          },
        },
      },
    },
    defs: {
      lifecycleMeta: metaWith({ direction: LAYOUT_DIRECTION_SCHEMA }),
      state: {
        type: "object",
        required: ["id"],
        additionalProperties: false,
        properties: {
          id: {
            description: "Unique among all states, nested ones included.",
            $ref: "#/$defs/id",
          },
          kind: {
            description:
              "normal (default), initial, final, choice, fork (outgoing transitions all taken at once) or join (waits for every incoming transition).",
            enum: ["normal", "initial", "final", "choice", "fork", "join"],
          },
          label: {
            description: "The state's name; required for normal states.",
            $ref: "#/$defs/label",
          },
          sublabel: {
            description: "A smaller second line.",
            type: "string",
          },
          states: {
            description: "Normal states only: the states inside this composite state (its region).",
            type: "array",
            minItems: 1,
            items: {
              $ref: "#/$defs/state",
            },
          },
        },
        // Only a normal state needs a label: a kind that is present but wrong (`true`, a typo)
        // is the kind's one problem, not also a missing label.
        if: { required: ["kind"], properties: { kind: { not: { const: "normal" } } } },
        else: {
          required: ["label"],
          properties: {
            label: {
              $ref: "#/$defs/label",
            },
          },
        },
      },
      transition: {
        type: "object",
        required: ["from", "to"],
        additionalProperties: false,
        properties: {
          id: {
            description: "Unique among transitions; needed to name it in a guided view.",
            $ref: "#/$defs/id",
          },
          from: {
            description: "The state it leaves.",
            $ref: "#/$defs/id",
          },
          to: {
            description: "The state it enters.",
            $ref: "#/$defs/id",
          },
          event: {
            description: "What moves the machine.",
            $ref: "#/$defs/label",
          },
          guard: {
            description: "The condition, drawn [guard].",
            $ref: "#/$defs/label",
          },
          action: {
            description: "What also happens, drawn / action.",
            $ref: "#/$defs/label",
          },
          role: {
            description: "Styling as in workflow: main, branch, async, return or error.",
            enum: [...EDGE_ROLES],
          },
        },
      },
      note: {
        type: "object",
        required: ["state", "text"],
        additionalProperties: false,
        properties: {
          id: {
            $ref: "#/$defs/id",
          },
          state: {
            description: "The state the note is attached to.",
            $ref: "#/$defs/id",
          },
          text: {
            $ref: "#/$defs/label",
          },
          side: {
            description:
              "Where the note sits beside its state: left, right, above or below. Across the flow by default (right of it in a top-down drawing, below it in a left-to-right one); a side along the flow puts it on the near side across.",
            enum: ["left", "right", "above", "below"],
          },
        },
      },
    },
  },
  () => createRequire(import.meta.url)("./validator.cjs") as SchemaValidator,
);

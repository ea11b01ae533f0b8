import { createRequire } from "node:module";
import { EDGE_ROLES } from "../../core/model.js";
import { versionTwoOnly, whenPropertyIs } from "../../core/validate/branches.js";
import type { SchemaValidator } from "../../core/validate/schema.js";
import { typeSchema } from "../../core/validate/schema.js";
import { BRANCHED_KINDS, FRAGMENT_KINDS, MESSAGE_KINDS } from "./model.js";

/** The $defs entry each step kind's shape is closed in, in the order the kinds are listed. */
const STEP_SHAPES: readonly [kinds: readonly string[], shape: string][] = [
  [MESSAGE_KINDS, "message"],
  [["activate", "deactivate"], "activation"],
  [["note"], "note"],
  [["divider"], "divider"],
  [BRANCHED_KINDS, "branched"],
  [FRAGMENT_KINDS, "fragment"],
];

/**
 * The sequence format's JSON Schema (2020-12), without the shared definitions (`#/$defs/meta`,
 * `#/$defs/id`, ...) the core adds; the build writes the whole of it to
 * schema/sequence.schema.json and compiles it to dist/types/sequence/validator.cjs. A step is
 * picked by its `kind` (allOf of if/then), so each kind's shape is closed on its own.
 */
export const schema = typeSchema(
  {
    name: "sequence",
    title: "Orderline sequence diagram description",
    description:
      "A sequence diagram (diagram_type sequence), schema_version 1 or 2. Unknown properties are refused at every level. Reference: docs/diagrams/sequence.md.",
    body: {
      type: "object",
      required: ["schema_version", "diagram_type", "meta", "participants", "steps"],
      additionalProperties: false,
      properties: {
        schema_version: {
          description: "1 or 2. Version 2 adds meta.views.",
          enum: [1, 2],
        },
        diagram_type: {
          description: 'Always "sequence".',
          const: "sequence",
        },
        meta: {
          description: "Title, presentation and legend of the diagram.",
          $ref: "#/$defs/meta",
        },
        autonumber: {
          description: "Number the messages 1, 2, 3… in drawing order.",
          type: "boolean",
        },
        participants: {
          description: "The lifelines, left to right in this order.",
          type: "array",
          minItems: 1,
          items: {
            $ref: "#/$defs/participant",
          },
        },
        boxes: {
          description: "Labelled boxes grouping neighbouring participants.",
          type: "array",
          items: {
            $ref: "#/$defs/box",
          },
        },
        steps: {
          description: "What happens, top to bottom.",
          type: "array",
          minItems: 1,
          items: {
            $ref: "#/$defs/step",
          },
        },
      },
      allOf: [versionTwoOnly("meta.views needs schema_version 2.")],
    },
    defs: {
      participant: {
        type: "object",
        required: ["id", "type", "label"],
        additionalProperties: false,
        properties: {
          id: {
            $ref: "#/$defs/id",
          },
          type: {
            $ref: "#/$defs/componentType",
          },
          label: {
            $ref: "#/$defs/label",
          },
          sublabel: {
            type: "string",
          },
          brand: {
            $ref: "#/$defs/brand",
          },
        },
      },
      box: {
        type: "object",
        required: ["id", "label", "participants"],
        additionalProperties: false,
        properties: {
          id: {
            $ref: "#/$defs/id",
          },
          label: {
            $ref: "#/$defs/label",
          },
          participants: {
            description: "Participant ids, standing next to each other.",
            type: "array",
            minItems: 1,
            items: {
              $ref: "#/$defs/id",
            },
          },
        },
      },
      step: {
        description: "One step, picked by kind.",
        type: "object",
        required: ["kind"],
        properties: {
          kind: {
            enum: STEP_SHAPES.flatMap(([kinds]) => kinds),
          },
        },
        allOf: STEP_SHAPES.map(([kinds, shape]) =>
          whenPropertyIs("kind", kinds, { $ref: `#/$defs/${shape}` }),
        ),
      },
      message: {
        description:
          "call (synchronous), async, reply, create (starts the receiver's lifeline) or destroy (ends it). from equal to to: a self-message.",
        type: "object",
        required: ["kind", "from", "to"],
        additionalProperties: false,
        properties: {
          kind: {
            enum: [...MESSAGE_KINDS],
          },
          id: {
            $ref: "#/$defs/id",
          },
          from: {
            $ref: "#/$defs/id",
          },
          to: {
            $ref: "#/$defs/id",
          },
          label: {
            type: "string",
          },
          role: {
            $ref: "#/$defs/messageRole",
          },
          activate: {
            description: "Start an activation on the receiver.",
            type: "boolean",
          },
          deactivate: {
            description: "End the sender's innermost activation.",
            type: "boolean",
          },
          standalone: {
            description:
              "reply only: true for a reply that answers no open call (drawn as any reply, dashed).",
            type: "boolean",
          },
        },
      },
      activation: {
        type: "object",
        required: ["kind", "participant"],
        additionalProperties: false,
        properties: {
          kind: {
            enum: ["activate", "deactivate"],
          },
          participant: {
            $ref: "#/$defs/id",
          },
        },
      },
      note: {
        type: "object",
        required: ["kind", "participants", "text"],
        additionalProperties: false,
        properties: {
          kind: {
            const: "note",
          },
          position: {
            description: "over (default): across the participants; left or right: beside one.",
            enum: ["over", "left", "right"],
          },
          participants: {
            type: "array",
            minItems: 1,
            items: {
              $ref: "#/$defs/id",
            },
          },
          text: {
            $ref: "#/$defs/label",
          },
        },
      },
      divider: {
        type: "object",
        required: ["kind", "label"],
        additionalProperties: false,
        properties: {
          kind: {
            const: "divider",
          },
          label: {
            $ref: "#/$defs/label",
          },
        },
      },
      fragment: {
        description:
          "opt, loop, critical or break around steps, with an optional guard; a critical one may have options (what runs instead).",
        type: "object",
        required: ["kind", "steps"],
        additionalProperties: false,
        properties: {
          kind: {
            enum: [...FRAGMENT_KINDS],
          },
          id: {
            $ref: "#/$defs/id",
          },
          guard: {
            type: "string",
          },
          steps: {
            type: "array",
            items: {
              $ref: "#/$defs/step",
            },
          },
          options: {
            description: "critical only: option branches, each with a guard and its steps.",
            type: "array",
            minItems: 1,
            items: {
              $ref: "#/$defs/branch",
            },
          },
        },
      },
      branched: {
        description: "alt (one branch runs) or par (all run at once): branches with guards.",
        type: "object",
        required: ["kind", "branches"],
        additionalProperties: false,
        properties: {
          kind: {
            enum: [...BRANCHED_KINDS],
          },
          id: {
            $ref: "#/$defs/id",
          },
          branches: {
            type: "array",
            minItems: 1,
            items: {
              $ref: "#/$defs/branch",
            },
          },
        },
      },
      branch: {
        type: "object",
        required: ["steps"],
        additionalProperties: false,
        properties: {
          guard: {
            type: "string",
          },
          steps: {
            type: "array",
            items: {
              $ref: "#/$defs/step",
            },
          },
        },
      },
      messageRole: {
        description: "Colour of the message line, as for workflow edges.",
        enum: [...EDGE_ROLES],
      },
    },
  },
  () => createRequire(import.meta.url)("./validator.cjs") as SchemaValidator,
);

import { createRequire } from "node:module";
import type { SchemaValidator } from "../../core/validate/schema.js";
import { typeSchema } from "../../core/validate/schema.js";

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
      allOf: [
        {
          description: "meta.views needs schema_version 2.",
          if: {
            required: ["schema_version"],
            properties: {
              schema_version: {
                const: 1,
              },
            },
          },
          // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword if/then
          then: {
            properties: {
              meta: {
                properties: {
                  views: false,
                },
              },
            },
          },
        },
      ],
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
            enum: [
              "call",
              "async",
              "reply",
              "create",
              "destroy",
              "activate",
              "deactivate",
              "note",
              "divider",
              "alt",
              "par",
              "opt",
              "loop",
              "critical",
              "break",
            ],
          },
        },
        allOf: [
          {
            if: {
              required: ["kind"],
              properties: {
                kind: {
                  enum: ["call", "async", "reply", "create", "destroy"],
                },
              },
            },
            // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword if/then
            then: {
              $ref: "#/$defs/message",
            },
          },
          {
            if: {
              required: ["kind"],
              properties: {
                kind: {
                  enum: ["activate", "deactivate"],
                },
              },
            },
            // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword if/then
            then: {
              $ref: "#/$defs/activation",
            },
          },
          {
            if: {
              required: ["kind"],
              properties: {
                kind: {
                  const: "note",
                },
              },
            },
            // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword if/then
            then: {
              $ref: "#/$defs/note",
            },
          },
          {
            if: {
              required: ["kind"],
              properties: {
                kind: {
                  const: "divider",
                },
              },
            },
            // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword if/then
            then: {
              $ref: "#/$defs/divider",
            },
          },
          {
            if: {
              required: ["kind"],
              properties: {
                kind: {
                  enum: ["alt", "par"],
                },
              },
            },
            // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword if/then
            then: {
              $ref: "#/$defs/branched",
            },
          },
          {
            if: {
              required: ["kind"],
              properties: {
                kind: {
                  enum: ["opt", "loop", "critical", "break"],
                },
              },
            },
            // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword if/then
            then: {
              $ref: "#/$defs/fragment",
            },
          },
        ],
      },
      message: {
        description:
          "call (synchronous), async, reply, create (starts the receiver's lifeline) or destroy (ends it). from equal to to: a self-message.",
        type: "object",
        required: ["kind", "from", "to"],
        additionalProperties: false,
        properties: {
          kind: {
            enum: ["call", "async", "reply", "create", "destroy"],
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
        description: "opt, loop, critical or break around steps, with an optional guard.",
        type: "object",
        required: ["kind", "steps"],
        additionalProperties: false,
        properties: {
          kind: {
            enum: ["opt", "loop", "critical", "break"],
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
        },
      },
      branched: {
        description: "alt (one branch runs) or par (all run at once): branches with guards.",
        type: "object",
        required: ["kind", "branches"],
        additionalProperties: false,
        properties: {
          kind: {
            enum: ["alt", "par"],
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
        enum: ["main", "branch", "async", "return", "error"],
      },
    },
  },
  () => createRequire(import.meta.url)("./validator.cjs") as SchemaValidator,
);

import { createRequire } from "node:module";
import { LAYOUT_DIRECTION_SCHEMA, metaWith } from "../../core/validate/meta-with.js";
import type { SchemaValidator } from "../../core/validate/schema.js";
import { typeSchema } from "../../core/validate/schema.js";

/**
 * The data-flow format's JSON Schema (2020-12), without the shared definitions the core adds;
 * `npm run schema:write` ships the whole of it as schema/data-flow.schema.json and the build
 * compiles it to dist/types/data-flow/validator.cjs.
 */
export const schema = typeSchema(
  {
    name: "data-flow",
    title: "Orderline data-flow diagram description",
    description:
      "A data-flow diagram (diagram_type data-flow), schema_version 2: external entities, processes and data stores joined by classified data flows, inside trust boundaries. Unknown properties are refused at every level. Reference: docs/diagrams/data-flow.md.",
    body: {
      type: "object",
      required: ["schema_version", "diagram_type", "meta", "elements", "flows"],
      additionalProperties: false,
      properties: {
        schema_version: {
          description: "Always 2: data-flow diagrams start at the family's version 2.",
          const: 2,
        },
        diagram_type: {
          description: 'Always "data-flow".',
          const: "data-flow",
        },
        meta: {
          description: "Title and presentation as in every type, and the direction flows read.",
          $ref: "#/$defs/dataFlowMeta",
        },
        boundaries: {
          description:
            "Trust boundaries: where the level of trust changes. Each encloses the elements and boundaries that name it.",
          type: "array",
          items: { $ref: "#/$defs/boundary" },
        },
        elements: {
          description: "External entities, processes and data stores.",
          type: "array",
          minItems: 1,
          items: { $ref: "#/$defs/element" },
        },
        flows: {
          description: "Data moving from one element to another.",
          type: "array",
          items: { $ref: "#/$defs/flow" },
        },
      },
    },
    defs: {
      dataFlowMeta: metaWith({ direction: LAYOUT_DIRECTION_SCHEMA }),
      boundary: {
        type: "object",
        required: ["id", "label"],
        additionalProperties: false,
        properties: {
          id: {
            description: "Unique among boundaries and elements.",
            $ref: "#/$defs/id",
          },
          label: {
            description: "Drawn in the boundary's corner, e.g. Partner network.",
            $ref: "#/$defs/label",
          },
          sublabel: {
            description: "A smaller line under the label: what changes here.",
            type: "string",
          },
          boundary: {
            description: "The boundary enclosing this one; absent: the top level.",
            $ref: "#/$defs/id",
          },
        },
      },
      element: {
        type: "object",
        required: ["id", "kind", "label"],
        additionalProperties: false,
        properties: {
          id: {
            description: "Unique among elements and boundaries.",
            $ref: "#/$defs/id",
          },
          kind: {
            description:
              "entity: outside the system (a partner, a user), drawn as a rectangle; process: transforms or moves data, drawn rounded; store: data at rest, drawn between two lines.",
            enum: ["entity", "process", "store"],
          },
          label: {
            description: "The element's name.",
            $ref: "#/$defs/label",
          },
          sublabel: {
            description: "A smaller second line: the technology, the owner.",
            type: "string",
          },
          boundary: {
            description: "The innermost trust boundary enclosing the element; absent: none.",
            $ref: "#/$defs/id",
          },
          component_type: {
            description: "The family's component type, for the element's icon.",
            $ref: "#/$defs/componentType",
          },
        },
      },
      flow: {
        type: "object",
        required: ["from", "to", "label"],
        additionalProperties: false,
        properties: {
          id: {
            description:
              "Unique among flows; needed to name it in a guided view. Reports and the drawing call a flow without one f<index> (from 0).",
            $ref: "#/$defs/id",
          },
          from: {
            description: "The element the data leaves.",
            $ref: "#/$defs/id",
          },
          to: {
            description: "The element the data reaches.",
            $ref: "#/$defs/id",
          },
          label: {
            description: "The data that moves, e.g. Signed order.",
            $ref: "#/$defs/label",
          },
          protocol: {
            description: "How it moves, e.g. HTTPS, SQL over TLS.",
            $ref: "#/$defs/label",
          },
          classification: {
            description:
              "How sensitive the data is: public, internal, confidential or personal (personal data). Optional: a flow without one is drawn as unclassified.",
            enum: ["public", "internal", "confidential", "personal"],
          },
        },
      },
    },
  },
  () => createRequire(import.meta.url)("./validator.cjs") as SchemaValidator,
);

import { createRequire } from "node:module";
import { LAYOUT_DIRECTION_SCHEMA, metaWith } from "../../core/validate/meta-with.js";
import type { SchemaValidator } from "../../core/validate/schema.js";
import { typeSchema } from "../../core/validate/schema.js";
import { BOUNDARY_KINDS, ELEMENT_KINDS, RELATIONSHIP_KINDS } from "./model.js";

const hints = {
  description: "Nudges for the automatic layout, never coordinates.",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    rank: {
      description: "first: in the first layer of its region; last: in the last.",
      enum: ["first", "last"],
    },
    order: {
      description: "Within its layer, lower numbers come first.",
      type: "integer",
    },
    near: {
      description: "An element or boundary of the same region to keep this one beside.",
      $ref: "#/$defs/id",
    },
  },
};

/**
 * The architecture format's JSON Schema (2020-12), without the shared definitions the core adds;
 * `npm run schema:write` ships the whole of it as schema/architecture.schema.json and the build
 * compiles it to dist/types/architecture/validator.cjs.
 */
export const schema = typeSchema(
  {
    name: "architecture",
    title: "Orderline architecture diagram description",
    description:
      "An architecture diagram (diagram_type architecture), schema_version 2: people, systems, containers, components, stores and queues in nested boundaries, their relationships, and zoom views. Unknown properties are refused at every level. Reference: docs/diagrams/architecture.md.",
    body: {
      type: "object",
      required: ["schema_version", "diagram_type", "meta"],
      additionalProperties: false,
      properties: {
        schema_version: {
          description: "Always 2: architecture diagrams start at the family's version 2.",
          const: 2,
        },
        diagram_type: { description: 'Always "architecture".', const: "architecture" },
        meta: {
          description:
            "Title and presentation of the diagram, as in every type, and the layout's direction.",
          $ref: "#/$defs/architectureMeta",
        },
        elements: {
          description: "Elements outside every boundary.",
          type: "array",
          items: { $ref: "#/$defs/element" },
        },
        boundaries: {
          description: "Boundaries (systems, clusters, networks...), each holding its own.",
          type: "array",
          items: { $ref: "#/$defs/boundary" },
        },
        relationships: {
          description: "Who uses or sends to whom; ends are elements or boundaries.",
          type: "array",
          items: { $ref: "#/$defs/relationship" },
        },
        views: {
          description:
            "Zoom levels, in order: each opens some boundaries and closes the rest. Absent: one view with every boundary open.",
          type: "array",
          minItems: 1,
          items: { $ref: "#/$defs/view" },
        },
      },
    },
    defs: {
      architectureMeta: metaWith({ direction: LAYOUT_DIRECTION_SCHEMA }),
      element: {
        type: "object",
        required: ["id", "kind", "label"],
        additionalProperties: false,
        properties: {
          id: { description: "Unique among elements and boundaries.", $ref: "#/$defs/id" },
          kind: {
            description:
              "person, software_system, container, component, database, queue or external_system.",
            enum: [...ELEMENT_KINDS],
          },
          label: { $ref: "#/$defs/label" },
          description: { description: "What it does, in a line or two.", type: "string" },
          technology: { description: 'E.g. "Fastify", "PostgreSQL 16".', type: "string" },
          component_type: {
            description: "Overrides the kind's icon and legend category.",
            $ref: "#/$defs/componentType",
          },
          brand: { $ref: "#/$defs/brand" },
          hints,
        },
      },
      boundary: {
        type: "object",
        required: ["id", "label"],
        additionalProperties: false,
        properties: {
          id: { description: "Unique among elements and boundaries.", $ref: "#/$defs/id" },
          kind: {
            description:
              "enterprise, system (default), container, cloud, cluster, network or group.",
            enum: [...BOUNDARY_KINDS],
          },
          label: { $ref: "#/$defs/label" },
          technology: { type: "string" },
          elements: { type: "array", items: { $ref: "#/$defs/element" } },
          boundaries: { type: "array", items: { $ref: "#/$defs/boundary" } },
          hints,
        },
      },
      relationship: {
        type: "object",
        required: ["from", "to"],
        additionalProperties: false,
        properties: {
          id: { description: "Unique among relationships.", $ref: "#/$defs/id" },
          from: { description: "An element or boundary id.", $ref: "#/$defs/id" },
          to: { description: "An element or boundary id.", $ref: "#/$defs/id" },
          label: { description: 'What happens, e.g. "places orders".', type: "string" },
          technology: { description: 'Technology or protocol, e.g. "HTTPS/JSON".', type: "string" },
          kind: {
            description: "sync (default), async or data.",
            enum: [...RELATIONSHIP_KINDS],
          },
        },
      },
      view: {
        type: "object",
        required: ["id", "title"],
        additionalProperties: false,
        properties: {
          id: { $ref: "#/$defs/id" },
          title: { $ref: "#/$defs/label" },
          caption: { type: "string" },
          expand: {
            description:
              '"all", or the boundaries shown open (with those around them); the rest are drawn closed. Empty or absent: a context view.',
            oneOf: [{ const: "all" }, { type: "array", items: { $ref: "#/$defs/id" } }],
          },
        },
      },
    },
  },
  () => createRequire(import.meta.url)("./validator.cjs") as SchemaValidator,
);

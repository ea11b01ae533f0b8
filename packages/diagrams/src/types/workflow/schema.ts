import { createRequire } from "node:module";
import { BAND_VARIANTS, EDGE_ROLES, SIDES } from "../../core/model.js";
import { versionTwoOnly } from "../../core/validate/branches.js";
import type { SchemaValidator } from "../../core/validate/schema.js";
import { typeSchema } from "../../core/validate/schema.js";

/**
 * The workflow format's JSON Schema (2020-12), without the shared definitions (`#/$defs/meta`,
 * `#/$defs/id`, ...) the core adds; the build writes the whole of it to
 * schema/workflow.schema.json and compiles it to dist/types/workflow/validator.cjs.
 */
export const schema = typeSchema(
  {
    name: "workflow",
    title: "Orderline workflow diagram description",
    description:
      "A workflow diagram (diagram_type workflow), schema_version 1 or 2. Unknown properties are refused at every level. Reference: docs/diagrams/workflow.md.",
    body: {
      type: "object",
      required: ["schema_version", "diagram_type", "meta", "lanes", "nodes", "edges"],
      additionalProperties: false,
      properties: {
        schema_version: {
          description: "1 or 2. Version 2 adds meta.views and cards.",
          enum: [1, 2],
        },
        diagram_type: {
          description: 'Always "workflow".',
          const: "workflow",
        },
        meta: {
          description: "Title, presentation and legend of the diagram.",
          $ref: "#/$defs/meta",
        },
        lanes: {
          description: "Horizontal swimlanes, stacked top to bottom in this order.",
          type: "array",
          minItems: 1,
          items: {
            $ref: "#/$defs/lane",
          },
        },
        nodes: {
          description: "The boxes of the diagram, each in one cell (lane, col).",
          type: "array",
          minItems: 1,
          items: {
            $ref: "#/$defs/node",
          },
        },
        edges: {
          description: "Connections between nodes; may be empty.",
          type: "array",
          items: {
            $ref: "#/$defs/edge",
          },
        },
        phases: {
          description: "Vertical bands over column ranges, across all lanes.",
          type: "array",
          items: {
            $ref: "#/$defs/phase",
          },
        },
        groups: {
          description: "Boxes inside one lane over a column range.",
          type: "array",
          items: {
            $ref: "#/$defs/group",
          },
        },
        mainPath: {
          description:
            "Node ids along the main path, in order; consecutive ids must be joined by an edge.",
          type: "array",
          minItems: 2,
          items: {
            $ref: "#/$defs/id",
          },
        },
        semanticChecks: {
          description:
            "Checks validate runs on the graph: allowed roots and terminals, required edges and paths.",
          $ref: "#/$defs/semanticChecks",
        },
        cards: {
          $ref: "#/$defs/cards",
        },
      },
      allOf: [versionTwoOnly("meta.views and cards need schema_version 2.", ["cards"])],
    },
    defs: {
      point: {
        description: "A position in viewBox units, origin top-left.",
        type: "object",
        required: ["x", "y"],
        additionalProperties: false,
        properties: {
          x: {
            type: "number",
          },
          y: {
            type: "number",
          },
        },
      },
      column: {
        type: "integer",
        minimum: 0,
        maximum: 5,
      },
      bandVariant: {
        enum: [...BAND_VARIANTS],
      },
      side: {
        enum: [...SIDES],
      },
      lane: {
        type: "object",
        required: ["id", "label"],
        additionalProperties: false,
        properties: {
          id: {
            $ref: "#/$defs/id",
          },
          label: {
            $ref: "#/$defs/label",
          },
          variant: {
            description: "exception lanes are drawn apart, for failure paths.",
            enum: ["normal", "exception"],
          },
        },
      },
      phase: {
        type: "object",
        required: ["id", "label", "fromCol", "toCol"],
        additionalProperties: false,
        properties: {
          id: {
            $ref: "#/$defs/id",
          },
          label: {
            $ref: "#/$defs/label",
          },
          fromCol: {
            $ref: "#/$defs/column",
          },
          toCol: {
            $ref: "#/$defs/column",
          },
          variant: {
            $ref: "#/$defs/bandVariant",
          },
        },
      },
      group: {
        type: "object",
        required: ["id", "label", "lane", "fromCol", "toCol"],
        additionalProperties: false,
        properties: {
          id: {
            $ref: "#/$defs/id",
          },
          label: {
            $ref: "#/$defs/label",
          },
          lane: {
            $ref: "#/$defs/id",
          },
          fromCol: {
            $ref: "#/$defs/column",
          },
          toCol: {
            $ref: "#/$defs/column",
          },
          variant: {
            $ref: "#/$defs/bandVariant",
          },
        },
      },
      node: {
        type: "object",
        required: ["id", "lane", "col", "type", "label"],
        additionalProperties: false,
        properties: {
          id: {
            $ref: "#/$defs/id",
          },
          lane: {
            description: "The id of the lane the node sits in.",
            $ref: "#/$defs/id",
          },
          col: {
            description: "Column 0 to 5, left to right.",
            $ref: "#/$defs/column",
          },
          type: {
            $ref: "#/$defs/componentType",
          },
          label: {
            $ref: "#/$defs/label",
          },
          sublabel: {
            description: "Smaller second line.",
            type: "string",
          },
          tag: {
            description: "Short badge text.",
            type: "string",
          },
          brand: {
            $ref: "#/$defs/brand",
          },
          width: {
            description: "Overrides the computed width; at least 32.",
            type: "number",
            minimum: 32,
          },
          height: {
            description: "Overrides the computed height; at least 32.",
            type: "number",
            minimum: 32,
          },
          yOffset: {
            description: "Shifts the node vertically inside its lane (negative: up).",
            type: "number",
          },
        },
      },
      edge: {
        type: "object",
        required: ["from", "to"],
        additionalProperties: false,
        properties: {
          id: {
            description: "Needed only to name the edge in a guided view.",
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
          variant: {
            description: "Stroke style.",
            $ref: "#/$defs/edgeVariant",
          },
          role: {
            description:
              "What the edge means: main, branch, async, return or error; each drawn distinctly.",
            enum: [...EDGE_ROLES],
          },
          fromSide: {
            description: "Side of the from node the edge leaves.",
            $ref: "#/$defs/side",
          },
          toSide: {
            description: "Side of the to node the edge enters.",
            $ref: "#/$defs/side",
          },
          route: {
            description: "Routing strategy; auto picks one.",
            enum: [
              "auto",
              "straight",
              "drop",
              "outside-right",
              "return-left",
              "bottom-channel",
              "up-channel",
            ],
          },
          via: {
            description: "Waypoints the edge passes through, in order.",
            type: "array",
            items: {
              $ref: "#/$defs/point",
            },
          },
          labelAt: {
            description: "Centre of the label, overriding automatic placement.",
            $ref: "#/$defs/point",
          },
          labelDx: {
            description: "Added to the label x.",
            type: "number",
          },
          labelDy: {
            description: "Added to the label y.",
            type: "number",
          },
          labelSegment: {
            description: "Which segment of the routed polyline carries the label (0 = first).",
            type: "integer",
            minimum: 0,
          },
          channelX: {
            description: "x of the vertical channel a channel route runs in.",
            type: "number",
          },
          channelY: {
            description: "y of the horizontal channel a channel route runs in.",
            type: "number",
          },
          bias: {
            description: "0 to 1: where along the free axis a bend sits (0.5 = middle).",
            type: "number",
            minimum: 0,
            maximum: 1,
          },
          width: {
            description: "Stroke width, at least 0.5.",
            type: "number",
            minimum: 0.5,
          },
        },
      },
      fromTo: {
        type: "object",
        required: ["from", "to"],
        additionalProperties: false,
        properties: {
          from: {
            $ref: "#/$defs/id",
          },
          to: {
            $ref: "#/$defs/id",
          },
        },
      },
      semanticChecks: {
        type: "object",
        minProperties: 1,
        additionalProperties: false,
        properties: {
          allowedRoots: {
            description: "Every node with no incoming edge must be listed.",
            type: "array",
            items: {
              $ref: "#/$defs/id",
            },
          },
          allowedTerminals: {
            description: "Every node with no outgoing edge must be listed.",
            type: "array",
            items: {
              $ref: "#/$defs/id",
            },
          },
          requiredEdges: {
            description: "Edges that must exist, in that direction.",
            type: "array",
            items: {
              $ref: "#/$defs/fromTo",
            },
          },
          requiredPaths: {
            description: "to must be reachable from from along edges.",
            type: "array",
            items: {
              $ref: "#/$defs/fromTo",
            },
          },
        },
      },
      card: {
        type: "object",
        required: ["body"],
        additionalProperties: false,
        properties: {
          title: {
            $ref: "#/$defs/label",
          },
          body: {
            description: "Paragraphs of plain text.",
            type: "array",
            minItems: 1,
            items: {
              type: "string",
              minLength: 1,
            },
          },
          links: {
            type: "array",
            items: {
              type: "object",
              required: ["label", "href"],
              additionalProperties: false,
              properties: {
                label: {
                  $ref: "#/$defs/label",
                },
                href: {
                  $ref: "#/$defs/href",
                },
              },
            },
          },
        },
      },
      cards: {
        description: "schema_version 2 only. Keys are node ids.",
        type: "object",
        propertyNames: {
          $ref: "#/$defs/id",
        },
        additionalProperties: {
          $ref: "#/$defs/card",
        },
      },
    },
  },
  () => createRequire(import.meta.url)("./validator.cjs") as SchemaValidator,
);

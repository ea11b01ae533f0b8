import {
  ANIMATIONS,
  COMPONENT_TYPES,
  EDGE_VARIANTS,
  LEGEND_KEYS,
  LEGEND_MODES,
  QUALITY_PROFILES,
  VISUAL_PRESETS,
} from "../model.js";
import { whenPropertyIs } from "./branches.js";
import type { JsonSchema } from "./json-schema.js";

/**
 * The JSON Schema definitions every diagram type shares (2020-12 `$defs`): ids, locales,
 * colours, links, labels, component types, edge variants, the legend, guided views, brand
 * marks and `meta`. A type's schema refers to them as `#/$defs/<name>`; `typeSchemaDocument`
 * puts them into each type's shipped schema, so every schema file stands alone for editors and
 * `meta` means the same in every type.
 */
export const SHARED_DEFS: Record<string, JsonSchema> = {
  id: {
    description: "Letters, digits, _ and -, starting with a letter; 1 to 64 characters.",
    type: "string",
    pattern: "^[A-Za-z][A-Za-z0-9_-]{0,63}$",
  },
  locale: {
    description: "BCP 47 tag language[-Script][-REGION], e.g. en, pt-BR, zh-Hant-TW, es-419.",
    type: "string",
    pattern: "^[a-z]{2,3}(-[A-Z][a-z]{3})?(-(?:[A-Z]{2}|[0-9]{3}))?$",
  },
  color: {
    description: "A colour as #rrggbb.",
    type: "string",
    pattern: "^#[0-9A-Fa-f]{6}$",
  },
  href: {
    description: "An https:// address or a relative path (no other scheme, no //host).",
    type: "string",
    pattern: "^(?:https://[^\\s]+|(?![A-Za-z][A-Za-z0-9+.-]*:)(?!//)[^\\s]+)$",
  },
  label: {
    type: "string",
    minLength: 1,
  },
  componentType: {
    enum: [...COMPONENT_TYPES],
  },
  edgeVariant: {
    enum: [...EDGE_VARIANTS],
  },
  legendEntry: {
    type: "object",
    required: ["label"],
    additionalProperties: false,
    properties: {
      label: {
        $ref: "#/$defs/label",
      },
      description: {
        type: "string",
      },
    },
  },
  legend: {
    type: "object",
    additionalProperties: false,
    properties: {
      mode: {
        description:
          "auto: one entry per category the nodes use; manual: exactly entries; hidden: no legend.",
        enum: [...LEGEND_MODES],
      },
      entries: {
        type: "object",
        additionalProperties: false,
        properties: Object.fromEntries(
          LEGEND_KEYS.map((key) => [key, { $ref: "#/$defs/legendEntry" }]),
        ),
      },
    },
  },
  guidedView: {
    type: "object",
    required: ["id", "title", "nodes"],
    additionalProperties: false,
    properties: {
      id: {
        $ref: "#/$defs/id",
      },
      title: {
        $ref: "#/$defs/label",
      },
      caption: {
        type: "string",
      },
      nodes: {
        type: "array",
        minItems: 1,
        items: {
          $ref: "#/$defs/id",
        },
      },
      edges: {
        type: "array",
        items: {
          $ref: "#/$defs/id",
        },
      },
    },
  },
  brand: {
    description: "A product or vendor mark drawn as a text badge on the node.",
    type: "object",
    required: ["name"],
    additionalProperties: false,
    properties: {
      name: {
        $ref: "#/$defs/label",
      },
      monogram: {
        type: "string",
        minLength: 1,
        maxLength: 3,
      },
      color: {
        $ref: "#/$defs/color",
      },
    },
  },
  meta: {
    type: "object",
    required: ["title"],
    additionalProperties: false,
    properties: {
      title: {
        description: "Drawn at the top; the SVG <title>.",
        $ref: "#/$defs/label",
      },
      locale: {
        description: "Language of the text, BCP 47.",
        $ref: "#/$defs/locale",
      },
      subtitle: {
        description: "Drawn under the title.",
        type: "string",
      },
      output: {
        description:
          "Default output file of render when no -o is given, relative to the description.",
        type: "string",
      },
      animation: {
        description: "trace: the HTML output traces mainPath; none: no animation.",
        enum: [...ANIMATIONS],
      },
      visual_preset: {
        description: "The look: classic, signal-flow, blueprint or editorial.",
        enum: [...VISUAL_PRESETS],
      },
      quality_profile: {
        description: "showcase adds finishing touches to standard.",
        enum: [...QUALITY_PROFILES],
      },
      views: {
        description: "schema_version 2 only.",
        type: "array",
        minItems: 1,
        items: {
          $ref: "#/$defs/guidedView",
        },
      },
      legend: {
        description: "Which legend categories are shown, and under which labels.",
        $ref: "#/$defs/legend",
      },
      viewBox: {
        description: "[width, height]; width at least 700, height at least 240.",
        type: "array",
        minItems: 2,
        maxItems: 2,
        prefixItems: [
          {
            type: "number",
            minimum: 700,
          },
          {
            type: "number",
            minimum: 240,
          },
        ],
      },
    },
  },
};

/**
 * The schema every description meets whatever its type: schema_version, a diagram_type among
 * `names`, and the shared `meta`. Validation uses it when diagram_type names no registered
 * type, so such a description still gets its meta problems along with the type problem.
 */
export function envelopeSchema(names: readonly string[]): JsonSchema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    required: ["schema_version", "diagram_type", "meta"],
    properties: {
      schema_version: { type: "integer", minimum: 1 },
      diagram_type: { enum: [...names] },
      meta: { $ref: "#/$defs/meta" },
    },
    $defs: SHARED_DEFS,
  };
}

/**
 * One schema for every type, for editors: it embeds each type's schema as its own resource
 * (kept whole, with its $id, so its `#/$defs/...` references resolve inside it) and picks one
 * with if/then on diagram_type.
 */
export function combinedSchema(types: readonly JsonSchema[]): JsonSchema {
  const names = types.map((t) => String(/([^:]+)\.schema\.json$/.exec(String(t.$id))?.[1]));
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "urn:orderline:diagrams:diagram.schema.json",
    title: "Orderline diagram description (any type)",
    description: `A diagram description of one of the types ${names.join(", ")}, picked by diagram_type. Each type's own schema is in the same folder. Reference: docs/diagrams/format.md.`,
    type: "object",
    required: ["diagram_type"],
    properties: { diagram_type: { enum: names } },
    allOf: types.map((schema, i) =>
      whenPropertyIs("diagram_type", [String(names[i])], { $ref: String(schema.$id) }),
    ),
    $defs: Object.fromEntries(types.map((schema, i) => [names[i], schema])),
  };
}

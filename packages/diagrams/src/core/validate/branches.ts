import type { JsonSchema } from "./json-schema.js";

/**
 * Writing `allOf` branches of `if`/`then`, the one way the schemas pick a shape by a property's
 * value (a sequence step by its kind, the combined schema's type by diagram_type) or refuse what
 * schema_version 1 lacks. `chosenBranch` in schema.ts reads this `if` shape back.
 */

/**
 * An `if`: `key` is present with one of `values` (a const for one value,
 * an enum for more).
 */
function propertyIs(key: string, values: readonly (string | number)[]): JsonSchema {
  return {
    required: [key],
    properties: { [key]: values.length === 1 ? { const: values[0] } : { enum: [...values] } },
  };
}

/** An allOf branch: where `key` has one of `values`, the value must also match `then`. */
export function whenPropertyIs(
  key: string,
  values: readonly (string | number)[],
  then: JsonSchema,
): JsonSchema {
  return { if: propertyIs(key, values), then };
}

/**
 * The first allOf branch of a type that has a schema_version 1 (schema-problems reports a
 * refusal under `#/allOf/0/then` as "needs schema_version 2"): under version 1, `properties`
 * at the root and meta.views are refused.
 */
export function versionTwoOnly(
  description: string,
  properties: readonly string[] = [],
): JsonSchema {
  return {
    description,
    ...whenPropertyIs("schema_version", [1], {
      properties: {
        ...Object.fromEntries(properties.map((name) => [name, false])),
        meta: { properties: { views: false } },
      },
    }),
  };
}

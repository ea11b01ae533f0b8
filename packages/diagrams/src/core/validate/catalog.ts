/**
 * The rules the core reports for every type: JSON syntax, the schema's keywords, and the shared
 * meta rules. Each type's catalogue adds its own (e.g. types/workflow/catalog.ts); the docs list
 * the same ids and each type's conformance suite proves each one both passes and fails.
 */
export const CORE_RULES = {
  "json/syntax": "the file is not valid JSON",
  "json/duplicate-key": "a property appears twice in one object",
  "schema/required": "a required property is missing",
  "schema/additionalProperties": "a property the format does not know (unknown at this level)",
  "schema/type": "a value of the wrong JSON type",
  "schema/enum":
    "a value outside its set of allowed values (an unknown diagram_type lists the known types)",
  "schema/const": "a value other than the one allowed (a type's diagram_type)",
  "schema/minimum": "a number below its lower bound",
  "schema/maximum": "a number above its upper bound",
  "schema/minItems": "an array with too few items",
  "schema/maxItems": "an array with too many items (viewBox has two)",
  "schema/minLength": "a string that must not be empty, or is too short",
  "schema/maxLength": "a string that is too long (brand monogram: at most 3 characters)",
  "schema/pattern": "a string of the wrong form (id, locale, colour, link)",
  "schema/propertyNames": "a cards key that is not a valid id",
  "schema/minProperties": "semanticChecks without any check",
  "version/v2-only": "meta.views or cards in a schema_version 1 description",
  "id/duplicate":
    "two items of one collection with the same id (guided views, and each type's own)",
} as const;

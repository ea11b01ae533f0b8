/**
 * A request schema in words, for the one message a refused field gets: "must be text of 1 to
 * 64 characters, not only spaces", "must be one of 'received', 'accepted' …". The words come
 * from the schema the route validates with, so the message and the check cannot disagree. A
 * schema may say it itself with `"x-accepts": "…"` where its keywords would say it badly (a
 * list of 150 currencies, a price kept exactly).
 */

// biome-ignore lint/suspicious/noExplicitAny: a JSON Schema is open-ended JSON.
type Schema = any;

/** An enum this long is named by the schema's `x-accepts`, or by its size and a few examples. */
const MAX_LISTED_VALUES = 12;

const quoted = (value: unknown) => (typeof value === "string" ? `'${value}'` : String(value));

/** "a, b or c" */
export function listed(items: readonly string[], last = "or"): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}`;
}

function enumWords(values: readonly unknown[]): string {
  if (values.length <= MAX_LISTED_VALUES) return `one of ${listed(values.map(quoted))}`;
  return `one of ${values.length} allowed values, e.g. ${values.slice(0, 3).map(quoted).join(", ")}`;
}

function textWords(schema: Schema): string {
  const { minLength = 0, maxLength } = schema;
  let words = "text";
  if (maxLength !== undefined)
    words +=
      minLength > 0
        ? ` of ${minLength} to ${maxLength} characters`
        : ` of at most ${maxLength} characters`;
  else if (minLength > 0) words += ` of at least ${minLength} characters`;
  if (schema.pattern === "\\S") words += ", not only spaces";
  else if (schema.pattern !== undefined) words += ` matching ${schema.pattern}`;
  if (schema.format === "date-time")
    words = "a date and time (RFC 3339, e.g. 2026-11-01T09:30:00Z)";
  return words;
}

function numberWords(schema: Schema, integer: boolean): string {
  const bounds: string[] = [];
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (integer && minimum !== undefined && maximum !== undefined)
    return `a whole number from ${minimum} to ${maximum}`;
  if (exclusiveMinimum !== undefined) bounds.push(`greater than ${exclusiveMinimum}`);
  if (minimum !== undefined) bounds.push(`at least ${minimum}`);
  if (exclusiveMaximum !== undefined) bounds.push(`less than ${exclusiveMaximum}`);
  if (maximum !== undefined) bounds.push(`at most ${maximum}`);
  const noun = integer ? "a whole number" : "a number";
  return bounds.length === 0 ? noun : `${noun} ${bounds.join(" and ")}`;
}

function arrayWords(schema: Schema): string {
  const { minItems = 0, maxItems } = schema;
  const size =
    maxItems !== undefined
      ? minItems > 0
        ? ` of ${minItems} to ${maxItems} items`
        : ` of at most ${maxItems} items`
      : minItems > 0
        ? ` of at least ${minItems} items`
        : "";
  const items = schema.items === undefined ? "" : `, each ${schemaWords(schema.items)}`;
  return `a list${size}${items}`;
}

function objectWords(schema: Schema): string {
  const names = Object.keys(schema.properties ?? {});
  if (schema.minProperties === 1 && names.length > 0)
    return `an object with at least one of ${listed(names)}`;
  return "an object";
}

/** One type's words (no null). */
function typeWords(type: string, schema: Schema): string {
  switch (type) {
    case "string":
      return textWords(schema);
    case "number":
      return numberWords(schema, false);
    case "integer":
      return numberWords(schema, true);
    case "boolean":
      return "true or false";
    case "array":
      return arrayWords(schema);
    case "object":
      return objectWords(schema);
    default:
      return type;
  }
}

/** What a value must be to pass `schema`, as the end of "must be …". */
export function schemaWords(schema: Schema): string {
  if (schema === undefined || schema === null || typeof schema !== "object") return "valid";
  if (typeof schema["x-accepts"] === "string") return schema["x-accepts"];
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const isNull = (b: Schema) => b?.type === "null";
    const words = listed(branches.filter((b: Schema) => !isNull(b)).map(schemaWords));
    return branches.some(isNull) ? `${words}, or null` : words;
  }
  const types: string[] = Array.isArray(schema.type)
    ? schema.type
    : schema.type !== undefined
      ? [schema.type]
      : [];
  const nullable = types.includes("null");
  let words: string;
  if (schema.const !== undefined) words = `exactly ${quoted(schema.const)}`;
  else if (Array.isArray(schema.enum))
    words = enumWords(schema.enum.filter((v: unknown) => v !== null));
  else {
    const named = types.filter((t) => t !== "null");
    words =
      named.length > 0
        ? listed(named.map((t) => typeWords(t, schema)))
        : nullable
          ? "null"
          : "valid";
  }
  return nullable && words !== "null" && words !== "valid" ? `${words}, or null` : words;
}

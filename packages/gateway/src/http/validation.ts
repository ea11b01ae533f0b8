import { Ajv, type ErrorObject, type KeywordDefinition } from "ajv";
import type { FastifyInstance } from "fastify";
import { priceFault } from "../lib/money.js";
import type { FieldError } from "../problems/catalogue.js";
import { compiledOnce } from "./compile-once.js";
import { schemaWords } from "./schema-words.js";

/**
 * `"x-price": true` on a number-or-string property: a decimal the API keeps exactly (see
 * lib/money.ts), refused with the reason otherwise.
 */
const PRICE_KEYWORD: KeywordDefinition = {
  keyword: "x-price",
  type: ["number", "string"],
  schemaType: "boolean",
  errors: true,
  validate: function price(_schema: boolean, data: number | string): boolean {
    const fault = priceFault(data);
    if (fault === undefined) return true;
    (price as unknown as { errors: Partial<ErrorObject>[] }).errors = [
      { keyword: "x-price", message: fault, params: {} },
    ];
    return false;
  },
};

/**
 * Bodies are validated strictly: no type coercion, unknown properties refused (not silently
 * dropped), every error reported. Path parameters and query strings arrive as text, so there
 * numbers are coerced.
 */
export function installValidators(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const part = httpPart === "body" ? "body" : "text";
    return compiledOnce(part, schema, () => validators()[part].compile(schema));
  });
}

let ajvs: { body: Ajv; text: Ajv } | undefined;

/** The two validator compilers, made once per process (compile-once.ts). */
function validators(): { body: Ajv; text: Ajv } {
  if (ajvs) return ajvs;
  const common = {
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    // Each error carries the schema it failed, which words the field's message (fieldErrorsOf).
    verbose: true,
  } as const;
  const body = new Ajv({ ...common, coerceTypes: false });
  body.addKeyword(PRICE_KEYWORD);
  ajvs = { body, text: new Ajv({ ...common, coerceTypes: true }) };
  return ajvs;
}

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/** The rule a field broke, as ajv names it, and its bound when it has one (a length, a count). */
const ruleOf = (error: ErrorObject): Pick<FieldError, "keyword" | "limit"> => {
  const limit = (error.params as { limit?: unknown }).limit;
  return { keyword: error.keyword, ...(typeof limit === "number" ? { limit } : {}) };
};

/** The field an ajv error is about: a missing or unknown property is its own pointer. */
function pointerOf(error: ErrorObject): string {
  let pointer = error.instancePath;
  if (error.keyword === "required")
    pointer += `/${escapePointer(String(error.params.missingProperty))}`;
  else if (error.keyword === "additionalProperties")
    pointer += `/${escapePointer(String(error.params.additionalProperty))}`;
  return pointer === "" ? "/" : pointer;
}

/** The one message of a field, from all of ajv's errors about it (several keywords can fail). */
function messageOf(errors: readonly ErrorObject[]): string {
  const first = errors[0] as ErrorObject;
  if (first.keyword === "required") return "is required";
  if (first.keyword === "additionalProperties") {
    const known = Object.keys(first.parentSchema?.properties ?? {});
    return known.length === 0
      ? "is not a known property"
      : `is not a known property (known: ${known.join(", ")})`;
  }
  // A price's own check says exactly what is wrong with it (lib/money.ts).
  const price = errors.find((e) => e.keyword === "x-price");
  if (price?.message) return price.message;
  // Of a union, the words of the whole (its branches' errors are about the parts).
  const whole = errors.find((e) => e.keyword === "anyOf" || e.keyword === "oneOf") ?? first;
  return `must be ${schemaWords(whole.parentSchema)}`;
}

/**
 * One error per field (JSON Pointer), in the order ajv met them, each with one message naming
 * what the field accepts: its allowed values, lengths and bounds, from the route's schema.
 */
export function fieldErrorsOf(
  errors: readonly ErrorObject[],
  location: string,
): (FieldError & { in: string })[] {
  const byPointer = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    const pointer = pointerOf(error);
    byPointer.set(pointer, [...(byPointer.get(pointer) ?? []), error]);
  }
  return [...byPointer].map(([pointer, group]) => ({
    in: location,
    pointer,
    message: messageOf(group),
    ...ruleOf(group[0] as ErrorObject),
  }));
}

/** How many field errors the problem's `detail` spells out; `errors` always has them all. */
const FIELD_ERRORS_IN_DETAIL = 10;

/** The problem's detail for field errors: each field and its message, in one sentence each. */
export function fieldErrorsDetail(errors: readonly (FieldError & { in: string })[]): string {
  const shown = errors
    .slice(0, FIELD_ERRORS_IN_DETAIL)
    .map((e) => `${e.in} ${e.pointer} ${e.message}.`);
  const more = errors.length - shown.length;
  return more > 0 ? `${shown.join(" ")} (${more} more in errors.)` : shown.join(" ");
}

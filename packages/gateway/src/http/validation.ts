import { Ajv, type ErrorObject, type KeywordDefinition } from "ajv";
import type { FastifyInstance } from "fastify";
import { priceFault } from "../lib/money.js";
import type { FieldError } from "./errors.js";

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
  const common = {
    allErrors: true,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
  } as const;
  const bodyAjv = new Ajv({ ...common, coerceTypes: false });
  bodyAjv.addKeyword(PRICE_KEYWORD);
  const textAjv = new Ajv({ ...common, coerceTypes: true });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "body" ? bodyAjv : textAjv).compile(schema),
  );
}

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

/** The rule a field broke, as ajv names it, and its bound when it has one (a length, a count). */
const ruleOf = (error: ErrorObject): Pick<FieldError, "keyword" | "limit"> => {
  const limit = (error.params as { limit?: unknown }).limit;
  return { keyword: error.keyword, ...(typeof limit === "number" ? { limit } : {}) };
};

/**
 * Field errors with the rule each broke (`keyword`, `limit`) beside the English `message`, so a
 * client can say it in its user's language without parsing validator text.
 */
export function fieldErrorsOf(
  errors: readonly ErrorObject[],
  location: string,
): (FieldError & { in: string })[] {
  return errors.map((error) => {
    let pointer = error.instancePath;
    let message = error.message ?? "is not valid";
    if (error.keyword === "required") {
      pointer += `/${escapePointer(String(error.params.missingProperty))}`;
      message = "is required";
    } else if (error.keyword === "additionalProperties") {
      pointer += `/${escapePointer(String(error.params.additionalProperty))}`;
      message = "is not a known property";
    }
    return { in: location, pointer: pointer === "" ? "/" : pointer, message, ...ruleOf(error) };
  });
}

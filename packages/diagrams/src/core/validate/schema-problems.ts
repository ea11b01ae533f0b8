import type { ErrorObject } from "ajv";
import { childPointer, pointerTokens, valueAtPointer } from "./pointer.js";
import type { Problem } from "./problem.js";
import {
  definitionWithPattern,
  type JsonSchema,
  schemaForInstance,
  type TypeSchema,
} from "./schema.js";
import { closest, didYouMean } from "./suggest.js";

/** A problem before it is given a line and column: the path says where, `at` which end of it. */
export type UnlocatedProblem = Omit<Problem, "line" | "column" | "file"> & {
  /** Point at the member's key rather than its value (unknown properties, v2-only fields). */
  at?: "key" | "value";
};

const PATTERN_MEANING: Record<string, string> = {
  id: "is not a valid id: use letters, digits, _ and -, starting with a letter, at most 64 characters",
  locale: 'is not a BCP 47 locale of the form language[-Script][-REGION], e.g. "en", "pt-BR"',
  color: "is not a colour of the form #rrggbb",
  href: "is not an https:// address or a relative path",
};

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  // Quoted as JSON, so control characters show as escapes; long text is cut short.
  if (typeof value === "string") {
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value);
  }
  if (typeof value === "object") return "an object";
  return String(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

const lastToken = (path: string) => pointerTokens(path).at(-1) ?? "";

/** What a type adds to the schema's problems. */
export interface SchemaHints {
  /**
   * A suggestion for an object key that is not a valid id (e.g. a cards key close to a node id).
   */
  keySuggestion?(name: string, root: unknown): string | undefined;
  /**
   * Why a number has the limit it broke (e.g. the workflow's six columns), said after the
   * limit so a capacity is never a bare number. `path` is the number's JSON Pointer.
   */
  limitReason?(path: string, keyword: "minimum" | "maximum"): string | undefined;
}

function convert(
  error: ErrorObject,
  root: unknown,
  schema: JsonSchema,
  hints: SchemaHints,
): UnlocatedProblem | undefined {
  const path = error.instancePath;
  const value = valueAtPointer(root, path);
  const rule = `schema/${error.keyword}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "if":
    case "propertyNames":
      // Reported through the errors of the branch or of the name itself.
      return undefined;
    case "false schema": {
      if (error.schemaPath.startsWith("#/allOf/0/then")) {
        return {
          path,
          rule: "version/v2-only",
          message: `"${lastToken(path)}" needs schema_version 2; this description says schema_version 1`,
          suggestion: 'set "schema_version": 2',
          at: "key",
        };
      }
      return { path, rule: "schema/not-allowed", message: "no value is allowed here" };
    }
    case "required": {
      const missing = String(params.missingProperty);
      const allowed = Object.keys(
        (schemaForInstance(schema, path, root)?.properties as object | undefined) ?? {},
      );
      const strangers = Object.keys((value as object | undefined) ?? {}).filter(
        (key) => !allowed.includes(key),
      );
      const typo = strangers.find((key) => closest(key, [missing]) !== undefined);
      return {
        path: childPointer(path, missing),
        rule,
        message: `missing required property "${missing}"`,
        ...(typo === undefined
          ? {}
          : { suggestion: `"${typo}" may be a misspelling of "${missing}"` }),
      };
    }
    case "additionalProperties": {
      const name = String(params.additionalProperty);
      const owner = schemaForInstance(schema, path, root);
      const allowed = Object.keys((owner?.properties as object | undefined) ?? {});
      const suggestion = didYouMean(name, allowed) ?? elsewhere(name, path, schema, root);
      return {
        path: childPointer(path, name),
        rule,
        message: `unknown property "${name}"; allowed here: ${allowed.join(", ")}`,
        ...(suggestion ? { suggestion } : {}),
        at: "key",
      };
    }
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map((v) => String(v));
      const suggestion = typeof value === "string" ? didYouMean(value, allowed) : undefined;
      return {
        path,
        rule,
        message: `${describe(value)} is not one of: ${allowed.join(", ")}`,
        ...(suggestion ? { suggestion } : {}),
      };
    }
    case "const":
      return {
        path,
        rule,
        message: `must be ${describe(params.allowedValue)}, found ${describe(value)}`,
        ...(typeof value === "string" && typeof params.allowedValue === "string"
          ? { suggestion: `use "${params.allowedValue}"` }
          : {}),
      };
    case "type": {
      const suggestion = retyped(value, String(params.type));
      return {
        path,
        rule,
        message: `must be ${article(String(params.type))}, found ${article(typeName(value))}`,
        ...(suggestion ? { suggestion } : {}),
      };
    }
    case "minimum":
    case "maximum": {
      const bound = error.keyword === "minimum" ? "at least" : "at most";
      const reason = hints.limitReason?.(path, error.keyword);
      return {
        path,
        rule,
        message: `must be ${bound} ${params.limit}, found ${describe(value)}${reason ? `: ${reason}` : ""}`,
      };
    }
    case "minItems":
      return {
        path,
        rule,
        message: `needs at least ${params.limit} item${params.limit === 1 ? "" : "s"}, found ${
          Array.isArray(value) ? value.length : 0
        }`,
      };
    case "minLength":
      return {
        path,
        rule,
        message:
          params.limit === 1 ? "must not be empty" : `needs at least ${params.limit} characters`,
      };
    case "maxItems":
      return {
        path,
        rule,
        message: `has at most ${params.limit} items, found ${Array.isArray(value) ? value.length : 0}`,
      };
    case "maxLength":
      return { path, rule, message: `must be at most ${params.limit} characters long` };
    case "minProperties":
      return {
        path,
        rule,
        message: `needs at least ${params.limit} property; an empty object says nothing`,
      };
    case "pattern": {
      if (error.propertyName !== undefined) {
        const name = error.propertyName;
        const suggestion = hints.keySuggestion?.(name, root);
        return {
          path: childPointer(path, name),
          rule: "schema/propertyNames",
          message: `key "${name}" ${PATTERN_MEANING.id}`,
          ...(suggestion ? { suggestion } : {}),
          at: "key",
        };
      }
      const definition = definitionWithPattern(schema, String(params.pattern)) ?? "";
      const meaning = PATTERN_MEANING[definition] ?? `does not match ${String(params.pattern)}`;
      return { path, rule, message: `${describe(value)} ${meaning}` };
    }
    default:
      return {
        path,
        rule,
        message: error.message ?? `breaks the schema's "${error.keyword}" rule`,
      };
  }
}

/** Where a misplaced property belongs: in `meta` when written at the top level, or back out. */
function elsewhere(
  name: string,
  path: string,
  schema: JsonSchema,
  root: unknown,
): string | undefined {
  const known = (at: string) =>
    Object.keys((schemaForInstance(schema, at, root)?.properties as object | undefined) ?? {});
  if (path === "" && known("/meta").includes(name)) {
    return `"${name}" belongs in meta: move it to meta.${name}`;
  }
  if (path === "/meta" && known("").includes(name)) {
    return `"${name}" belongs at the top level, beside meta`;
  }
  return undefined;
}

/** The value as the JSON type the schema wants, when it was only written as the wrong one. */
function retyped(value: unknown, wanted: string): string | undefined {
  if (typeof value === "string") {
    const t = value.trim();
    if (wanted === "boolean" && (t === "true" || t === "false")) {
      return `did you mean ${t} (without quotes)?`;
    }
    if ((wanted === "number" || wanted === "integer") && t !== "" && Number.isFinite(Number(t))) {
      if (wanted === "number" || Number.isInteger(Number(t))) {
        return `did you mean ${Number(t)} (without quotes)?`;
      }
    }
  }
  if (wanted === "string" && (typeof value === "number" || typeof value === "boolean")) {
    return `did you mean "${String(value)}" (in quotes)?`;
  }
  return undefined;
}

/** Every way `value` breaks the JSON Schema, in plain words, with the JSON path of each. */
export function schemaProblems(
  value: unknown,
  schema: Pick<TypeSchema, "json" | "validator">,
  hints: SchemaHints = {},
): UnlocatedProblem[] {
  const validate = schema.validator();
  if (validate(value)) return [];
  const problems: UnlocatedProblem[] = [];
  for (const error of validate.errors ?? []) {
    const problem = convert(error, value, schema.json(), hints);
    if (problem) problems.push(problem);
  }
  return problems;
}

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import { pointerTokens } from "./pointer.js";

/** The shipped JSON Schema, beside dist/ and src/ in the package. */
export const SCHEMA_URL = new URL("../../schema/workflow.schema.json", import.meta.url);

export type JsonSchema = { [key: string]: unknown };

export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

let schemaCache: JsonSchema | undefined;

export function schemaText(): string {
  return readFileSync(SCHEMA_URL, "utf8");
}

export function loadSchema(): JsonSchema {
  schemaCache ??= JSON.parse(schemaText()) as JsonSchema;
  return schemaCache;
}

/**
 * Ajv options shared by the build-time compiler (scripts/compile-schema.mjs) and the fallback.
 * strictTypes is off because the schema_version 1 branch (allOf/0/then) constrains `meta`
 * without repeating its type, which the main `meta` definition already checks.
 */
export const AJV_OPTIONS = { allErrors: true, strict: true, strictTypes: false } as const;

let validatorCache: SchemaValidator | undefined;

/**
 * The compiled validator. The build writes ajv standalone code to
 * dist/validate/workflow-validator.cjs so a cold CLI start neither loads ajv's compiler nor
 * compiles the schema; running from source (tests, tsx) compiles it here once instead.
 */
export function schemaValidator(): SchemaValidator {
  if (validatorCache) return validatorCache;
  const require = createRequire(import.meta.url);
  try {
    validatorCache = require("./workflow-validator.cjs") as SchemaValidator;
  } catch (error) {
    if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    const Ajv2020 = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js").default;
    const ajv = new Ajv2020(AJV_OPTIONS);
    validatorCache = ajv.compile(loadSchema()) as SchemaValidator;
  }
  return validatorCache;
}

/** The schema itself, or the $defs entry it refers to with $ref (followed to the end). */
export function deref(schema: unknown): JsonSchema | undefined {
  let current = schema;
  for (let hops = 0; hops < 16; hops++) {
    if (typeof current !== "object" || current === null) return undefined;
    const ref = (current as JsonSchema).$ref;
    if (typeof ref !== "string") return current as JsonSchema;
    const name = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
    current = name === undefined ? undefined : (loadSchema().$defs as JsonSchema)[name];
  }
  return undefined;
}

/**
 * The schema that governs the value at a JSON Pointer in a description (following $ref,
 * properties, additionalProperties, prefixItems and items), or undefined.
 */
export function schemaForInstance(path: string): JsonSchema | undefined {
  let current = deref(loadSchema());
  for (const token of pointerTokens(path)) {
    if (!current) return undefined;
    const properties = current.properties as JsonSchema | undefined;
    const prefix = current.prefixItems as unknown[] | undefined;
    const next =
      properties?.[token] ??
      (/^\d+$/.test(token) ? (prefix?.[Number(token)] ?? current.items) : undefined) ??
      current.additionalProperties;
    current = deref(next);
  }
  return current;
}

/** The name of the $defs entry whose pattern is `pattern` (id, locale, color, href). */
export function definitionWithPattern(pattern: string): string | undefined {
  const defs = loadSchema().$defs as Record<string, JsonSchema>;
  return Object.keys(defs).find((name) => defs[name]?.pattern === pattern);
}

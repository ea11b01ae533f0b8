import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import { pointerTokens } from "./pointer.js";

export type JsonSchema = { [key: string]: unknown };

export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/**
 * Ajv options shared by the build-time compiler (scripts/compile-schema.mjs) and the fallback.
 * strictTypes is off because the schema_version 1 branch (allOf/0/then) constrains `meta`
 * without repeating its type, which the main `meta` definition already checks.
 */
export const AJV_OPTIONS = { allErrors: true, strict: true, strictTypes: false } as const;

/** One diagram type's JSON Schema: the shipped file, and the validator compiled from it. */
export interface TypeSchema {
  /** The schema file, in the package's schema/ folder. */
  readonly url: URL;
  /** The file's text, as shipped. */
  text(): string;
  /** The parsed schema (read once). */
  json(): JsonSchema;
  /** The compiled validator (built once). */
  validator(): SchemaValidator;
}

/**
 * A type's schema, read and compiled on first use. `compiled` returns the ajv standalone code
 * the build writes (scripts/compile-schema.mjs), so a cold CLI start neither loads ajv's
 * compiler nor compiles the schema; it throws MODULE_NOT_FOUND when running from source
 * (tests, tsx), and the schema is compiled here once instead.
 */
export function typeSchema(url: URL, compiled: () => SchemaValidator): TypeSchema {
  let json: JsonSchema | undefined;
  let validator: SchemaValidator | undefined;
  const self: TypeSchema = {
    url,
    text: () => readFileSync(url, "utf8"),
    json() {
      json ??= JSON.parse(self.text()) as JsonSchema;
      return json;
    },
    validator() {
      if (validator) return validator;
      try {
        validator = compiled();
      } catch (error) {
        if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
        validator = compileSchema(self.json());
      }
      return validator;
    },
  };
  return self;
}

/** Compiles a schema with ajv's 2020-12 compiler (loaded only here, when no built code exists). */
export function compileSchema(schema: JsonSchema): SchemaValidator {
  const require = createRequire(import.meta.url);
  const Ajv2020 = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js").default;
  return new Ajv2020(AJV_OPTIONS).compile(schema) as SchemaValidator;
}

/** The schema itself, or the $defs entry of `root` it refers to with $ref (followed to the end). */
export function deref(root: JsonSchema, schema: unknown): JsonSchema | undefined {
  let current = schema;
  for (let hops = 0; hops < 16; hops++) {
    if (typeof current !== "object" || current === null) return undefined;
    const ref = (current as JsonSchema).$ref;
    if (typeof ref !== "string") return current as JsonSchema;
    const name = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
    current = name === undefined ? undefined : (root.$defs as JsonSchema)[name];
  }
  return undefined;
}

/**
 * The part of `root` that governs the value at a JSON Pointer in a description (following
 * $ref, properties, additionalProperties, prefixItems and items), or undefined.
 */
export function schemaForInstance(root: JsonSchema, path: string): JsonSchema | undefined {
  let current = deref(root, root);
  for (const token of pointerTokens(path)) {
    if (!current) return undefined;
    const properties = current.properties as JsonSchema | undefined;
    const prefix = current.prefixItems as unknown[] | undefined;
    const next =
      properties?.[token] ??
      (/^\d+$/.test(token) ? (prefix?.[Number(token)] ?? current.items) : undefined) ??
      current.additionalProperties;
    current = deref(root, next);
  }
  return current;
}

/** The name of the $defs entry of `root` whose pattern is `pattern` (id, locale, color, href). */
export function definitionWithPattern(root: JsonSchema, pattern: string): string | undefined {
  const defs = root.$defs as Record<string, JsonSchema>;
  return Object.keys(defs).find((name) => defs[name]?.pattern === pattern);
}

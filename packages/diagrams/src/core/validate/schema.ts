import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import type { JsonSchema } from "./json-schema.js";
import { pointerTokens } from "./pointer.js";
import { SHARED_DEFS } from "./shared-schema.js";

export type { JsonSchema };

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

/** What a type writes of its schema; the core adds the shared definitions and the header. */
interface TypeSchemaSource {
  /** The diagram_type value; the schema is shipped as schema/<name>.schema.json. */
  name: string;
  title: string;
  description: string;
  /** The root keywords (type, required, properties, allOf, ...), without $defs. */
  body: JsonSchema;
  /** The type's own $defs; they may refer to the shared ones (`#/$defs/meta`). */
  defs: Record<string, JsonSchema>;
}

/** One diagram type's JSON Schema: the whole document, and the validator compiled from it. */
export interface TypeSchema {
  readonly name: string;
  /** The file name in the package's schema/ folder. */
  readonly fileName: string;
  /** The whole schema, shared definitions included (built once). */
  json(): JsonSchema;
  /** The schema as shipped: pretty-printed JSON with a final newline. */
  text(): string;
  /** The compiled validator (built once). */
  validator(): SchemaValidator;
}

/** The $id of a schema shipped in schema/. */
const schemaId = (fileName: string) => `urn:orderline:diagrams:${fileName}`;

/** A type's whole schema document: header, the type's keywords, shared and own $defs. */
export function typeSchemaDocument(source: TypeSchemaSource): JsonSchema {
  const clash = Object.keys(source.defs).filter((name) => Object.hasOwn(SHARED_DEFS, name));
  if (clash.length > 0) {
    throw new Error(`${source.name} schema redefines shared $defs: ${clash.join(", ")}`);
  }
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: schemaId(`${source.name}.schema.json`),
    title: source.title,
    description: source.description,
    ...source.body,
    $defs: { ...SHARED_DEFS, ...source.defs },
  };
}

/**
 * A type's schema, built and compiled on first use. `compiled` returns the ajv standalone code
 * the build writes (scripts/compile-schema.mjs), so a cold CLI start neither loads ajv's
 * compiler nor compiles the schema; it throws MODULE_NOT_FOUND when running from source
 * (tests, tsx), and the schema is compiled here once instead.
 */
export function typeSchema(source: TypeSchemaSource, compiled: () => SchemaValidator): TypeSchema {
  let json: JsonSchema | undefined;
  let validator: SchemaValidator | undefined;
  const self: TypeSchema = {
    name: source.name,
    fileName: `${source.name}.schema.json`,
    json() {
      json ??= typeSchemaDocument(source);
      return json;
    },
    text: () => `${JSON.stringify(self.json(), null, 2)}\n`,
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

/** True when `value` has every property `test.required` names with the const or enum given. */
function matchesIf(test: JsonSchema, value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const object = value as Record<string, unknown>;
  const required = (test.required as string[] | undefined) ?? [];
  if (!required.every((key) => Object.hasOwn(object, key))) return false;
  const properties = (test.properties as Record<string, JsonSchema> | undefined) ?? {};
  return Object.entries(properties).every(([key, rule]) => {
    if (!Object.hasOwn(object, key)) return true;
    if ("const" in rule) return object[key] === rule.const;
    if (Array.isArray(rule.enum)) return rule.enum.includes(object[key]);
    return true;
  });
}

/**
 * The shape an `allOf` of `if`/`then` pairs picks for `value` (a sequence step picked by its
 * `kind`), so problems list the properties of that shape; else the schema itself.
 */
function chosenBranch(root: JsonSchema, schema: JsonSchema, value: unknown): JsonSchema {
  const branches = (schema.allOf as JsonSchema[] | undefined) ?? [];
  for (const branch of branches) {
    const test = branch.if as JsonSchema | undefined;
    if (!test || !matchesIf(test, value)) continue;
    // Only a branch that is a whole closed shape replaces the schema; one that adds a
    // constraint (workflow's schema_version 1 branch) does not.
    const then = deref(root, branch.then);
    if (then?.additionalProperties === false) return then;
  }
  return schema;
}

/**
 * The part of `root` that governs the value at a JSON Pointer in a description (following
 * $ref, properties, additionalProperties, prefixItems and items, and, given the description,
 * the `if`/`then` branch a value picks), or undefined.
 */
export function schemaForInstance(
  root: JsonSchema,
  path: string,
  description?: unknown,
): JsonSchema | undefined {
  let current = deref(root, root);
  let value = description;
  for (const token of pointerTokens(path)) {
    if (!current) return undefined;
    if (description !== undefined) current = chosenBranch(root, current, value);
    const properties = current.properties as JsonSchema | undefined;
    const prefix = current.prefixItems as unknown[] | undefined;
    const next =
      properties?.[token] ??
      (/^\d+$/.test(token) ? (prefix?.[Number(token)] ?? current.items) : undefined) ??
      current.additionalProperties;
    current = deref(root, next);
    value = (value as Record<string, unknown> | undefined)?.[token];
  }
  return current && description !== undefined ? chosenBranch(root, current, value) : current;
}

/** The name of the $defs entry of `root` whose pattern is `pattern` (id, locale, color, href). */
export function definitionWithPattern(root: JsonSchema, pattern: string): string | undefined {
  const defs = root.$defs as Record<string, JsonSchema>;
  return Object.keys(defs).find((name) => defs[name]?.pattern === pattern);
}

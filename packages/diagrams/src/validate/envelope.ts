import { createRequire } from "node:module";
import { compileSchema, type JsonSchema, type SchemaValidator } from "../core/validate/schema.js";
import { envelopeSchema } from "../core/validate/shared-schema.js";
import { TYPE_NAMES } from "../types/index.js";
import type { Validated } from "./as-type.js";

let json: JsonSchema | undefined;
let validator: SchemaValidator | undefined;

/**
 * How a description is checked when its diagram_type names no registered type: the envelope
 * (schema_version, diagram_type among the registered types, meta) and the shared meta rules,
 * so the type problem comes with every meta problem. The build compiles the envelope to
 * dist/validate/envelope-validator.cjs.
 */
export const envelope: Validated<never> = {
  schema: {
    json() {
      json ??= envelopeSchema(TYPE_NAMES);
      return json;
    },
    validator() {
      if (validator) return validator;
      try {
        validator = createRequire(import.meta.url)("./envelope-validator.cjs") as SchemaValidator;
      } catch (error) {
        if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
        validator = compileSchema(this.json());
      }
      return validator;
    },
  },
  rules: () => [],
};

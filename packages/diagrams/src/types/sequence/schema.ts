import { createRequire } from "node:module";
import { type SchemaValidator, typeSchema } from "../../core/validate/schema.js";

/**
 * The sequence JSON Schema, shipped as schema/sequence.schema.json, and its validator, which
 * the build compiles to dist/types/sequence/validator.cjs.
 */
export const schema = typeSchema(
  new URL("../../../schema/sequence.schema.json", import.meta.url),
  () => createRequire(import.meta.url)("./validator.cjs") as SchemaValidator,
);

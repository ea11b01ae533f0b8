import { createRequire } from "node:module";
import { type SchemaValidator, typeSchema } from "../../core/validate/schema.js";

/**
 * The lifecycle JSON Schema, shipped as schema/lifecycle.schema.json, and its validator, which
 * the build compiles to dist/types/lifecycle/validator.cjs.
 */
export const schema = typeSchema(
  new URL("../../../schema/lifecycle.schema.json", import.meta.url),
  () => createRequire(import.meta.url)("./validator.cjs") as SchemaValidator,
);

import { createRequire } from "node:module";
import { type SchemaValidator, typeSchema } from "../../core/validate/schema.js";

/**
 * The workflow JSON Schema, shipped as schema/workflow.schema.json (three folders up from both
 * src/types/workflow and dist/types/workflow), and its validator, which the build compiles to
 * dist/types/workflow/validator.cjs.
 */
export const schema = typeSchema(
  new URL("../../../schema/workflow.schema.json", import.meta.url),
  () => createRequire(import.meta.url)("./validator.cjs") as SchemaValidator,
);

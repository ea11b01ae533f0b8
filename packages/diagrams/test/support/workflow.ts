import { deref, type JsonSchema } from "../../src/core/validate/schema.js";
import { type } from "../../src/types/workflow/index.js";
import type { WorkflowDiagram } from "../../src/types/workflow/model.js";
import { type ValidateOptions, validateAs } from "../../src/validate/as-type.js";

/** Validates workflow text synchronously (the type already loaded), as the CLI does. */
export function validateWorkflow(source: string, options: ValidateOptions = {}) {
  return validateAs<WorkflowDiagram>(type, source, options);
}

/** The workflow JSON Schema. */
export function loadSchema(): JsonSchema {
  return type.schema.json();
}

/** A workflow schema fragment with its $ref followed. */
export function derefWorkflow(schema: unknown): JsonSchema | undefined {
  return deref(loadSchema(), schema);
}

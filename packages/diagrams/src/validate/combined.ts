import { combinedSchema } from "../core/validate/shared-schema.js";
import { loadType, TYPE_NAMES } from "../types/index.js";

/** The text of schema/diagram.schema.json, built from every registered type's schema. */
export async function combinedSchemaText(): Promise<string> {
  const schemas = [];
  for (const name of TYPE_NAMES) schemas.push((await loadType(name)).schema.json());
  return `${JSON.stringify(combinedSchema(schemas), null, 2)}\n`;
}

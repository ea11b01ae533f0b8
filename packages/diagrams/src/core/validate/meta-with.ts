import type { JsonSchema } from "./schema.js";
import { SHARED_DEFS } from "./shared-schema.js";

/** Which way an automatic layout runs: the JSON Schema of `meta.direction`. */
export const LAYOUT_DIRECTION_SCHEMA: JsonSchema = {
  description:
    "Which way the drawing reads: right (left to right) or down (top to bottom); left and up reverse them. Without it the layout chooses from the content, starting from the type's own direction.",
  enum: ["right", "down", "left", "up"],
};

/**
 * The shared `meta` with a type's own properties added (e.g. `direction` for the types laid
 * out automatically). The shared definition refuses unknown properties, so a type that needs
 * more in its meta defines this as its own `$defs` entry, and the shared meta stays the same
 * for every other type (a workflow does not accept a direction it would ignore).
 */
export function metaWith(properties: Record<string, JsonSchema>): JsonSchema {
  const meta = SHARED_DEFS.meta as JsonSchema & { properties: Record<string, JsonSchema> };
  return { ...meta, properties: { ...meta.properties, ...properties } };
}

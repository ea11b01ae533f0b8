import type { DiagramType } from "../core/diagram-type.js";

/**
 * The registry: every diagram_type value the tool knows, each with a loader that imports the
 * type's folder only when a description of that type is handled, so a workflow render never
 * loads another type's code (nor what it depends on; test/lazy-load.test.ts holds it to that).
 * Adding a type adds its folder and one line here; `npm run schema:write` then writes its
 * schema/<type>.schema.json and adds it to schema/diagram.schema.json. Mermaid import and
 * export (src/mermaid) name the types they convert, so a type they should handle goes there too.
 */
// biome-ignore lint/suspicious/noExplicitAny: each loader returns its own DiagramType<D, L>.
type Loader = () => Promise<{ type: DiagramType<any, any> }>;

const LOADERS = {
  workflow: () => import("./workflow/index.js"),
  sequence: () => import("./sequence/index.js"),
  lifecycle: () => import("./lifecycle/index.js"),
  architecture: () => import("./architecture/index.js"),
  "data-flow": () => import("./data-flow/index.js"),
} satisfies Record<string, Loader>;

export type TypeName = keyof typeof LOADERS;

/** The registered diagram_type values, in the order they are listed to users. */
export const TYPE_NAMES = Object.keys(LOADERS) as TypeName[];

export function isTypeName(name: unknown): name is TypeName {
  return typeof name === "string" && Object.hasOwn(LOADERS, name);
}

/** The type registered as `name` (loaded on first use). */
// biome-ignore lint/suspicious/noExplicitAny: callers narrow by the description they hold.
export async function loadType(name: TypeName): Promise<DiagramType<any, any>> {
  return (await LOADERS[name]()).type;
}

// Writes the shipped JSON Schemas from the built sources: schema/<type>.schema.json for every
// registered type (the type's schema with the shared definitions) and schema/diagram.schema.json
// (all types, picked by diagram_type). Run after changing a type's schema or the shared
// definitions: `npm run schema:write`; test/family.test.ts fails while a shipped file is stale.
import { writeFileSync } from "node:fs";

const { TYPE_NAMES, loadType } = await import("../dist/types/index.js");
const { combinedSchemaText } = await import("../dist/validate/combined.js");

const write = (fileName, text) => {
  writeFileSync(new URL(`../schema/${fileName}`, import.meta.url), text);
  console.log(`schema/${fileName}`);
};
for (const name of TYPE_NAMES) {
  const { schema } = await loadType(name);
  write(schema.fileName, schema.text());
}
write("diagram.schema.json", await combinedSchemaText());

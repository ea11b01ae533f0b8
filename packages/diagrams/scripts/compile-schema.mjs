// Build step (after tsc). Compiles every registered type's JSON Schema with ajv into standalone
// validation code (dist/types/<type>/validator.cjs, beside the type's schema module, which
// loads it), so the CLI starts without ajv's compiler, and the envelope used for an unknown
// diagram_type (dist/validate/envelope-validator.cjs). The shipped schema files in schema/
// are written by scripts/write-schemas.mjs (`npm run schema:write`), not by the build.
// The options come from the built core, the same ones the source fallback uses.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const Ajv2020 = require("ajv/dist/2020.js");
const standaloneCode = require("ajv/dist/standalone/index.js").default;
const { AJV_OPTIONS } = await import("../dist/core/validate/schema.js");
const { TYPE_NAMES, loadType } = await import("../dist/types/index.js");
const { envelope } = await import("../dist/validate/envelope.js");

function compile(schema, file) {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true } });
  const validate = ajv.compile(schema);
  const out = new URL(file, import.meta.url);
  mkdirSync(new URL(".", out), { recursive: true });
  writeFileSync(out, standaloneCode(ajv, validate));
}

for (const name of TYPE_NAMES) {
  const { schema } = await loadType(name);
  compile(schema.json(), `../dist/types/${name}/validator.cjs`);
}
compile(envelope.schema.json(), "../dist/validate/envelope-validator.cjs");

// npm links the `orderline-diagrams` bin before `prepare` builds it, so on a fresh clone the
// file tsc creates would not be executable; make it so here, at the end of every build.
chmodSync(new URL("../dist/cli/main.js", import.meta.url), 0o755);
